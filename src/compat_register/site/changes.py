"""The Changes page and each entry's last changes: a `History` as Markdown lines."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from markupsafe import Markup

from ..history.diffing import EntryChange, Field, Unreadable
from ..history.timeline import ARROW, MARKDOWN, PLAIN, entry_events, entry_phrases, short_phrase
from ..model.registers import Register, web_base
from . import chart
from .markdown import code_span, escape_inline, safe_url

if TYPE_CHECKING:  # types only: a page needs the history's data, not its git reader
    from ..history.repository import Commit, History
    from .formatter import PageFormatter


HEADLINE = 72
"""The longest commit subject a heading shows, as git's own tools cut a subject line."""


@dataclass
class Chart:
    """One register's chart, its caption, and the table behind it: (day, counts) after
    each change, oldest first."""

    register: Register
    svg: Markup
    caption: Markup
    rows: list[tuple[str, dict[str, int]]]


class ChangesView:
    """What the site shows of a history, made once per build; the charts end at `built`."""

    def __init__(
        self, history: History, page: str, repo_url: str | None = None, built: int | None = None
    ) -> None:
        self.history = history
        self.page = page
        self.base = web_base(repo_url)
        self.events = entry_events(history.commits)
        self.built = int(time.time()) if built is None else built

    @staticmethod
    def anchor(commit: Commit) -> str:
        return f"commit-{commit.sha[:12]}"

    @staticmethod
    def day(commit: Commit) -> str:
        return chart.day(commit.time)

    @staticmethod
    def headline(commit: Commit) -> str:
        """A commit's subject as its heading shows it: at most `HEADLINE` characters, cut at
        a word with `…` (git's `%s` is the whole first paragraph of the message)."""
        subject = " ".join(commit.subject.split())
        if len(subject) <= HEADLINE:
            return subject
        words = subject[:HEADLINE].rsplit(" ", 1)[0]  # the words that end before the cut
        return (words if " " in subject[:HEADLINE] else subject[: HEADLINE - 1]) + "…"

    @property
    def start(self) -> Commit | None:
        return self.history.commits[-1] if self.history.commits else None

    def commit_link(self, commit: Commit) -> str:
        """`[abc1234](.../commit/<sha>)`, or code without the project's repository URL."""
        short = commit.sha[:7]
        url = f"{self.base}/commit/{quote(commit.sha, safe='')}" if self.base else ""
        return f"[`{short}`]({url})" if url and safe_url(url) else f"`{short}`"

    def commit_lines(self, commit: Commit, fmt: PageFormatter) -> list[str]:
        """A commit's changes as Markdown list items (nested items indented by four)."""
        diff = commit.diff
        lines = [f"- {MARKDOWN.source(s)}" for s in diff.sources]
        lines += [_unreadable("sources.yaml", p) for p in diff.source_problems if p.side == "to"]
        for register in diff.registers:
            if register.change == "unreadable":
                name = f"{register.register}.yaml"
                lines += [_unreadable(name, p) for p in register.problems if p.side == "to"]
                continue
            lines.append(f"- register {code_span(register.register)}: {register.change}")
            lines += [
                f"    - {escape_inline(PLAIN.field(n, v))}" for n, v in register.fields.items()
            ]
        for change in diff.entries:
            lines += self._entry_lines(change, fmt)
        return lines

    def _entry_lines(self, change: EntryChange, fmt: PageFormatter) -> list[str]:
        removed = change.change == "removed"
        named = escape_inline(change.id) if removed else fmt.entry_link(change.id)
        head = f"- {named} {escape_inline(change.title)}: "
        if change.change != "changed":
            return [f"{head}**{change.change}**"]
        said = "; ".join(entry_phrases(change, _field, _state))
        return [head + said, *(f"    - {line}" for line in MARKDOWN.citations(change))]

    def last_changes(self, entry_id: str, fmt: PageFormatter) -> str:
        """`2026-10-02: missing -> partial; 2026-09-30: added`, each date linked to its commit
        on the Changes page."""
        return "; ".join(
            f"{self._day_link(commit, fmt)}: "
            + escape_inline(short_phrase(change).replace(ARROW, " → "))
            for commit, change in self.events.get(entry_id, [])
        )

    def last_changed(self, slug: str, fmt: PageFormatter) -> str:
        """The day of the last commit that changed a register, linked to the Changes page."""
        series = self.history.counts.get(slug)
        return f"{self._day_link(series[-1][0], fmt)}{{ .reg-link .reg-nowrap }}" if series else ""

    def _day_link(self, commit: Commit, fmt: PageFormatter) -> str:
        return f"[{self.day(commit)}]({fmt.link(self.page, self.anchor(commit))})"

    def charts(self, registers: list[Register]) -> list[Chart]:
        """A chart per register the history counts, all on one time axis: from the first
        change of any to the build."""
        series = {
            r.slug: [(c.time, counts) for c, counts in self.history.counts.get(r.slug, [])]
            for r in registers
        }
        starts = [points[0][0] for points in series.values() if points]
        if not starts:
            return []
        span = (min(starts), self.built)
        found = []
        for register in registers:
            if points := series[register.slug]:
                svg = chart.svg(register.title, register.slug, points, span)
                last_at, last = points[-1]
                caption = f"{chart.counts_text(last)} (last changed {chart.day(last_at)})"
                rows = [(chart.day(t), counts) for t, counts in points]
                found.append(Chart(register, Markup(svg), Markup(escape_inline(caption)), rows))
        return found


def _field(name: str, value: Field) -> str:
    return escape_inline(PLAIN.field(name, value).replace(ARROW, " → "))


def _state(value: tuple[str, str]) -> str:
    return f"{code_span(str(value[0]))} → {code_span(str(value[1]))}"


def _unreadable(name: str, problem: Unreadable) -> str:
    where = f"{name}:{problem.line}:{problem.col}"
    return f"- {code_span(where)} does not load at this commit: {escape_inline(problem.message)}"

"""The formatting the page templates call (`fmt.*`): links, badges, prose, citations, the
Matrix page's cells, each returned as safe Markdown; a register page's citations collect
their excerpts here, for its excerpt file."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from markupsafe import Markup

from ..coverage.sitecoverage import STATES as COVERAGE_STATES
from ..model.positions import Where
from ..model.registers import Citation, CitationKey, Entry, EntryKey, Register, Revisions, anchor_of
from ..model.vocabulary import LEVELS, SIZES, STATES
from ..views import priorities as prio
from ..views import revisionmatrix as revs
from ..views.conceptmatrix import NOT_RECORDED, Cell, Row
from . import chart, markdown
from .excerpts import Excerpt, excerpt_block
from .markdown import code_span, escape_inline, url_path
from .urls import relative

if TYPE_CHECKING:
    from ..conformance.join import StatementCheck
    from ..verifying.verify import Outcome


RANKS: dict[str, tuple[str, ...]] = {
    "state": STATES,
    "value": LEVELS,
    "effort": SIZES,
    "cell": revs.CELLS,
    "coverage": COVERAGE_STATES,
}
"""Sort order of badge keywords in the overview (the JavaScript sorts by this rank)."""

CELL_WORDS = {"unrecorded": "not recorded"}
"""How a matrix cell kind reads, where its name is not the word."""

MAX_DEPTH = 3
"""The deepest concept indent the stylesheet draws (deeper concepts share it)."""


@dataclass
class SourceView:
    """One listed citation as its page shows it, as safe Markdown."""

    link: Markup
    quote: Markup | None
    outcome: str
    excerpt: Markup | None = None
    """`path:lines @ sha`, linked to its lines in the register's excerpt file."""


_DAY = re.compile(r"\d{4}-\d\d-\d\d(?=T|$)")  # alone or before a time


def _badge(kind: str, key: str, text: str) -> str:
    kind = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-") or "none"
    css = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-") or "none"
    rank = RANKS[kind].index(key) if key in RANKS.get(kind, ()) else len(RANKS.get(kind, ()))
    return f'<span class="reg-badge reg-{kind} reg-{kind}--{css}" data-rank="{rank}">{text}</span>'


@dataclass
class PageFormatter:
    """Formatting helpers for one page; templates call these as `fmt.*`."""

    page: str
    linker: markdown.Linker
    outcomes: dict[CitationKey, Outcome] = field(default_factory=dict)
    registers: dict[str, tuple[Register, str]] = field(default_factory=dict)
    revision_pages: dict[str, str] = field(default_factory=dict)
    excerpt_file: str | None = None
    """On a register page, its excerpt file, holding `excerpts` (by key)."""
    excerpts: dict[str, Excerpt] = field(default_factory=dict)
    backlinks_of: Mapping[EntryKey, list[str]] = field(default_factory=dict)
    printed: dict[str, str] = field(default_factory=dict)
    """Each prose Markdown printed, placed as a page places it -> the page: the only foreign
    text a page holds unescaped, which `sanitize.refused` reads."""

    def prose(self, text: str | None) -> str:
        """Register Markdown, made safe, with references and citations linked."""
        return self._kept(markdown.prose(text or "", self.linker), "{}")

    def item(self, text: str | None) -> str:
        """Prose as the rest of a list item: later lines indented, a blank line after them (or
        a fence would swallow the next item), an opening fence on a line of its own."""
        own_line = markdown.opens_with_fence(text or "")
        body = markdown.prose(text or "", self.linker, own_line=own_line)
        body = "\n\n" + body.lstrip("\n") if own_line else body
        body = re.sub(r"\n[ ]+\n", "\n\n", body.replace("\n", "\n    "))
        return self._kept(body + "\n" if "\n" in body else body, "- **Item.** {}")

    def cell(self, text: str | None) -> str:
        """Prose for a table cell: one line, code blocks as code spans, `|` escaped."""
        made = markdown.prose(text or "", self.linker, one_line=True)
        return self._kept(made, "| Cell |\n|---|\n| {} |")

    def _kept(self, made: str, placed: str) -> str:
        if made:
            self.printed.setdefault(placed.format(made), self.page)
        return made

    def subject_name(self, alias: str) -> str:
        """A subject as the site names it: its source's title."""
        return escape_inline(self.linker.sources.name_of(alias))

    def slug(self, text: str) -> str:
        """An anchor made of any text (`subject-mcpx`), as an entry's of its ID."""
        return anchor_of(text)

    def inline(self, text: str | None) -> str:
        """Plain text (titles, dates, tags) exactly as written."""
        return escape_inline(str(text or ""))

    def code(self, text: str | None) -> str:
        return code_span(str(text or "")) if text else ""

    def nowrap(self, text: str | None) -> str:
        """A date or a revision's name kept on one line (`2024-11-` / `05` read as two)."""
        return f'<span class="reg-nowrap">{escape_inline(str(text or ""))}</span>'

    def day(self, text: str | None) -> str:
        """A date-time as its day (`2026-09-30T08:00:00-05:00`: `2026-09-30`, the whole
        value its title), on one line; any other text as written."""
        value = str(text or "")
        if not (day := _DAY.match(value)) or day.group(0) == value:
            return self.nowrap(value)
        title = html.escape(value, quote=True)
        return f'<span class="reg-nowrap" title="{title}">{escape_inline(day.group(0))}</span>'

    def link(self, target: str, anchor: str = "") -> str:
        """A relative link to another generated page, or a bare anchor on this one."""
        hash_ = "#" + url_path(anchor) if anchor else ""
        if target == self.page and anchor:
            return hash_
        return url_path(relative(target, self.page)) + hash_

    def entry_link(self, entry_id: str) -> str:
        """`[META-07](meta.md#meta-07)`, or the ID as text when it is not published."""
        return markdown.entry_link(entry_id, self.linker.entry_link(entry_id))

    def badge(self, kind: str, key: str, label: str | None = None) -> str:
        """A coloured keyword: `<span class="reg-badge reg-state--missing">missing</span>`."""
        return _badge(kind, key, escape_inline(label or key))

    def html_badge(self, kind: str, key: str) -> str:
        """A badge inside raw HTML, which no Markdown reads: its text HTML-escaped."""
        return _badge(kind, key, html.escape(key))

    def revision(self, name: str) -> str:
        """A revision's name, linked to its page when it has one."""
        page = self.revision_pages.get(name)
        if page is None:
            return escape_inline(name)
        return f"[{escape_inline(name)}]({self.link(page)}){{ .reg-link }}"

    def revisions(self, revisions: Revisions) -> str:
        """ "added in 2024-11-05, changed in 2025-06-18": each revision linked to its page."""
        parts = [f"added in {self.revision(revisions.added)}"] if revisions.added else []
        if revisions.changed:
            names = ", ".join(self.revision(name) for name in revisions.changed)
            parts.append(f"changed in {names}")
        if revisions.removed:
            parts.append(f"removed in {self.revision(revisions.removed)}")
        return ", ".join(parts)

    def matrix_cell(self, kind: str, entry_id: str) -> str:
        """A revision matrix cell: its word on a badge; an event links to the entry."""
        text = self.badge("cell", kind, CELL_WORDS.get(kind, kind))
        url = self.linker.entry_link(entry_id) if kind in revs.EVENTS else None
        return f"[{text}]({url})" if url else text

    def state_bar(self, register: Register) -> str:
        """The register's entries per state as an inline SVG bar, named by its counts."""
        counts = prio.state_counts(register)
        return chart.state_bar(register.title, register.slug, counts, escape=escape_inline)

    def bar_legend(self, states: Iterable[str]) -> str:
        return chart.bar_legend(list(states))

    def sources(self, entry: Entry) -> list[SourceView]:
        return [self.source(citation) for citation in entry.citations]

    def source(self, citation: Citation) -> SourceView:
        outcome = self.outcomes.get(citation.key)
        view = SourceView(
            link=Markup(self.citation_link(citation)),
            quote=Markup(escape_inline(citation.quote)) if citation.quote else None,
            outcome=outcome.outcome if outcome else "unverified",
        )
        if outcome and outcome.excerpt and self.excerpt_file:
            source = self.linker.sources.sources.get(citation.source or "")
            sha = (outcome.commit or (source.commit if source else ""))[:7]
            title = f"{citation.repo_path or citation.path}:{citation.lines_text}"
            title += f" @ {sha}" if sha else ""
            made = Excerpt.of(title, excerpt_block(citation, *outcome.shown()))
            excerpt = self.excerpts.setdefault(made.key, made)
            target = self.link(self.excerpt_file, excerpt.key)
            view.excerpt = Markup(f"[{escape_inline(title)}]({target}){{ .reg-excerpt }}")
        return view

    def places(self, places: Iterable[Where]) -> str:
        """ "registers/meta.yaml:36, registers/meta.yaml:46": each kept on one line."""
        return ", ".join(
            f'<span class="reg-where">{escape_inline(f"{where.file}:{where.line}")}</span>'
            for where in places
        )

    def citation_link(self, citation: Citation) -> str:
        return markdown.citation_link(citation, self.linker.sources)

    def backlinks(self, entry: Entry) -> str:
        """ "META-06, META-10": the entries (or register summaries) that reference `entry`."""
        return ", ".join(self._backlink(owner) for owner in self.backlinks_of.get(entry.key, []))

    def _backlink(self, owner: str) -> str:
        if owner in self.linker.entry_pages or owner not in self.registers:
            return self.entry_link(owner)
        register, page = self.registers[owner]  # a reference in a register's summary
        return f"[{escape_inline(register.title)}]({self.link(page)})"

    def subject(self, register: Register) -> str:
        """ "mcpx @ 05c78b2" (the source's title), linked to the commit when it is public."""
        source = self.linker.sources.sources.get(register.subject)
        if source is None:
            return escape_inline(register.subject)
        name = self.subject_name(register.subject)
        text = f"{name} @ {escape_inline(source.commit[:7])}"
        url = source.commit_url()
        if url and markdown.safe_url(url):
            return f"[{text}]({markdown.link_destination(url)})"
        return text

    def subject_version(self, alias: str) -> str:
        """What a subject's pin stands for: its `version:`, else the short commit (plain)."""
        source = self.linker.sources.sources.get(alias)
        return source.version_text if source is not None else ""

    def subject_header(self, alias: str) -> str:
        """A Matrix column's header: the subject's name and what its pin stands for."""
        version = escape_inline(self.subject_version(alias))
        shown = f' <span class="reg-version">{version}</span>' if version else ""
        return self.subject_name(alias) + shown

    def snippet(self, alt: str, target: str) -> str:
        """The Markdown that embeds the badge `target` (its path in the site), as code a
        reader copies (register.js puts in the badge's served address)."""
        alt = re.sub(r"[\[\]\n]+", " ", alt)  # the image's text ends at `]`
        markdown = f"![{alt}]({url_path(target)})"
        return f"{code_span(markdown)}{{ .reg-snippet }}"

    def concept_cell(self, shown: Cell) -> Markup:
        """A Matrix page cell: a block in its state's colour holding the state in words and,
        for each entry, its ID (a link), value and effort as text; then stale, checks."""
        if not shown.recorded:
            rank = len(STATES) + 1  # after every state
            return Markup(
                f'<span class="reg-mcell reg-mcell--unrecorded"><span class="reg-badge reg-cell '
                f'reg-cell--unrecorded" data-rank="{rank}">{NOT_RECORDED}</span></span>'
            )
        several = len(shown.entries) > 1
        lines = "".join(self._cell_entry(entry, several) for entry in shown.entries)
        css = re.sub(r"[^a-z0-9]+", "-", shown.state).strip("-")
        block = f'<span class="reg-mcell reg-mcell--{css}">{self.badge("state", shown.state)}'
        parts = [f"{block}{lines}</span>"]
        if shown.stale:
            ids = escape_inline(", ".join(shown.stale))
            parts.append(f'<span class="reg-stale">stale citation in {ids}</span>')
        if shown.checks:
            measured = ", ".join(
                f"{check} {status or 'not run'}" for check, status in shown.checks.items()
            )
            parts.append(f'<span class="reg-checks">checks: {escape_inline(measured)}</span>')
        return Markup(" ".join(parts))

    def statement_checks(self, checks: Iterable[StatementCheck]) -> Markup:
        """A Coverage row's join, a line per aligned requirement: its check (its SEP when
        excluded), the suite's status and why, and each subject's latest result."""
        lines = []
        for check in checks:
            held = check.requirement
            status = f"{held.status}: {held.reason}" if held.reason else held.status
            named = self.code(held.check) if held.check else self.inline(f"SEP-{held.sep}")
            results = [
                f"{self.subject_name(r.subject)}: {self.inline(r.status or 'not run')}"
                for r in check.results
            ]
            said = "; ".join([f"{named} {self.inline(status)}", *results])
            lines.append(f'<span class="reg-check">{said}</span>')
        return Markup("".join(lines))

    def _cell_entry(self, entry: Entry, with_state: bool) -> str:
        """One entry of a Matrix cell: `META-07 value med, effort S` (`missing, value med,
        effort S` when the cell rolls up several)."""
        words = f"value {entry.value.key or '?'}, effort {entry.effort.key or '?'}"
        words = f"{entry.status.key}, {words}" if with_state else words
        return (
            f'<span class="reg-mentry">{self.entry_link(entry.id)} '
            f'<span class="reg-rated">{escape_inline(words)}</span></span>'
        )

    def concept(self, row: Row, page: str | None = None) -> Markup:
        """A Matrix page row's concept, linked to its `page`, and its ID, indented under its
        parent (named in words too, for a reader who does not see the indent)."""
        title = escape_inline(row.concept.title)
        if page is not None:
            title = f"[{title}]({self.link(page)})"
        parent = ""
        if row.concept.parent and row.depth:
            under = escape_inline(row.concept.parent)
            parent = f' <span class="reg-cell-detail">(under {under})</span>'
        depth = min(row.depth, MAX_DEPTH)
        return Markup(
            f'<span class="reg-concept reg-concept--depth-{depth}">{title}{parent} '
            f"{self.code(row.concept.id)}</span>"
        )

"""Render stage: a register set and its citation outcomes -> Markdown pages, as strings.

Nothing here writes a file: `site.build` gathers the pages into the site, which the MkDocs
plugin hands to MkDocs and `register render` writes to a folder. Templates (Jinja2, through
`jinja`) hold the shape of a page; `formatter.PageFormatter` holds the formatting they call,
so a site's own templates reuse it; `escaping` says why every value they print is safe;
`urls` says where each page goes; `pagemeta` what its front matter says.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from ..coverage import sitecoverage as site_coverage
from ..coverage.files import cited_as
from ..coverage.sitecoverage import SiteCoverage
from ..coverage.states import Row
from ..model.notation import lines_text
from ..model.registers import Citation, CitationKey, Entry, Register, RegisterSet
from ..model.vocabulary import CHARTED, LEVELS, OPEN, SIZES, STATES, counted
from ..reporting import export
from ..views import conceptmatrix as concepts_view
from ..views import priorities as prio
from ..views import revisionmatrix as revs
from . import chart, matrixcells
from .changes import ChangesView
from .editing import edit_link
from .escaping import Trusted, front_matter, yaml_lines
from .excerptmodel import ExcerptFile
from .formatter import CELL_WORDS, PageFormatter
from .health import STALE, outcome_groups, register_health
from .jinja import environment, render_template
from .markdown import Linker, escape_inline, link_destination, safe_url
from .pagemeta import page_meta, title_meta
from .urls import Layout, relative

if TYPE_CHECKING:
    from ..conformance.measurements import Measurements
    from ..history.repository import History
    from ..verifying.verify import Outcome


class Renderer:
    """Renders every page of a register set with one Jinja2 environment."""

    def __init__(
        self,
        registers: RegisterSet,
        outcomes: Sequence[Outcome] = (),
        *,
        layout: Layout | None = None,
        templates: Path | None = None,
        history: History | None = None,
        repo_url: str | None = None,
        subject: str | None = None,
        edit_url: str | None = None,
        built: int | None = None,
        coverage: SiteCoverage | None = None,
        conformance: Measurements | None = None,
        since: concepts_view.SinceOf | None = None,
    ):
        """`subject` leads the priorities page (`views.priorities.own_subject`);
        `edit_url`, the URL the registers folder's files are edited at (a folder URL, its
        file names appended), gives each entry an edit link; `built`, the time of the build
        (seconds since the epoch; now when None), is where the Changes page's charts end."""
        self.registers = registers
        self.since = since
        """When each entry reached its state (the Matrix page's cells); None: unknown."""
        self.coverage = coverage
        """The Coverage pages' data; None: the site has none (no source names statements)."""
        self.conformance = conformance
        """Each entry's conformance checks and the contradictions; None: no record."""
        self.subject = subject
        self.edit_url = edit_url
        self.changes = (
            None
            if history is None
            else ChangesView(history, (layout or Layout()).changes, repo_url, built)
        )
        self.layout = layout or Layout()
        self.outcomes = {o.citation.key: o for o in outcomes}
        self.env = environment(templates)
        self.entry_pages = {
            entry.id: self.layout.page_of(register.slug)
            for register in registers.registers
            for entry in register.entries
        }
        self.prose_citations = prose_citations(registers)
        self.excerpts: dict[str, ExcerptFile] = {}
        """Excerpt file (`Layout.excerpts_of`) -> its excerpts, of each register page
        rendered that shows one."""
        self.printed: dict[str, str] = {}
        """Each prose Markdown the pages printed, as its page places it -> that page
        (`PrintingFormatter`): what `sanitize.refused` reads."""

    def formatter(self, page: str) -> PageFormatter:
        linker = Linker(
            self.registers.sources, self.entry_pages, page, relative, self.prose_citations
        )
        registers = {r.slug: (r, self.layout.page_of(r.slug)) for r in self.registers.registers}
        revision_pages = {
            name: self.layout.revision_page(name) for name in self.registers.sources.revisions
        }
        return PrintingFormatter(
            page,
            linker,
            self.outcomes,
            registers,
            revision_pages,
            backlinks_of=self.registers.backlinks,
            printed=self.printed,
        )

    def pages(self) -> dict[str, str]:
        """Every generated page: path relative to the docs dir -> Markdown."""
        pages = {self.layout.overview: self.overview()}
        for register in self.registers.registers:
            pages[self.layout.page_of(register.slug)] = self.register(register)
        pages[self.layout.health] = self.health()
        for register in self.registers.registers:
            pages[self.layout.health_of(register.slug)] = self.register_health(register)
        if self.changes is not None:
            pages[self.layout.changes] = self.changes_page(self.changes)
        pages[self.layout.matrix] = self.matrix()
        changes = revs.changes(self.registers)
        for number, revision in enumerate(changes):
            around = (changes[number - 1] if number else None, changes[number + 1 : number + 2])
            pages[self.layout.revision_page(revision.revision)] = self.revision(revision, around)
        pages[self.layout.priorities] = self.priorities()
        if self.registers.concepts is not None:
            pages[self.layout.concept_matrix] = self.concept_matrix()
        if self.coverage is not None:
            pages.update(self.coverage_pages(self.coverage))
        return pages

    def coverage_pages(self, coverage: SiteCoverage) -> dict[str, str]:
        """The summary of every revision's coverage, and each revision's Coverage page."""
        sources = self.registers.sources
        found = coverage.coverage
        rows = site_coverage.summary(found) if found is not None else []
        fmt = self.formatter(self.layout.coverage_summary)
        bar = lambda revision, counts: Markup(  # noqa: E731 - a template's helper
            chart.state_bar(revision, f"coverage-{revision}", _bar_counts(counts), escape_inline)
        )
        pages = {
            self.layout.coverage_summary: self._render(
                "coverage-summary.md.j2",
                fmt,
                rows=rows,
                problems=coverage.problems,
                bar_of=bar,
                layout=self.layout,
            )
        }
        for revision in sources.revisions if found is not None else []:
            view = coverage.revision(revision, sources)
            page = self.layout.coverage_page(revision)
            pages[page] = self._render(
                "coverage.md.j2",
                self.formatter(page),
                view=view,
                first=revision == sources.revisions[0],
                states=site_coverage.STATES,
                bar=lambda file: Markup(
                    chart.state_bar(
                        file.shown, f"file-{file.shown}", _bar_counts(file.counts), escape_inline
                    )
                ),
                statement_link=lambda row: Markup(self._statement_link(row)),
                cited_as=lambda row: cited_as(row.source, row.statement.path, sources),
                safe_link=lambda url: Markup(link_destination(url) if safe_url(url) else "#"),
                layout=self.layout,
            )
        return pages

    def _statement_link(self, row: Row) -> str:
        """`[12-13](permalink)`, or the lines as text where the source has no public URL."""
        lines = escape_inline(lines_text(row.statement.line, row.statement.end))
        url = site_coverage.statement_url(row, self.registers.sources)
        return f"[{lines}]({link_destination(url)})" if url else lines

    def changes_page(self, view: ChangesView) -> str:
        fmt = self.formatter(self.layout.changes)
        return self._render(
            "changes.md.j2",
            fmt,
            view=Trusted(view),
            commits=view.history.commits,
            charts=view.charts(self.registers.registers),
            charted=CHARTED,
            layout=self.layout,
        )

    def register(self, register: Register) -> str:
        """A register's page; its excerpts go to `self.excerpts`, under its excerpt file."""
        page = self.layout.page_of(register.slug)
        fmt = self.formatter(page)
        fmt.excerpt_file = self.layout.excerpts_of(register.slug)
        legend = fmt.link(self.layout.legend) if self.layout.legend else None
        text = self._render(
            "register.md.j2",
            fmt,
            register=register,
            legend=legend,
            last_changes=lambda entry: Markup(
                self.changes.last_changes(entry.id, fmt) if self.changes else ""
            ),
            last_changed=Markup(self.changes.last_changed(register.slug, fmt))
            if self.changes
            else "",
            counts=prio.state_counts(register),
            edit_link=lambda entry: Markup(edit_link(self.edit_url, register, entry)),
            front_matter=front_matter(page_meta(register)),
            checks_of=lambda entry: (
                self.conformance.checks_of(entry.id) if self.conformance else []
            ),
            statements_of=lambda entry: (
                self.coverage.statements_of(entry.id) if self.coverage else []
            ),
            cited_as=lambda row: cited_as(row.source, row.statement.path, self.registers.sources),
            lines_of=lambda row: lines_text(row.statement.line, row.statement.end),
            layout=self.layout,
        )
        if fmt.excerpts:
            excerpts = list(fmt.excerpts.values())
            self.excerpts[fmt.excerpt_file] = ExcerptFile(register.slug, register.title, excerpts)
        return text

    def downloads(self) -> dict[str, str]:
        """The files the site offers besides its pages: the register set as JSON, exactly
        what `register export` prints (path relative to the docs dir -> text)."""
        if self.layout.download is None:
            return {}
        data = export.export(self.registers)
        return {self.layout.download: json.dumps(data, ensure_ascii=False, indent=2) + "\n"}

    def overview(self) -> str:
        fmt = self.formatter(self.layout.overview)
        rows = [(r, entry) for r in self.registers.registers for entry in r.entries]
        path = self.layout.download
        return self._render(
            "overview.md.j2",
            fmt,
            download={"name": posixpath.basename(path), "path": path} if path else None,
            rows=rows,
            layout=self.layout,
            registers=self.registers.registers,
            states=counted(e.status.key for _, e in rows),
            tags=sorted({t for r, e in rows for t in tags_of(r, e)}),
            tags_of=tags_of,
            coverage=self.coverage is not None,
        )

    def matrix(self) -> str:
        fmt = self.formatter(self.layout.matrix)
        rows = revs.matrix(self.registers)
        return self._render(
            "matrix.md.j2",
            fmt,
            rows=rows,
            layout=self.layout,
            revisions=self.registers.sources.revisions,
            registers=self.registers.registers,
            states=counted(row.entry.status.key for row in rows),
            cells=revs.CELLS,
            cell_words=CELL_WORDS,
            tags=sorted({t for row in rows for t in tags_of(row.register, row.entry)}),
            tags_of=tags_of,
        )

    def revision(
        self,
        changes: revs.RevisionChanges,
        around: tuple[revs.RevisionChanges | None, list[revs.RevisionChanges]] = (None, []),
    ) -> str:
        """ "What 2025-11-25 changed"; `around` is the revision before and (a list of at most)
        the one after, for the page's own navigation."""
        before, after = around
        return self._render(
            "revision.md.j2",
            self.formatter(self.layout.revision_page(changes.revision)),
            changes=changes,
            before=before.revision if before else None,
            after=after[0].revision if after else None,
            layout=self.layout,
            coverage=self.coverage.revision(changes.revision, self.registers.sources)
            if self.coverage
            else None,
            coverage_summary=self.coverage is not None,
        )

    def priorities(self) -> str:
        groups = prio.priorities(self.registers, prio.own_subject(self.registers, self.subject))
        return self._render(
            "priorities.md.j2",
            self.formatter(self.layout.priorities),
            groups=groups,
            grid=prio.grid(groups),
            values=LEVELS,
            efforts=SIZES,
            open_states=OPEN,
            registers=[item.register for item in _first_of_each(groups)],
            layout=self.layout,
        )

    def concept_matrix(self) -> str:
        """The Matrix page (`views.conceptmatrix`); a cell on a stale citation says so once the
        citations were verified; `since` dates the cells."""
        outcomes = {key: o.outcome for key, o in self.outcomes.items()}
        records = self.conformance.records if self.conformance else None
        shown = concepts_view.matrix(self.registers, outcomes, self.since, self.subject, records)
        fmt = self.formatter(self.layout.concept_matrix)
        present = {cell.state for row in shown.rows for cell in row.cells}
        return self._render(
            "concept-matrix.md.j2",
            fmt,
            rows=shown.rows,
            subjects=shown.subjects,
            unnamed=shown.unnamed,
            states=[state for state in STATES if state in present],
            cell_of=partial(matrixcells.cell, fmt),
            concept_of=partial(matrixcells.concept, fmt),
            stale_known=any(o.outcome != "unverified" for o in self.outcomes.values()),
            layout=self.layout,
        )

    def health(self) -> str:
        """The health page: every register's counts by outcome, and every stale citation
        (stale first: what needs fixing); the rest are on each register's own page."""
        fmt = self.formatter(self.layout.health)
        groups = outcome_groups(self.registers.citations(), self.outcomes)
        per_register = [
            register_health(r, outcome_groups(r.citations(), self.outcomes))
            for r in self.registers.registers
        ]
        return self._render(
            "health.md.j2",
            fmt,
            groups={name: found for name, found in groups.items() if name in STALE},
            counts={name: sum(len(g.rows) for g in found) for name, found in groups.items()},
            registers=per_register,
            register_of={r.slug: r for r in self.registers.registers},  # as a site's may use
            layout=self.layout,
            total=sum(len(g.rows) for messages in groups.values() for g in messages),
            contradictions=self.conformance.contradictions if self.conformance else [],
        )

    def register_health(self, register: Register) -> str:
        """One register's health page: each of its citations by outcome, stale first."""
        page = self.layout.health_of(register.slug)
        groups = outcome_groups(register.citations(), self.outcomes)
        return self._render(
            "register-health.md.j2",
            self.formatter(page),
            register=register,
            groups=groups,
            title=Markup(yaml_lines(title_meta(f"Citation health: {register.title}"))),
            layout=self.layout,
            total=sum(len(g.rows) for messages in groups.values() for g in messages),
        )

    def _render(self, name: str, fmt: PageFormatter, **context: Any) -> str:
        return render_template(self.env, name, fmt, **context)


@dataclass
class PrintingFormatter(PageFormatter):
    """A page's formatter that keeps each prose Markdown it prints, placed as the templates
    place it (a list item, a table cell): the only foreign text a page holds unescaped."""

    printed: dict[str, str] = field(default_factory=dict)

    def prose(self, text: str | None) -> str:
        return self._kept(super().prose(text), "{}")

    def item(self, text: str | None) -> str:
        return self._kept(super().item(text), "- **Item.** {}")

    def cell(self, text: str | None) -> str:
        return self._kept(super().cell(text), "| Cell |\n|---|\n| {} |")

    def _kept(self, made: str, placed: str) -> str:
        if made:
            self.printed.setdefault(placed.format(made), self.page)
        return made


def _bar_counts(counts: Mapping[str, int]) -> dict[str, int]:
    """A revision's or a file's counts as its bar's segments, one per state."""
    return {state: counts[state] for state in site_coverage.STATES}


def _first_of_each(groups: list[prio.Group]) -> list[prio.Item]:
    """The first open item of each register, in the groups' order (the Register filter)."""
    seen: dict[str, prio.Item] = {}
    for group in groups:
        for item in group.items:
            seen.setdefault(item.register.slug, item)
    return list(seen.values())


def prose_citations(registers: RegisterSet) -> dict[CitationKey, Citation]:
    """The in-prose citations the loader built, resolved, by key (for `Linker.citations`)."""
    return {c.key: c for c in registers.citations() if c.in_prose}


def tags_of(register: Register, entry: Entry) -> list[str]:
    """An entry's tags for filtering: its own and its register's."""
    return list(dict.fromkeys([*entry.tags, *register.tags]))


def render_site(
    registers: RegisterSet, outcomes: Sequence[Outcome] = (), **options: Any
) -> dict[str, str]:
    """Every generated page of `registers`: path relative to the docs dir -> Markdown;
    with a `history`, the Changes page too. `options` are `Renderer`'s (`layout`,
    `templates`, `history`, `repo_url`, `subject`, `edit_url`, `built`, `coverage`)."""
    return Renderer(registers, outcomes, **options).pages()

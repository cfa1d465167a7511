"""Render stage: a register set and its citation outcomes -> Markdown pages, as strings.

Templates (`jinja`) hold each page's shape and `formatter.PageFormatter` the formatting they
call; `memo` keeps a page between builds while what it was made of is the same.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from ..coverage.sitecoverage import SiteCoverage
from ..coverage.states import counts_text
from ..model.notation import lines_text
from ..model.positions import Where
from ..model.registers import Citation, CitationKey, Entry, Register, RegisterSet
from ..model.vocabulary import CHARTED, LEVELS, OPEN, SIZES, counted
from ..reporting import export
from ..reporting.conformancereport import score_data, score_markdown
from ..views import conceptmatrix as concepts_view
from ..views import priorities as prio
from ..views import revisionmatrix as revs
from . import conceptpages
from .changes import ChangesView
from .conceptpages import ConceptPages
from .coveragepages import CoveragePages
from .excerpts import ExcerptFile
from .formatter import CELL_WORDS, PageFormatter
from .health import STALE, RegisterHealth, counts_of, outcome_groups
from .jinja import Trusted, environment, front_matter, render_template, title_meta, yaml_lines
from .markdown import Linker
from .memo import Tables
from .urls import Layout, edit_link, relative

if TYPE_CHECKING:
    from ..conformance.join import Joined
    from ..conformance.measurements import Measurements
    from ..conformance.scores import Scored
    from ..history.repository import History
    from ..verifying.verify import Outcome


CARDS = "<div data-reg-cards></div>"
"""Before a table: register.js lays it out as cards on a phone."""
Made = tuple[str, dict[str, ExcerptFile], dict[str, str]]
"""A kept page: its Markdown, its excerpt file (by path), the prose it printed (by text)."""
Draw = Callable[[PageFormatter], str]
"""A page's template rendered with its formatter."""


class Renderer:
    """Renders every page of a register set with one Jinja2 environment. `subject` leads
    the priorities page; `edit_url` (the registers folder's) gives each entry an edit link;
    `built` (epoch seconds; now when None) ends the Changes page's charts; `since` dates the
    Matrix page's cells."""

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
        scores: Scored | None = None,
        joined: Joined | None = None,
    ):
        self.registers, self.subject, self.edit_url = registers, subject, edit_url
        self.coverage, self.conformance, self.since = coverage, conformance, since
        self.scores, self.joined = scores, joined
        self.layout = layout = layout or Layout()
        self.changes = (
            None if history is None else ChangesView(history, layout.changes, repo_url, built)
        )
        self.outcomes = {o.citation.key: o for o in outcomes}
        self.env = environment(templates)
        self.tables = Tables(
            outcomes=self.outcomes,
            entries={e.id: layout.page_of(r.slug) for r in registers.registers for e in r.entries},
            registers={r.slug: (r, layout.page_of(r.slug)) for r in registers.registers},
            revisions={n: layout.revision_page(n) for n in registers.sources.revisions},
            backlinks=registers.backlinks,
            citations=prose_citations(registers),
        )
        self.made_of = (templates_made_of(templates), layout, registers.sources)
        """What every page kept between builds is made of (`memo`)."""
        self.excerpts: dict[str, ExcerptFile] = {}
        """Excerpt file (`Layout.excerpts_of`) -> its excerpts, of each register page."""
        self.printed: dict[str, str] = {}
        """Each prose Markdown the pages printed -> its page (`PageFormatter.printed`)."""

    def formatter(self, page: str, printed: dict[str, str] | None = None) -> PageFormatter:
        """A page's formatter, its look-ups in the shared tables noted for `memo`."""
        table = self.tables.table
        linker = Linker(
            self.registers.sources, table("entries"), page, relative, table("citations")
        )
        return PageFormatter(
            page,
            linker,
            table("outcomes"),
            table("registers"),
            table("revisions"),
            backlinks_of=table("backlinks"),
            printed=self.printed if printed is None else printed,
        )

    def _kept(self, page: str, key: tuple[Any, ...], draw: Draw, of: Register | None = None) -> str:
        """A page drawn with its own formatter, or kept from an earlier build made of the
        same (`memo`); its prose and (register `of`'s page) its excerpts noted either way."""

        def render() -> Made:
            fmt = self.formatter(page, printed={})
            file = fmt.excerpt_file = self.layout.excerpts_of(of.slug) if of else None
            text, found = draw(fmt), list(fmt.excerpts.values())
            made = ExcerptFile(of.slug, of.title, found) if of and found else None
            return text, {file: made} if file and made else {}, fmt.printed

        text, excerpts, printed = self.tables.page(page, (*self.made_of, *key), render)
        for placed, where in printed.items():
            self.printed.setdefault(placed, where)
        self.excerpts.update(excerpts)
        return text

    def pages(self) -> dict[str, str]:
        """Every generated page: path relative to the docs dir -> Markdown."""
        layout, registers = self.layout, self.registers.registers
        pages = {layout.overview: self.overview()}
        pages.update({layout.page_of(r.slug): self.register(r) for r in registers})
        pages[layout.health] = self.health()
        pages.update({layout.health_of(r.slug): self.register_health(r) for r in registers})
        if self.changes:
            pages[layout.changes] = self._render(
                "changes.md.j2",
                layout.changes,
                view=Trusted(self.changes),
                commits=self.changes.history.commits,
                charts=self.changes.charts(registers),
                charted=CHARTED,
            )
        pages[layout.matrix] = self.matrix()
        changes = revs.changes(self.registers)
        names = [None, *(revision.revision for revision in changes), None]
        for number, revision in enumerate(changes):
            page = layout.revision_page(revision.revision)
            pages[page] = self.revision(revision, names[number], names[number + 2])
        pages[layout.priorities] = self.priorities()
        if self.concepts:
            pages.update(self.concepts.pages())
        if self.covering:
            pages.update(self.covering.pages())
        if self.scores is not None:
            pages[layout.scores] = self.scores_page(self.scores)
        return pages

    def matrix(self) -> str:
        """The revision matrix: every entry against every revision."""
        return self._listing(self.layout.matrix, _matrix)

    def priorities(self) -> str:
        """The priorities page: the open entries by value and effort."""
        return self._listing(self.layout.priorities, partial(_priorities, subject=self.subject))

    def _render(self, name: str, fmt: PageFormatter | str, **context: Any) -> str:
        """The template `name` for a page (its path, or its formatter), given the layout."""
        fmt = self.formatter(fmt) if isinstance(fmt, str) else fmt
        return render_template(self.env, name, fmt, layout=self.layout, **context)

    @cached_property
    def covering(self) -> CoveragePages | None:
        """The Coverage pages, when coverage was asked for."""
        if self.coverage is None:
            return None
        sources = self.registers.sources
        return CoveragePages(self.coverage, sources, self.layout, self._render, self.joined)

    def register(self, register: Register) -> str:
        """A register's page; its excerpts go to `self.excerpts`, under its excerpt file."""
        page = self.layout.page_of(register.slug)
        changes, conformance, coverage = self.changes, self.conformance, self.coverage
        fmt = self.formatter(page)
        entries = register.entries
        last = {e.id: Markup(changes.last_changes(e.id, fmt)) for e in entries} if changes else {}
        changed = Markup(changes.last_changed(register.slug, fmt)) if changes else ""
        checks = {e.id: conformance.checks_of(e.id) for e in entries} if conformance else {}
        statements = {e.id: coverage.statements_of(e.id) for e in entries} if coverage else {}
        key = ("register.md.j2", self.edit_url, register, last, changed, checks, statements)
        covering = self.covering

        def draw(fmt: PageFormatter) -> str:
            return self._render(
                "register.md.j2",
                fmt,
                register=register,
                legend=fmt.link(self.layout.legend) if self.layout.legend else None,
                last_changes=lambda entry: last.get(entry.id, ""),
                last_changed=changed,
                counts=prio.state_counts(register),
                edit_link=lambda entry: Markup(edit_link(self.edit_url, register, entry)),
                front_matter=front_matter(register),
                checks_of=lambda entry: checks.get(entry.id, []),
                statements_of=lambda entry: statements.get(entry.id, []),
                cited_as=covering and covering.cited_as,
                lines_of=lambda row: lines_text(row.statement.line, row.statement.end),
                file_page=covering and covering.file_page,
            )

        return self._kept(page, key, draw, register)

    def downloads(self) -> dict[str, str]:
        """The register set as JSON, as `register export` prints it (path -> text)."""
        if self.layout.download is None:
            return {}
        data, path = export.export(self.registers), self.layout.download
        registers = data["registers"]
        text = _json({**data, "registers": [None] * len(registers)})
        if registers:  # each register's part kept by its compact JSON (`memo`): exact, and
            # made by the C encoder, where the indented text is made by Python's
            chunks = [
                self.tables.page(f"{path}#{n}", json.dumps(part), partial(_json, part))
                for n, part in enumerate(registers)
            ]
            nulls = ",\n".join(["    null"] * len(registers))
            parts = ",\n".join("    " + chunk.replace("\n", "\n    ") for chunk in chunks)
            text = text.replace(
                f'\n  "registers": [\n{nulls}\n  ]', f'\n  "registers": [\n{parts}\n  ]', 1
            )
        return {path: text + "\n"}

    def _listing(self, page: str, draw: Callable[..., str]) -> str:
        """A page listing every entry, drawn from what it shows of them (`_shown`) and kept
        while that is the same (`memo`); with a site's own templates (which may show any
        field), drawn every time."""
        if self.made_of[0]:
            return draw(self._render, self.registers, page)
        shown = self._shown
        key = (shown, self.subject, self.coverage is not None)
        return self._kept(page, key, partial(draw, self._render, shown))

    @cached_property
    def _shown(self) -> RegisterSet:
        """The register set less each entry's prose, citations, backlinks and positions (an
        edit of an entry's `what` moves the lines below it) and the concepts: the pages that
        list every entry show none of them, so their key changes only with what they show."""
        nowhere = Where("", 1, 1)
        blank: dict[str, Any] = {"what": "", "detail": None, "notes": [], "texts": ()}
        blank.update(where=nowhere, citations=[], prose_citations=[])
        shown = [
            replace(r, summary=None, summary_citations=[], where=nowhere, entries=entries)
            for r in self.registers.registers
            for entries in ([replace(entry, **blank) for entry in r.entries],)
        ]
        return replace(self.registers, registers=shown, backlinks={}, concepts=None)

    def overview(self) -> str:
        coverage = self.coverage is not None
        draw = partial(_overview, download=self.layout.download, coverage=coverage)
        return self._listing(self.layout.overview, draw)

    def revision(
        self, changes: revs.RevisionChanges, before: str | None = None, after: str | None = None
    ) -> str:
        """ "What 2025-11-25 changed", linking the revisions `before` and `after` it."""
        coverage, name = self.coverage, changes.revision
        return self._render(
            "revision.md.j2",
            self.layout.revision_page(name),
            changes=changes,
            before=before,
            after=after,
            coverage=coverage.revision(name, self.registers.sources) if coverage else None,
            coverage_summary=coverage is not None,
            counts_text=counts_text,
        )

    def scores_page(self, scored: Scored) -> str:
        """The Scores page: each subject's section of `register conformance score
        --format markdown` (escaped there), and why the suite could not be read."""
        data, names = score_data(scored.scores, scored.seps), scored.names
        problems = [d.as_text() for d in scored.diagnostics if d.code.startswith("requirements-")]
        suite = scored.suite
        return self._render(
            "scores.md.j2",
            self.layout.scores,
            body=Markup("" if scored.refused else score_markdown(data, names, CARDS)),
            problems=[scored.refused] if scored.refused else problems,
            suite=suite and self.registers.sources.sources.get(suite),
        )

    @cached_property
    def concepts(self) -> ConceptPages | None:
        """The Matrix page, each concept's page and the badges, when concepts.yaml exists;
        a cell on a stale citation says so once citations were verified."""
        if self.registers.concepts is None:
            return None
        outcomes = {key: o.outcome for key, o in self.outcomes.items()}
        records = self.conformance.records if self.conformance else None
        return ConceptPages(
            concepts_view.matrix(self.registers, outcomes, self.since, self.subject, records),
            self.registers,
            self.layout,
            self._render,
            self.formatter,
            stale_known=any(o.outcome != "unverified" for o in self.outcomes.values()),
            last_changes=self.changes.last_changes if self.changes else None,
        )

    def badges(self) -> dict[str, str]:
        """Each subject's and concept's badge (SVG), by path; none without concepts."""
        return conceptpages.badges(self.concepts.shown, self.layout) if self.concepts else {}

    def health(self) -> str:
        """The health page: every register's counts by outcome, and every stale citation."""
        groups = outcome_groups(self.registers.citations(), self.outcomes)
        counts = counts_of(groups)
        return self._render(
            "health.md.j2",
            self.layout.health,
            groups={name: found for name, found in groups.items() if name in STALE},
            counts=counts,
            registers=[
                RegisterHealth(r, counts_of(outcome_groups(r.citations(), self.outcomes)))
                for r in self.registers.registers
            ],
            register_of={r.slug: r for r in self.registers.registers},  # as a site's may use
            total=sum(counts.values()),
            contradictions=self.conformance.contradictions if self.conformance else [],
        )

    def register_health(self, register: Register) -> str:
        """One register's health page: each of its citations by outcome, stale first."""
        groups = outcome_groups(register.citations(), self.outcomes)
        draw = partial(
            self._render,
            "register-health.md.j2",
            register=register,
            groups=groups,
            title=Markup(yaml_lines(title_meta(f"Citation health: {register.title}"))),
            total=sum(counts_of(groups).values()),
        )
        key = ("register-health.md.j2", register, groups)
        return self._kept(self.layout.health_of(register.slug), key, draw)


def _json(data: Any) -> str:
    """JSON as `register export` prints it."""
    return json.dumps(data, ensure_ascii=False, indent=2)


def prose_citations(registers: RegisterSet) -> dict[CitationKey, Citation]:
    """The in-prose citations the loader built, resolved, by key (`Linker.citations`)."""
    return {c.key: c for c in registers.citations() if c.in_prose}


def templates_made_of(templates: Path | None) -> tuple[tuple[str, bytes], ...]:
    """A site's templates folder as a value: each file's path and bytes (ours: none)."""
    if templates is None:
        return ()
    files = sorted(path for path in templates.rglob("*") if path.is_file())
    return tuple((path.relative_to(templates).as_posix(), path.read_bytes()) for path in files)


def _overview(
    render: Callable[..., str],
    registers: RegisterSet,
    fmt: Any,
    download: str | None,
    coverage: bool,
) -> str:
    rows = [(r, entry) for r in registers.registers for entry in r.entries]
    return render(
        "overview.md.j2",
        fmt,
        download={"name": posixpath.basename(download), "path": download} if download else None,
        rows=rows,
        registers=registers.registers,
        states=counted(e.status.key for _, e in rows),
        tags=sorted({t for r, e in rows for t in tags_of(r, e)}),
        tags_of=tags_of,
        coverage=coverage,
    )


def _matrix(render: Callable[..., str], registers: RegisterSet, fmt: Any) -> str:
    rows = revs.matrix(registers)
    return render(
        "matrix.md.j2",
        fmt,
        rows=rows,
        revisions=registers.sources.revisions,
        registers=registers.registers,
        states=counted(row.entry.status.key for row in rows),
        cells=revs.CELLS,
        cell_words=CELL_WORDS,
        tags=sorted({t for row in rows for t in tags_of(row.register, row.entry)}),
        tags_of=tags_of,
    )


def _priorities(
    render: Callable[..., str], registers: RegisterSet, fmt: Any, subject: str | None
) -> str:
    groups = prio.priorities(registers, prio.own_subject(registers, subject))
    return render(
        "priorities.md.j2",
        fmt,
        groups=groups,
        grid=prio.grid(groups),
        values=LEVELS,
        efforts=SIZES,
        open_states=OPEN,
        registers=list({i.register.slug: i.register for g in groups for i in g.items}.values()),
    )


def tags_of(register: Register, entry: Entry) -> list[str]:
    """An entry's tags for filtering: its own and its register's."""
    return list(dict.fromkeys([*entry.tags, *register.tags]))

"""Render stage: a register set and its citation outcomes -> Markdown pages, as strings.

Nothing here writes a file: the MkDocs plugin adds the pages to the site in memory and
`register render` writes them to a folder. Templates (Jinja2) hold the shape of a page;
`PageFormatter` holds the formatting they call, so a site's own templates reuse it.

Every value a template prints is escaped: what `PageFormatter` returns is safe Markdown
(marked `Markup`), and anything else (an ID, a title, a number, a site template's own
value) is escaped as plain Markdown text by the environment's `finalize`, so a template
that forgets `fmt.inline` shows the text as written instead of reading it as markup.
`Markup` here means "safe Markdown"; inside raw HTML a template uses `| e`, which gives
HTML-escaped `Markup`.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import yaml
from markupsafe import Markup

from ..coverage.files import cited_as
from ..coverage.states import Row
from ..model.diagnostic import Diagnostic
from ..model.notation import lines_text
from ..model.positions import Where
from ..model.registers import (
    Citation,
    CitationKey,
    Entry,
    EntryKey,
    Register,
    RegisterSet,
    Revisions,
    anchor_of,
)
from ..model.vocabulary import CHARTED, LEVELS, OPEN, SIZES, STATES
from ..reporting import export
from ..storage.errors import RegisterError
from ..views import priorities as prio
from ..views import revisions as revs
from . import chart
from . import coverage as site_coverage
from .changes import ChangesView
from .coverage import SiteCoverage
from .editing import edit_link
from .excerptmodel import Excerpt, ExcerptFile, excerpt_block
from .health import STALE, outcome_groups, register_health
from .markdown import (
    Linker,
    citation_link,
    code_span,
    entry_link,
    escape_inline,
    link_destination,
    opens_with_fence,
    prose,
    safe_url,
    url_path,
)

if TYPE_CHECKING:
    from ..following.verify import Outcome
    from ..history.repository import History

PACKAGED_TEMPLATES = Path(__file__).parent / "templates"
"""The templates shipped in the wheel; a site may point the plugin at its own copy."""

ASSETS = ("register.css", "register.js")
"""Files under `templates/assets/` that the pages need (badges, overview sorting)."""

RANKS: dict[str, tuple[str, ...]] = {
    "state": STATES,
    "value": LEVELS,
    "effort": SIZES,
    "cell": revs.CELLS,
    "coverage": site_coverage.STATES,
}
"""Sort order of badge keywords in the overview (the JavaScript sorts by this rank)."""


@dataclass(frozen=True)
class Layout:
    """Where the generated pages go, as paths relative to the docs dir (or `--out DIR`)."""

    pages: str = "registers"
    """Folder of the register pages: `registers/meta.md` for registers/meta.yaml."""
    overview: str = "registers/index.md"
    health: str = "registers/health.md"
    legend: str | None = None
    """A page explaining the fields, linked from every register page's header."""
    changes: str = "registers/changes.md"
    """The Changes page (the registers' git history), made when a history is given."""
    revisions: str = "registers/revisions"
    """Folder of the revision pages: `index.md` the matrix, `2025-11-25.md` one revision."""
    priorities: str = "registers/priorities.md"
    """The open entries by value and effort."""
    download: str | None = "registers/registers.json"
    """The register set as JSON (`register export`'s), linked from the overview; None: none."""
    coverage: str = "registers/coverage"
    """Folder of the Coverage pages: `index.md` every revision, `2025-11-25.md` one."""

    def page_of(self, slug: str) -> str:
        return posixpath.join(self.pages, f"{slug}.md")

    def health_of(self, slug: str) -> str:
        """A register's own health page, beside the health page: `registers/health/meta.md`."""
        return posixpath.join(posixpath.splitext(self.health)[0], f"{slug}.md")

    def excerpts_of(self, slug: str) -> str:
        """The excerpt file beside a register's page: `registers/meta/excerpts.html`, in the
        folder a directory URL gives the page (`registers/meta/`)."""
        return posixpath.join(self.pages, slug, "excerpts.html")

    @property
    def matrix(self) -> str:
        return posixpath.join(self.revisions, "index.md")

    def revision_page(self, name: str) -> str:
        """`registers/revisions/2025-11-25.md`; a name that is no file name made into one."""
        return posixpath.join(self.revisions, _page_name(name))

    @property
    def coverage_summary(self) -> str:
        return posixpath.join(self.coverage, "index.md")

    def coverage_page(self, name: str) -> str:
        """`registers/coverage/2025-11-25.md`: the revision's statements and their states."""
        return posixpath.join(self.coverage, _page_name(name))


def _page_name(name: str) -> str:
    """A revision's page name: one that is no file name made into one, never `index`."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "revision"
    return f"{stem}-.md" if stem == "index" else f"{stem}.md"


class Trusted:
    """A formatter as a template sees it (`fmt`, `view`): every string one of its methods
    returns is safe Markdown, printed as it is (marked `Markup`); anything else a template
    prints is escaped by `escape_value`."""

    def __init__(self, target: Any) -> None:
        self._target = target

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            return value
        return lambda *args, **kwargs: trusted(value(*args, **kwargs))


def trusted(value: Any) -> Any:
    """`value` marked safe Markdown: a string, or each string of a list."""
    if isinstance(value, str):
        return Markup(value)
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return [Markup(item) for item in value]
    return value


def escape_value(value: Any) -> str:
    """The environment's `finalize`: a value not marked safe, as Markdown showing its text."""
    if isinstance(value, Markup):
        return str(value)
    text = str(value)
    return text if not text.strip() else escape_inline(text)


@dataclass
class SourceView:
    """One listed citation as its page shows it (every text field safe Markdown)."""

    link: Markup
    quote: Markup | None
    outcome: str
    excerpt: Markup | None = None
    """`path:lines @ sha`, linked to the cited lines in the register's excerpt file.
    `register.js` turns it into a collapsed excerpt that loads them when opened; without
    JavaScript the link opens the file at those lines."""


@lru_cache(maxsize=4096)
def relative(target: str, page: str) -> str:
    """The relative link from `page` to `target` (both relative to the docs dir)."""
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def _badge(kind: str, key: str, text: str) -> str:
    kind = re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-") or "none"
    css = re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-") or "none"
    rank = RANKS[kind].index(key) if key in RANKS.get(kind, ()) else len(RANKS.get(kind, ()))
    return f'<span class="reg-badge reg-{kind} reg-{kind}--{css}" data-rank="{rank}">{text}</span>'


@dataclass
class PageFormatter:
    """Formatting helpers for one page; templates call these as `fmt.*`."""

    page: str
    linker: Linker
    outcomes: dict[CitationKey, Outcome] = field(default_factory=dict)
    registers: dict[str, tuple[Register, str]] = field(default_factory=dict)
    """Register slug -> the register and its page."""
    revision_pages: dict[str, str] = field(default_factory=dict)
    """Revision name -> its page ("What 2025-11-25 changed")."""
    excerpt_file: str | None = None
    """The register's excerpt file, on a register page: its citations get excerpts there."""
    excerpts: dict[str, Excerpt] = field(default_factory=dict)
    """The excerpts this page's citations link to, by key, in order of first citation."""
    backlinks_of: Mapping[EntryKey, list[str]] = field(default_factory=dict)
    """Each entry's backlinks (`RegisterSet.backlinks`)."""

    def prose(self, text: str | None) -> str:
        """Register Markdown, made safe, with references and citations linked."""
        return prose(text or "", self.linker)

    def item(self, text: str | None) -> str:
        """Prose as the rest of a list item: continuation lines indented, and a blank line
        after a multi-line one, or a fenced block in it would swallow the next item.

        Prose that opens with a fenced block starts on a line of its own: after
        `**What.**` a fence is no fence.
        """
        if opens_with_fence(text or ""):
            body = "\n\n" + prose(text or "", self.linker, own_line=True).lstrip("\n")
        else:
            body = prose(text or "", self.linker)
        body = re.sub(r"\n[ ]+\n", "\n\n", body.replace("\n", "\n    "))
        return body + "\n" if "\n" in body else body

    def cell(self, text: str | None) -> str:
        """Prose for a table cell: one line, code blocks as code spans, `|` escaped."""
        return prose(text or "", self.linker, one_line=True)

    def slug(self, text: str) -> str:
        """An anchor made of any text (`subject-mcpx`), as an entry's is made of its ID."""
        return anchor_of(text)

    def inline(self, text: str | None) -> str:
        """Plain text (titles, dates, tags) exactly as written."""
        return escape_inline(str(text or ""))

    def code(self, text: str | None) -> str:
        """Text as an inline code span (a path, a `file:line`)."""
        return code_span(str(text or "")) if text else ""

    def link(self, target: str, anchor: str = "") -> str:
        """A relative link to another generated page, or a bare anchor on this one
        (percent-encoded: a destination, never markup)."""
        hash_ = "#" + url_path(anchor) if anchor else ""
        if target == self.page and anchor:
            return hash_
        return url_path(relative(target, self.page)) + hash_

    def entry_link(self, entry_id: str) -> str:
        """`[META-07](meta.md#meta-07)`, or the ID as (escaped) text when it is not published."""
        return entry_link(entry_id, self.linker.entry_link(entry_id))

    def badge(self, kind: str, key: str, label: str | None = None) -> str:
        """A coloured keyword: `<span class="reg-badge reg-state--missing">missing</span>`."""
        return _badge(kind, key, escape_inline(label or key))

    def html_badge(self, kind: str, key: str) -> str:
        """A badge inside raw HTML (the register page's compact table): its text
        HTML-escaped, as no Markdown reads it."""
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
        """A matrix cell: its word on a badge; an event (added, changed, removed) links to
        the entry, whose Where and What say what happened."""
        text = self.badge("cell", kind, CELL_WORDS.get(kind, kind))
        url = self.linker.entry_link(entry_id) if kind in revs.EVENTS else None
        return f"[{text}]({url})" if url else text

    def state_bar(self, register: Register) -> str:
        """The register's entries per state as an inline SVG bar, named by its counts."""
        counts = prio.state_counts(register)
        return chart.state_bar(register.title, register.slug, counts, escape=escape_inline)

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
            sha = (outcome.commit or self._commit(citation))[:7]
            title = f"{citation.repo_path or citation.path}:{citation.lines_text}"
            title += f" @ {sha}" if sha else ""
            excerpt = self._excerpt(Excerpt.of(title, excerpt_block(citation, *outcome.shown())))
            target = self.link(self.excerpt_file, excerpt.key)
            view.excerpt = Markup(f"[{escape_inline(title)}]({target}){{ .reg-excerpt }}")
        return view

    def _excerpt(self, excerpt: Excerpt) -> Excerpt:
        return self.excerpts.setdefault(excerpt.key, excerpt)

    def places(self, places: Iterable[Where]) -> str:
        """ "registers/meta.yaml:36, registers/meta.yaml:46": each kept on one line."""
        return ", ".join(
            f'<span class="reg-where">{escape_inline(f"{where.file}:{where.line}")}</span>'
            for where in places
        )

    def citation_link(self, citation: Citation) -> str:
        """The pinned blob permalink of a citation, or the citation as code text."""
        return citation_link(citation, self.linker.sources)

    def _commit(self, citation: Citation) -> str:
        source = self.linker.sources.sources.get(citation.source or "")
        return source.commit if source else ""

    def backlinks(self, entry: Entry) -> str:
        """ "META-06, META-10": the entries (or register summaries) that reference `entry`."""
        return ", ".join(self._backlink(owner) for owner in self.backlinks_of.get(entry.key, []))

    def _backlink(self, owner: str) -> str:
        if owner in self.linker.entry_pages or owner not in self.registers:
            return self.entry_link(owner)
        register, page = self.registers[owner]  # a reference in a register's summary
        return f"[{escape_inline(register.title)}]({self.link(page)})"

    def subject(self, register: Register) -> str:
        """ "mcpx @ 05c78b2", linked to the commit when the source is public."""
        source = self.linker.sources.sources.get(register.subject)
        if source is None:
            return escape_inline(register.subject)
        text = f"{escape_inline(source.alias)} @ {escape_inline(source.commit[:7])}"
        url = source.commit_url()
        return f"[{text}]({link_destination(url)})" if url and safe_url(url) else text


CELL_WORDS = {"unrecorded": "not recorded"}
"""How a matrix cell kind reads, where its name is not the word."""


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
    ):
        """`subject` leads the priorities page (`views.priorities.own_subject`);
        `edit_url`, the URL the registers folder's files are edited at (a folder URL, its
        file names appended), gives each entry an edit link; `built`, the time of the build
        (seconds since the epoch; now when None), is where the Changes page's charts end."""
        self.registers = registers
        self.coverage = coverage
        """The Coverage pages' data; None: the site has none (no source names statements)."""
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

    def formatter(self, page: str) -> PageFormatter:
        linker = Linker(
            self.registers.sources, self.entry_pages, page, relative, self.prose_citations
        )
        registers = {r.slug: (r, self.layout.page_of(r.slug)) for r in self.registers.registers}
        revision_pages = {
            name: self.layout.revision_page(name) for name in self.registers.sources.revisions
        }
        return PageFormatter(
            page,
            linker,
            self.outcomes,
            registers,
            revision_pages,
            backlinks_of=self.registers.backlinks,
        )

    def pages(self, reuse: Mapping[str, str] | None = None) -> dict[str, str]:
        """Every generated page: path relative to the docs dir -> Markdown. A register page
        or the health page in `reuse` is taken from it as it is (the plugin passes those
        whose inputs have not changed since it rendered them); a reused register page's
        excerpts are not collected again."""
        reuse = reuse or {}
        pages = {self.layout.overview: self.overview()}
        for register in self.registers.registers:
            uri = self.layout.page_of(register.slug)
            pages[uri] = reuse[uri] if uri in reuse else self.register(register)
        health = self.layout.health
        pages[health] = reuse[health] if health in reuse else self.health()
        for register in self.registers.registers:
            uri = self.layout.health_of(register.slug)
            pages[uri] = reuse[uri] if uri in reuse else self.register_health(register)
        if self.changes is not None:
            pages[self.layout.changes] = self.changes_page(self.changes)
        pages[self.layout.matrix] = self.matrix()
        changes = revs.changes(self.registers)
        for number, revision in enumerate(changes):
            around = (changes[number - 1] if number else None, changes[number + 1 : number + 2])
            pages[self.layout.revision_page(revision.revision)] = self.revision(revision, around)
        pages[self.layout.priorities] = self.priorities()
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
                        file.shown, f"file-{file.shown}", file.bar_counts, escape_inline
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
            states=RANKS["state"],
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
            states=RANKS["state"],
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
        try:
            text = self.env.get_template(name).render(fmt=Trusted(fmt), **context)
        except jinja2.TemplateSyntaxError as err:
            raise TemplateProblem(err.filename or name, err.lineno, err.message or "") from err
        except Exception as err:  # noqa: BLE001 - a site's template may call anything
            file, line = _template_frame(err, name)
            raise TemplateProblem(file, line, f"{type(err).__name__}: {err}") from err
        return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


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


class TemplateProblem(RegisterError):
    """A template that does not load or render, with the template line that failed."""

    def __init__(self, file: str, line: int | None, message: str):
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")
        self.file, self.line, self.message = file, line, message


def _template_frame(err: Exception, name: str) -> tuple[str, int | None]:
    """The innermost template line in `err`'s traceback (Jinja2 rewrites its frames so
    they name the template file), or the template's name alone."""
    found: tuple[str, int | None] = (name, None)
    for frame, line in traceback.walk_tb(err.__traceback__):
        if "__jinja_exception__" in frame.f_globals:
            found = (frame.f_code.co_filename, line)
    return found


def prose_citations(registers: RegisterSet) -> dict[CitationKey, Citation]:
    """The in-prose citations the loader built, resolved, by key (for `Linker.citations`)."""
    return {c.key: c for c in registers.citations() if c.in_prose}


def page_clashes(registers: RegisterSet, layout: Layout) -> list[Diagnostic]:
    """An error for each register whose page is also a page the site makes of its own
    (`registers/priorities.yaml` against the priorities page): one would hide the other.
    Pages clash by their URL, so `revisions.md` clashes with `revisions/index.md`."""
    own = {
        _url(layout.overview): "overview",
        _url(layout.health): "citation-health page",
        _url(layout.changes): "Changes page",
        _url(layout.matrix): "revision matrix",
        _url(layout.priorities): "priorities page",
        _url(layout.coverage_summary): "Coverage page",
    }
    clashes = []
    for register in registers.registers:
        page = layout.page_of(register.slug)
        if (name := own.get(_url(page))) is not None:
            message = f"this register's page {page} is also the site's {name}: rename the file"
            clashes.append(
                Diagnostic.at(register.where, id=register.slug, code="page-clash", message=message)
            )
    return clashes


def _url(page: str) -> str:
    """Where MkDocs serves a page (directory URLs): `a/b.md` and `a/b/index.md` are `a/b/`."""
    stem = posixpath.splitext(page)[0]
    return stem[: -len("index")] if stem == "index" or stem.endswith("/index") else stem + "/"


def tags_of(register: Register, entry: Entry) -> list[str]:
    """An entry's tags for filtering: its own and its register's."""
    return list(dict.fromkeys([*entry.tags, *register.tags]))


_HTML_SPECIALS = re.compile(r"[<>&\"']")


REGISTER_BOOST = 4
"""A register page's weight in material's search (its `search.boost`): an entry's section
ranks before the manual's pages and the overview (0.5) for the words it holds."""


def page_meta(register: Register) -> dict[str, Any]:
    """A register page's front matter: its tags, and its title when it holds HTML's
    special characters, HTML-escaped. Themes print both as they are (MkDocs' templates
    do not autoescape): material's tags bar and the title MkDocs takes from the first
    heading, as text, for `<title>`, the nav and search."""
    meta: dict[str, Any] = {"search": {"boost": REGISTER_BOOST}, **title_meta(register.title)}
    if register.tags:
        meta["tags"] = [html.escape(tag) for tag in register.tags]
    return meta


def title_meta(title: str) -> dict[str, str]:
    """`{"title": ...}`, HTML-escaped, when a page's title holds HTML's special characters
    (else nothing: MkDocs takes the first heading's text). A theme prints it as it is:
    material as `page.title | striptags`, which would undo the heading's escaping and
    let `</title><script>` out of `<title>`."""
    return {"title": html.escape(title)} if _HTML_SPECIALS.search(title) else {}


def front_matter(meta: dict[str, Any]) -> str:
    """A YAML front matter block (material reads `tags` and `search` from it)."""
    if not meta:
        return ""
    return Markup("---\n" + yaml_lines(meta) + "---\n")


def yaml_lines(meta: dict[str, Any]) -> str:
    """`meta` as lines of YAML front matter (none when it is empty)."""
    return yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) if meta else ""


@lru_cache(maxsize=8)
def environment(templates: Path | None = None) -> jinja2.Environment:
    """Jinja2 for Markdown, a site's templates first: every printed value passes through
    `escape_value` (HTML autoescape would be the wrong escape for Markdown)."""
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(PACKAGED_TEMPLATES))]
    if templates is not None:
        loaders.insert(0, jinja2.FileSystemLoader(str(templates)))
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        autoescape=False,  # noqa: S701 - the output is Markdown: `finalize` escapes for it
        finalize=escape_value,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_site(
    registers: RegisterSet,
    outcomes: Sequence[Outcome] = (),
    *,
    layout: Layout | None = None,
    templates: Path | None = None,
    history: History | None = None,
    repo_url: str | None = None,
    **options: Any,
) -> dict[str, str]:
    """Every generated page of `registers`: path relative to the docs dir -> Markdown;
    with a `history`, the Changes page too. `options` are `Renderer`'s others (`subject`,
    `edit_url`, `built`)."""
    renderer = Renderer(
        registers,
        outcomes,
        layout=layout,
        templates=templates,
        history=history,
        repo_url=repo_url,
        **options,
    )
    return renderer.pages()


def asset(name: str, templates: Path | None = None) -> str:
    """The text of an asset (`register.css`, `register.js`), a site's own copy first."""
    for folder in (templates, PACKAGED_TEMPLATES):
        if folder is not None and (folder / "assets" / name).is_file():
            return (folder / "assets" / name).read_text(encoding="utf-8")
    raise FileNotFoundError(name)

"""The one site build: what `api.build_site` read -> every file of the site, as values,
which `register render` writes and the plugin hands to MkDocs: every engine gets the same."""

from __future__ import annotations

import html
from collections.abc import Container, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.diagnostic import Diagnostic
from ..model.registers import RegisterSet
from ..views.conceptmatrix import grouped
from . import excerpts, problems, sanitize
from .excerpts import ExcerptFile
from .jinja import ASSETS, asset
from .renderer import Renderer
from .urls import ASSET_DIR, Layout, page_clashes
from .values import Site, SiteOptions

if TYPE_CHECKING:
    from ..conformance.join import Joined
    from ..conformance.measurements import Measurements
    from ..conformance.scores import Scored
    from ..coverage.sitecoverage import SiteCoverage
    from ..history.repository import History
    from ..verifying.verify import Outcome
    from ..views.conceptmatrix import SinceOf


@dataclass
class Read:
    """What `api.build_site` read for a site: `failed`, the problems of each register file
    that did not load, by slug; `notices`, what reading said of the run as a whole. Each
    optional part is None where its pages have nothing to show."""

    registers: RegisterSet
    outcomes: Sequence[Outcome]
    diagnostics: list[Diagnostic]
    failed: dict[str, list[Diagnostic]]
    history: History | None
    notices: list[Diagnostic]
    coverage: SiteCoverage | None = None
    conformance: Measurements | None = None
    since: SinceOf | None = None
    """When each entry reached its state (the Matrix page)."""
    scores: Scored | None = None
    joined: Joined | None = None
    """Each statement's checks and results (the Coverage pages)."""


def build(read: Read, options: SiteOptions, excerpt_cache: Path | None = None) -> Site:
    """The site of `read`; `excerpt_cache` keeps highlighted excerpts between builds."""
    layout = options.layout
    diagnostics = [*read.diagnostics, *page_clashes(read.registers, layout)]
    renderer = Renderer(
        read.registers,
        read.outcomes,
        layout=layout,
        templates=options.templates,
        history=read.history,
        repo_url=options.repo_url,
        subject=options.subject,
        edit_url=options.edit_url,
        coverage=read.coverage,
        conformance=read.conformance,
        since=read.since,
        scores=read.scores,
        joined=read.joined,
    )
    pages = renderer.pages()
    printed = renderer.printed if options.templates is None else None  # a site's: not ours
    pages.update(problems.failure_pages(read.failed, layout, pages))
    pages.update(problems.problem_pages(read.registers, diagnostics, layout, pages))
    store = None if excerpt_cache is None else partial(excerpts.ExcerptStore, excerpt_cache)
    highlighter = excerpts.Highlighter(options.extension_configs, store)
    documents, written = _excerpt_documents(renderer.excerpts, highlighter, options)
    notices = [*read.notices, *_cache_notices(excerpt_cache, highlighter)]
    section, listed = nav_section(read.registers, read.failed, layout, pages)
    return Site(
        pages=pages,
        excerpts=documents,
        excerpt_paths=written,
        downloads={**renderer.downloads(), **renderer.badges()},
        assets={f"{ASSET_DIR}/{name}": asset(name, options.templates) for name in ASSETS},
        nav=section,
        nav_pages=listed,
        diagnostics=[*diagnostics, *notices],
        refused=sanitize.refused(pages, printed) if options.raw else None,
    )


def _excerpt_documents(
    made: dict[str, ExcerptFile], highlighter: excerpts.Highlighter, options: SiteOptions
) -> tuple[dict[str, str], dict[str, Path]]:
    """The excerpt files' documents, held, or written to the `excerpt_folder`, where a file
    this process wrote from the same excerpts is not made again."""
    if options.excerpt_folder is None:
        return excerpts.documents(made, highlighter), {}
    folder = options.excerpt_folder
    made_from = {uri: (highlighter.settings, file) for uri, file in made.items()}
    last = _written.get(folder, {})
    changed = {
        uri: file
        for uri, file in made.items()
        if last.get(uri) != made_from[uri] or not (folder / uri).is_file()
    }
    excerpts.write_documents(changed, highlighter, folder)
    _written.clear()
    _written[folder] = made_from
    return {}, {uri: folder / uri for uri in made}


_written: dict[Path, dict[str, tuple[str, ExcerptFile]]] = {}
"""What each excerpt file the last build wrote was made from, by folder and path: values,
so right for any build."""


def nav_section(
    registers: RegisterSet,
    failed: dict[str, list[Diagnostic]],
    layout: Layout,
    pages: Container[str],
) -> tuple[list[dict[str, Any]], frozenset[str]]:
    """The nav section of the generated `pages` (titles HTML-escaped: themes print them as
    they are): the overview, the registers, then the pages made of them; and the pages that
    tell a hand-written nav lists them already."""
    escape, names = html.escape, registers.sources.revisions
    section: list[dict[str, Any]] = [{"Overview": layout.overview}]
    section += [{escape(r.title): layout.page_of(r.slug)} for r in registers.registers]
    section += [{f"{escape(slug)} (does not load)": layout.page_of(slug)} for slug in failed]
    if registers.concepts is not None:  # each concept once, in the matrix's row order
        rows = grouped(registers.concepts.concepts)
        concepts = [{escape(c.title): layout.concept_page(c.id)} for c, _ in rows]
        section.append({"Matrix": [{"Matrix": layout.concept_matrix}, *concepts]})
    if layout.scores in pages:
        section.append({"Scores": layout.scores})
    revisions = [{f"What {escape(name)} changed": layout.revision_page(name)} for name in names]
    section.append({"Revisions": [{"Revision matrix": layout.matrix}, *revisions]})
    if layout.coverage_summary in pages:
        coverage = {name: layout.coverage_page(name) for name in names}
        covered = [{f"Coverage of {escape(n)}": p} for n, p in coverage.items() if p in pages]
        section.append({"Coverage": [{"Every revision": layout.coverage_summary}, *covered]})
    section += [{"Priorities": layout.priorities}, {"Citation health": layout.health}]
    if layout.changes in pages:
        section.append({"Changes": layout.changes})
    listed = {layout.overview, layout.matrix, layout.priorities, layout.health, layout.changes}
    listed.update(layout.page_of(register.slug) for register in registers.registers)
    if registers.concepts is not None:
        listed.add(layout.concept_matrix)
    if layout.scores in pages:
        listed.add(layout.scores)
    return section, frozenset(listed)


def _cache_notices(folder: Path | None, highlighter: excerpts.Highlighter) -> list[Diagnostic]:
    """The excerpt cache's notices: each file not written, then each file not used, once."""
    notice = partial(Diagnostic.notice, str(folder or ""), id="excerpts")
    dropped = dict.fromkeys(highlighter.store.dropped if highlighter.store else [])
    return [notice(code="cache-unwritable", message=line) for line in highlighter.problems] + [
        notice(code="cache-dropped", message=line) for line in dropped
    ]

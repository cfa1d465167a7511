"""The one site build: what `api.build_site` read -> every file of the site, as values.

Takes the checked register set, each citation's outcome, every problem, the register files
that did not load, the registers' history, the site's options and the last build's memory
(`rebuild.Memory`, under `mkdocs serve`); gives the `Site` (pages, excerpt files, downloads,
assets, the nav section, problems and notices) and the memory the next build starts from.
`register render` writes what it gives and the MkDocs plugin hands it to MkDocs: neither
assembles anything, so every engine publishes the same pages.
"""

from __future__ import annotations

import dataclasses
import html
import json
import textwrap
from collections.abc import Container, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.diagnostic import Diagnostic
from ..model.registers import Register, RegisterSet
from ..reporting import export
from . import excerpts, failures, problems, rebuild
from .excerptmodel import ExcerptFile, pack, unpack
from .excerptstore import ExcerptStore
from .extensions import MARKDOWN_EXTENSIONS, fingerprint
from .jinja import ASSETS, PACKAGED_TEMPLATES, asset
from .renderer import Renderer
from .urls import ASSET_DIR, Layout, page_clashes
from .values import Site, SiteOptions

if TYPE_CHECKING:
    from ..conformance.measurements import Measurements
    from ..coverage.sitecoverage import SiteCoverage
    from ..history.repository import History
    from ..verifying.verify import Outcome
    from ..views.conceptmatrix import SinceOf


@dataclass
class Read:
    """What `api.build_site` read for a site."""

    root: Path
    """The registers folder."""
    registers: RegisterSet
    outcomes: Sequence[Outcome]
    diagnostics: list[Diagnostic]
    failed: dict[str, list[Diagnostic]]
    """slug -> the problems of each register file that did not load."""
    history: History | None
    notices: list[Diagnostic]
    """What reading said of the run as a whole (no Changes page and why, a shallow clone)."""
    coverage: SiteCoverage | None = None
    """The Coverage pages' data (`api.site_coverage`); None: no source names statements."""
    conformance: Measurements | None = None
    """The recorded conformance results' checks and contradictions
    (`api.site_conformance`); None: no subject has a record."""
    since: SinceOf | None = None
    """When each entry reached its state, for the Matrix page (`api.since_of`); None:
    not known (no history read)."""


@dataclass
class Built:
    """A site, and what the next build of it may reuse."""

    site: Site
    memory: rebuild.Memory


def key_of(root: Path, options: SiteOptions, head: str | None) -> rebuild.Key:
    """Everything a build reads besides the checkouts: the options, the history's head
    and the content of every file under the registers folder and the templates."""
    configs = _configs(options)
    settings = (
        dataclasses.replace(options, extensions=None, extension_configs=None),
        fingerprint(_extensions(options), configs),
        root.resolve(),
        head,
    )
    templates = tuple(rebuild.file_states(f) for f in (options.templates, PACKAGED_TEMPLATES))
    return rebuild.Key(settings, rebuild.file_states(root), templates)


def build(
    read: Read,
    options: SiteOptions,
    key: rebuild.Key,
    pins: tuple[tuple[str, str | None], ...] | None,
    last: rebuild.Memory | None = None,
    excerpt_cache: Path | None = None,
) -> Built:
    """The site of `read`: every page rendered, but a register or health page whose inputs
    are those `last` rendered it from; `excerpt_cache` keeps highlighted excerpts between
    builds (`excerptstore`)."""
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
    )
    shared = (key.settings, pins, key.templates)
    inputs = rebuild.page_inputs(
        read.registers, read.outcomes, layout, read.root, key.registers, shared
    )
    reused = last.reusable(inputs) if last is not None else {}
    pages = renderer.pages(reuse={uri: kept.text for uri, kept in reused.items()})
    files, excerpt_files = _excerpt_files(read.registers, layout, renderer.excerpts, reused)
    downloads, spans = _downloads(read.registers, layout, reused, last)
    kept = {
        uri: dataclasses.replace(reused[uri], download=spans.get(uri))
        if uri in reused
        else rebuild.Kept(page_key, pages[uri], files.get(uri), spans.get(uri))
        for uri, page_key in inputs.items()
    }
    pages.update(failures.failure_pages(read.failed, layout, pages))
    pages.update(problems.problem_pages(read.registers, diagnostics, layout, pages))
    made_for, highlighter = _highlighter(last, options, excerpt_cache)
    documents, written = _excerpt_documents(
        excerpt_files, renderer.excerpts, highlighter, options, last
    )
    notices = [*read.notices, *(_unwritten(excerpt_cache, line) for line in highlighter.problems)]
    notices += _dropped(excerpt_cache, highlighter.store.dropped if highlighter.store else [])
    highlighter.problems.clear()  # a cache not written costs time, not the build
    section, listed = nav_section(
        read.registers, read.failed, layout, layout.changes in pages, coverage=pages
    )
    site = Site(
        pages=pages,
        excerpts=documents,
        excerpt_paths=written,
        downloads=downloads,
        assets={f"{ASSET_DIR}/{name}": asset(name, options.templates) for name in ASSETS},
        nav=section,
        nav_pages=listed,
        diagnostics=[*diagnostics, *notices],
        refused=_refused(pages) if options.raw else None,
    )
    held = excerpt_files if options.excerpt_folder is not None else {}
    memory = rebuild.Memory.of(
        site,
        key=key,
        pins=pins,
        sources=read.registers.sources,
        kept=kept,
        highlighter=(made_for, highlighter),
        excerpts=held,
    )
    return Built(site, memory)


def _excerpt_documents(
    files: dict[str, bytes],
    made: dict[str, ExcerptFile],
    highlighter: excerpts.Highlighter,
    options: SiteOptions,
    last: rebuild.Memory | None,
) -> tuple[dict[str, str], dict[str, Path]]:
    """The excerpt files' documents (`files`, packed; `made`, those rendered now, at
    hand), held (no `excerpt_folder`) or written to the folder as they are made, and then
    only those the folder does not hold as they are now."""
    if options.excerpt_folder is None:
        unpacked = {uri: made.get(uri) or unpack(packed) for uri, packed in files.items()}
        return excerpts.documents(unpacked, highlighter), {}
    held = last.excerpts if last is not None else None
    folder = options.excerpt_folder
    return {}, excerpts.write_documents(files, highlighter, folder, held, made)


HOLE = "\x00registers\x00"
"""Where the export's registers go, dumped as a string no register file can hold."""


def _downloads(
    registers: RegisterSet,
    layout: Layout,
    reused: dict[str, rebuild.Kept],
    last: rebuild.Memory | None,
) -> tuple[dict[str, str], dict[str, tuple[int, int]]]:
    """The register set as JSON, what `register export` prints (`Renderer.downloads`), and
    where each register page's part of it stands in it: a reused page's part is the last
    build's (its inputs hold all its register's data shows), read from the last build's
    download, so an edit dumps again only the registers it changed (the whole set is some
    20 MB of JSON at 5,000 entries) and a served site holds each part once, in the text."""
    if layout.download is None:
        return {}, {}
    data = export.export(dataclasses.replace(registers, registers=[]))
    data["registers"] = HOLE
    head = json.dumps(data, ensure_ascii=False, indent=2)
    hole = f'"registers": {json.dumps(HOLE)}'
    assert head.count(hole) == 1, "the export holds its registers in one place"
    before = last.download_texts().get(layout.download, "") if last is not None else ""
    parts = {}
    for register in registers.registers:
        page = layout.page_of(register.slug)
        span = reused[page].download if page in reused else None
        parts[page] = before[span[0] : span[1]] if span is not None else _part(register, registers)
    opening = head[: head.index(hole)] + '"registers": [\n'
    spans, at = {}, len(opening)
    for page, part in parts.items():
        spans[page] = (at, at + len(part))
        at += len(part) + 2  # ",\n"
    listed = "[\n" + ",\n".join(parts.values()) + "\n  ]" if parts else "[]"
    text = head.replace(hole, f'"registers": {listed}') + "\n"
    return {layout.download: text}, spans


def _part(register: Register, registers: RegisterSet) -> str:
    """A register's data as it stands in the export's list, indented as `json.dumps` does."""
    text = json.dumps(
        export.register_data(register, registers.backlinks), ensure_ascii=False, indent=2
    )
    return textwrap.indent(text, "    ", lambda line: True)


def _excerpt_files(
    registers: RegisterSet,
    layout: Layout,
    rendered: dict[str, ExcerptFile],
    reused: dict[str, rebuild.Kept],
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Each register page's excerpt file, packed (`excerptmodel.pack`: a served site holds
    it until the next build), by page and by its path: rendered with it now, or with the
    page reused."""
    by_page, by_path = {}, {}
    for register in registers.registers:
        page, path = layout.page_of(register.slug), layout.excerpts_of(register.slug)
        if page in reused:
            packed = reused[page].excerpts
        else:
            packed = pack(rendered[path]) if path in rendered else None
        if packed is not None:
            by_page[page] = by_path[path] = packed
    return by_page, by_path


def _extensions(options: SiteOptions) -> list[Any]:
    return list(MARKDOWN_EXTENSIONS if options.extensions is None else options.extensions)


def _configs(options: SiteOptions) -> dict[str, Any]:
    configs = options.extension_configs
    return dict(MARKDOWN_EXTENSIONS if configs is None else configs)


def _highlighter(
    last: rebuild.Memory | None, options: SiteOptions, folder: Path | None
) -> tuple[tuple[str, Path | None], excerpts.Highlighter]:
    """The last build's highlighter while the site's extensions and the cache stay the
    same (without an excerpt folder it remembers what it highlighted), else a new one;
    with what it was made for."""
    names, configs = _extensions(options), _configs(options)
    made_for = (fingerprint(names, configs), folder)
    if last is not None and last.highlighter is not None and last.highlighter[0] == made_for:
        return last.highlighter
    store = None if folder is None else (lambda settings: ExcerptStore(folder, settings))
    # Written to a folder, a file is made again only when its excerpts change: the blocks
    # of the others are not worth holding (some 60 MB at 20,000 excerpts).
    remember = options.excerpt_folder is None
    return made_for, excerpts.Highlighter(names, configs, store=store, remember=remember)


def nav_section(
    registers: RegisterSet,
    failed: dict[str, list[Diagnostic]],
    layout: Layout,
    changes: bool,
    coverage: Container[str] = (),
) -> tuple[list[dict[str, Any]], frozenset[str]]:
    """The nav section of the generated pages, and the pages that tell a hand-written nav
    lists them already; `coverage`, the pages made, says which Coverage pages there are.
    Titles are HTML-escaped: themes print nav titles as they are."""
    section: list[dict[str, Any]] = [{"Overview": layout.overview}]
    if registers.concepts is not None:
        section.append({"Matrix": layout.concept_matrix})
    for register in registers.registers:
        section.append({html.escape(register.title): layout.page_of(register.slug)})
    section.extend(
        {f"{html.escape(slug)} (does not load)": layout.page_of(slug)} for slug in failed
    )
    revisions: list[dict[str, Any]] = [{"Revision matrix": layout.matrix}]
    for name in registers.sources.revisions:
        revisions.append({f"What {html.escape(name)} changed": layout.revision_page(name)})
    section.append({"Revisions": revisions})
    if layout.coverage_summary in coverage:
        covered: list[dict[str, Any]] = [{"Every revision": layout.coverage_summary}]
        for name in registers.sources.revisions:
            if (page := layout.coverage_page(name)) in coverage:
                covered.append({f"Coverage of {html.escape(name)}": page})
        section.append({"Coverage": covered})
    section += [
        {"Priorities": layout.priorities},
        {"Citation health": layout.health},
    ]
    if changes:
        section.append({"Changes": layout.changes})
    listed = {layout.overview, layout.matrix, layout.priorities, layout.health, layout.changes}
    if registers.concepts is not None:
        listed.add(layout.concept_matrix)
    listed.update(layout.page_of(register.slug) for register in registers.registers)
    return section, frozenset(listed)


def _unwritten(folder: Path | None, message: str) -> Diagnostic:
    """The notice that the excerpt cache could not be written: the next build highlights
    those excerpts again."""
    return Diagnostic.notice(
        str(folder or ""), id="excerpts", code="cache-unwritable", message=message
    )


def _dropped(folder: Path | None, lines: list[str]) -> list[Diagnostic]:
    """The notices that excerpt cache files were not used (those excerpts were highlighted
    again), once each."""
    notices = [
        Diagnostic.notice(str(folder or ""), id="excerpts", code="cache-dropped", message=message)
        for message in dict.fromkeys(lines)
    ]
    lines.clear()
    return notices


def _refused(pages: dict[str, str]) -> str | None:
    """Why the pages may not go, as they are, to an engine that cleans nothing: the first
    page holding HTML that the site's sanitizer removes, and what."""
    from .sanitize import unexpected_in_page  # noqa: PLC0415 - converts every page: only then

    for uri, text in pages.items():
        if found := unexpected_in_page(text):
            shown = ", ".join(sorted(set(found))[:5])
            return f"{uri}: the page would carry HTML that the sanitizer removes ({shown})"
    return None

"""The site as values (`build_site`), and what the shells need to publish it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..history import repository
from ..history.repository import History, HistoryError, NoRepository
from ..model.diagnostic import Diagnostic, Severity
from ..model.results import Result
from ..reading import readmemo
from ..reporting import report
from ..site import build, extensions, sanitize, urls
from ..site.jinja import PACKAGED_TEMPLATES
from ..site.plain import plain_page
from ..site.values import Site, SiteOptions
from ..storage.atomic import write_changed
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from ..verifying import verify
from .comparing import since_of
from .loading import check, project_paths, verify_citations
from .measuring import measures, site_coverage

diff = repository.compare
"""`register diff [REV1 [REV2]]`: REV1 (default HEAD) against REV2 (the working tree)."""
complete_extensions = extensions.complete
"""A site's Markdown extensions made to serve the register pages, in place."""
clean_html = sanitize.clean
"""A generated page's HTML kept to the site's allowlist."""


def keep_reads(on: bool) -> None:
    """Whether this process keeps register files' readings and citations' judgements
    between builds: `mkdocs serve` does."""
    readmemo.keep_between_loads(on)
    verify.keep_between_builds(on)


def history(root: Path, settings: Settings = DEFAULTS) -> History:
    """The registers folder's history, commit by commit, through its cache. Raises
    `HistoryError` outside a git repository."""
    return repository.read_history(root, project_paths(root, settings).history_cache)


def build_site(
    root: Path, options: SiteOptions | None = None, settings: Settings = DEFAULTS
) -> Site:
    """The whole site of the registers under `root`, as values, which `register render`
    writes and the plugin hands to MkDocs. Raises `TemplateProblem`."""
    options = options or SiteOptions()
    paths = project_paths(root, settings)  # once: it asks git what `.register/` tracks
    checked = verify_citations(paths, offline=not options.verify, settings=settings)
    found, notices = _site_history(root, paths, options)
    dated = since_of(root, checked.registers, None, found.commits) if found else None
    coverage = site_coverage(checked, options.verify, settings)
    shown = coverage.coverage if coverage is not None else None  # None: no checks joined
    measured = measures(checked, shown, settings, suite=options.verify)  # offline: no suite
    read = build.Read(
        checked.registers,
        checked.outcomes,
        checked.diagnostics,
        checked.unloaded(),
        found,
        notices,
        coverage,
        measured.conformance(checked),
        dated,
        measured.scores(checked.registers.sources),
        measured.joined,
    )
    return build.build(read, options, paths.excerpt_cache)


def _site_history(
    root: Path, paths: Paths, options: SiteOptions
) -> tuple[History | None, list[Diagnostic]]:
    """The registers' history for the Changes page, or None and a notice why not."""
    if not options.history:
        return None, []
    try:
        found = repository.read_history(root, paths.history_cache)
    except NoRepository as err:
        return None, [_notice(root, "no-repository", f"no Changes page: {err}")]
    except HistoryError as err:  # git failed: the site builds, and a strict build says so
        return None, [_notice(root, "history-failed", f"no Changes page: {err}", "warning")]
    notices = list(found.diagnostics)  # the history cache not written
    if found.shallow:
        message = "a shallow clone: the Changes page shows the history it holds"
        notices.append(_notice(root, "shallow-clone", message))
    return found, notices


def _notice(root: Path, code: str, message: str, severity: Severity = "info") -> Diagnostic:
    return Diagnostic.notice(str(root), id="history", code=code, message=message, severity=severity)


def site_edit_url(
    repo_url: str | None, edit_uri: str | None, top: Path, docs_dir: Path, registers: Path
) -> str | None:
    """Where the registers folder's files are edited, from a site's `repo_url` and
    `edit_uri` and where mkdocs.yml (`top`) and the folders are; None when unknown."""
    try:
        docs = docs_dir.resolve().relative_to(top.resolve()).as_posix()
        folder = registers.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        return None  # outside mkdocs.yml's folder: where it sits in the repository is unknown
    return urls.edit_base(repo_url, edit_uri, docs, folder)


def write_site(site: Site, folder: Path) -> dict[str, Path]:
    """Every file of `site` written under `folder`, each only when its bytes change (for
    an engine's incremental build); the excerpt files are there already."""
    for uri, text in site.files().items():
        write_changed(folder / uri, text.encode("utf-8"))
    return {uri: folder / uri for uri in site.files()} | site.excerpt_paths


def site_log(site: Site) -> Iterator[tuple[str, str]]:
    """Each line a site build logs, with its level: every problem (the expected ones
    counted once more), then each notice."""
    quiet = 0
    for level, diagnostic in site.levelled():
        quiet += level == "info"
        yield level, report.log_line(diagnostic)
    if quiet:
        yield "info", f"{quiet} expected notices (pending registers, sources without a checkout)"
    for level, notice in site.levelled_notices():
        yield level, notice.message


def site_watched(root: Path, templates: Path | None) -> list[Path]:
    """What a live server watches: the registers folder and the templates."""
    return [root, templates or PACKAGED_TEMPLATES]


@dataclass
class PlainPages(Result):
    """`register render --plain`'s pages, by file name; its diagnostics are check's."""

    pages: dict[str, str]


def render_plain(
    root: Path, legend: str | None = None, settings: Settings = DEFAULTS
) -> PlainPages:
    """`register render --plain`: each register as a hand-written-shaped page, which
    `register import` reads back; one whose subject is no source is left out."""
    checked = check(root, settings)
    sources = checked.registers.sources.sources
    pages = {
        f"{register.slug}.md": plain_page(register, sources[register.subject].commit, legend)
        for register in checked.registers.registers
        if register.subject in sources
    }
    return PlainPages(pages, diagnostics=checked.diagnostics)

"""The site as values (`build_site`), and what the shells need to publish it: history,
the excerpt cache, Markdown extensions, edit links, plain pages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..history import repository
from ..history.repository import Compared, History, HistoryError, NoRepository
from ..model.diagnostic import Diagnostic, Severity
from ..model.registers import Sources
from ..model.results import Result
from ..site import build, editing, extensions, sanitize
from ..site.build import Built as SiteBuilt
from ..site.jinja import PACKAGED_TEMPLATES
from ..site.plain import plain_page
from ..site.rebuild import Memory as SiteMemory
from ..site.values import SiteOptions
from ..sources.pins import Checkouts
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from .comparing import since_of
from .conformance import site_conformance
from .loading import check, project_paths, verify_at
from .measuring import site_coverage


def diff(root: Path, old_rev: str | None = None, new_rev: str | None = None) -> Compared:
    """`register diff [REV1 [REV2]]`: the registers at REV1 (default HEAD) against REV2
    (default: the working tree). Raises `HistoryError` (one line) when the registers are
    in no git repository or a revision names no commit."""

    return repository.compare(root, old_rev, new_rev)


def history_head(root: Path) -> str | None:
    """The commit the registers' history ends at (HEAD of the repository holding them), or
    None outside a git repository: what a site compares to know its Changes page is current."""

    return repository.head_of(root)


def history(root: Path, settings: Settings = DEFAULTS) -> History:
    """The history of the registers folder, commit by commit, cached under the cache root
    (`.register/cache/history.json`). Raises `HistoryError` outside a git repository."""

    return repository.read_history(root, project_paths(root, settings).history_cache)


def build_site(
    root: Path,
    options: SiteOptions | None = None,
    last: SiteMemory | None = None,
    settings: Settings = DEFAULTS,
) -> SiteBuilt:
    """The whole site of the registers under `root`, as values (`register render` writes
    it, the MkDocs plugin hands it to MkDocs): every page, excerpt file, download and asset,
    the pages of register files that do not load and the notices naming them, the nav
    section, every problem and notice (`site.values.Site`).

    `last`, the memory of the last build (`mkdocs serve`), is given back when nothing the
    build reads has changed, and otherwise lets it render again only the pages whose
    inputs changed: the site is the same as a cold build's. Raises `TemplateProblem` when a
    template does not load or render.
    """

    options = options or SiteOptions()
    head = history_head(root) if options.history else None
    key = build.key_of(root, options, head)
    paths = project_paths(root, settings)  # once: it asks git what `.register/` tracks
    if last is not None and last.fresh(key, _site_pins(paths, last.sources, options, settings)):
        return build.Built(last.whole_site(), last)
    checked = verify_at(paths, offline=not options.verify, settings=settings)
    pins = _site_pins(paths, checked.registers.sources, options, settings)
    found, notices = _site_history(root, paths, options)
    dated = since_of(root, checked.registers, None, found.commits) if found else None
    read = build.Read(
        root,
        checked.registers,
        checked.outcomes,
        checked.diagnostics,
        checked.unloaded(),
        found,
        notices,
        site_coverage(
            paths, checked.registers, checked.outcomes if options.verify else None, settings
        ),
        site_conformance(checked),
        dated,
    )
    return build.build(read, options, key, pins, last, paths.excerpt_cache)


def _site_pins(
    paths: Paths, sources: Sources, options: SiteOptions, settings: Settings
) -> tuple[tuple[str, str | None], ...] | None:
    """(alias, the sha each source's pin resolves to in its checkout, or None), by alias:
    a checkout that gains the pinned commit (`register sync`), or loses it, changes this.
    None when the checkouts cannot be asked (the build then reports why)."""
    if not options.verify:
        return ()

    checkouts = Checkouts(paths, settings)
    try:
        return tuple(
            (alias, checkouts.pin(sources.sources[alias]).sha) for alias in sorted(sources.sources)
        )
    except Exception:  # noqa: BLE001 - a checkout that cannot be read: verify says why
        return None
    finally:
        checkouts.close()


def _site_history(
    root: Path, paths: Paths, options: SiteOptions
) -> tuple[History | None, list[Diagnostic]]:
    """The registers' history for the Changes page, or None and a notice why not."""

    if not options.history:
        return None, []
    try:
        found = repository.read_history(root, paths.history_cache)
    except NoRepository as err:
        return None, [_history_notice(root, "no-repository", f"no Changes page: {err}")]
    except HistoryError as err:  # git failed: the site builds, and a strict build says so
        message = f"no Changes page: {err}"
        return None, [_history_notice(root, "history-failed", message, "warning")]
    notices = list(found.diagnostics)  # the history cache not written
    if found.shallow:
        message = "a shallow clone: the Changes page shows the history it holds"
        notices.append(_history_notice(root, "shallow-clone", message))
    return found, notices


def _history_notice(root: Path, code: str, message: str, severity: Severity = "info") -> Diagnostic:
    """A notice of the site build about the registers' history (`model.codes`' run notices)."""
    return Diagnostic.notice(str(root), id="history", code=code, message=message, severity=severity)


def complete_extensions(names: list[Any], configs: dict[str, dict[str, Any]]) -> list[str]:
    """Make a site's Markdown extensions (mkdocs.yml's `markdown_extensions` and their
    options) serve the register pages, in place; returns those added. Raises
    `ExtensionConflict` when the site sets an option the pages need to another value."""

    return extensions.complete(names, configs)


def extensions_fingerprint(names: Sequence[Any], configs: Mapping[str, Any]) -> str:
    """A stable text naming a site's Markdown extensions and their options: equal texts,
    equal HTML of the same Markdown."""

    return extensions.fingerprint(names, configs)


def clean_html(page: str) -> str:
    """A generated page's HTML kept to the site's allowlist (`site.sanitize`)."""

    return sanitize.clean(page)


def site_edit_url(
    repo_url: str | None, edit_uri: str | None, top: Path, docs_dir: Path, registers: Path
) -> str | None:
    """Where the registers folder's files are edited, from a site's `repo_url` and
    `edit_uri` (relative to its docs folder) and where mkdocs.yml (`top`), the docs folder
    and the registers folder are; None when that cannot be told."""

    try:
        docs = docs_dir.resolve().relative_to(top.resolve()).as_posix()
        folder = registers.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        return None  # outside mkdocs.yml's folder: where it sits in the repository is unknown
    return editing.edit_base(repo_url, edit_uri, docs, folder)


def site_watched(root: Path, options: SiteOptions) -> list[Path]:
    """What a live server watches to build the site again: the registers folder and the
    templates (the packaged ones without a site's own)."""

    return [root, options.templates or PACKAGED_TEMPLATES]


@dataclass
class PlainPages(Result):
    """`register render --plain`'s pages, by file name; its diagnostics are check's."""

    pages: dict[str, str]


def render_plain(
    root: Path, legend: str | None = None, settings: Settings = DEFAULTS
) -> PlainPages:
    """`register render --plain`: each register as a plain Markdown page in the hand-written
    shape (`<slug>.md`), which `register import` reads back into the same register. Reads
    no checkout. A register whose subject is not a source is left out (check says why)."""

    checked = check(root, settings)
    sources = checked.registers.sources.sources
    pages = {
        f"{register.slug}.md": plain_page(register, sources[register.subject].commit, legend)
        for register in checked.registers.registers
        if register.subject in sources
    }
    return PlainPages(pages, diagnostics=checked.diagnostics)

"""The commands that write new register files: init, import, cite."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from ..importing import plan as importing
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.positions import Where
from ..model.registers import Sources
from ..model.results import Result
from ..reading import folder
from ..reading.document import Document
from ..rewriting import edit
from ..scaffold import newproject
from ..sources import cite as cites
from ..sources import pins
from ..sources.checkout import Checkout
from ..sources.cite import CiteError
from ..sources.git import GitSourceError
from ..storage import regular
from ..storage.atomic import write_all
from ..storage.errors import RegisterError
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from .loading import Waiting, project_paths, writer


class InitError(RegisterError):
    """`register init` would overwrite a file."""


@dataclass
class Initialised(Result):
    """What `register init` wrote."""

    written: list[str]
    """The paths written, relative to the project's folder."""


def init(
    folder: Path,
    name: str | None = None,
    today: datetime.date | None = None,
    engine: str = "mkdocs",
) -> Initialised:
    """`register init [DIR]`: a working register project written into `folder`, its site
    built with `engine`; refused when a file exists, but for a killed init's, completed."""
    day = today or datetime.date.today()
    texts = newproject.files(name or folder.resolve().name or "registers", day, engine)
    existing = sorted(path for path in texts if (folder / path).exists())
    if existing and not _interrupted(folder, texts, existing):
        raise InitError(f"{folder}: would overwrite {', '.join(existing)}; nothing written")
    try:
        for path in texts:
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
        write_all([(folder / path, text.encode("utf-8")) for path, text in texts.items()])
    except OSError as err:
        raise InitError(f"cannot write {err.filename or folder}: {err.strerror or err}") from None
    return Initialised(list(texts))


def _interrupted(folder: Path, texts: Mapping[str, str], existing: list[str]) -> bool:
    """Whether the files there are a killed init's: some missing, the others as written."""
    return len(existing) < len(texts) and all(
        _holds(folder / path, texts[path].encode("utf-8")) for path in existing
    )


def _holds(path: Path, data: bytes) -> bool:
    try:
        return regular.read_bytes(path, len(data), follow=False) == data
    except OSError:
        return False


MAX_PAGE_BYTES = 4 * 1024 * 1024
"""The most of an import page read (a register file has the same limit)."""


@dataclass
class Imports(Result):
    """What `register import` planned, and whether it wrote it."""

    planned: list[importing.Planned]
    written: bool = False


def import_pages(
    root: Path,
    pages: Iterable[Path],
    *,
    name: str | None = None,
    force: bool = False,
    dry_run: bool = False,
    settings: Settings = DEFAULTS,
    on_wait: Waiting = None,
) -> Imports:
    """`register import PAGE...`: each hand-written page as a register file, all written
    only when no page has an error (else `edit.EditError`, having written nothing)."""
    paths = project_paths(root, settings)
    with writer(paths, "register import", settings, on_wait) as journal:
        problems: list[Diagnostic] = []
        documents: dict[str, Document] = {}
        sources = folder.read_sources(paths, documents, problems)
        registers = list(folder.read_registers(paths, documents, []))
        texts = [_page_text(path, problems) for path in pages]
        place = importing.Folder(
            sources,
            registers,
            exists=lambda stem: paths.register(stem).exists(),
            file_of=lambda stem: folder.display_path(paths.register(stem)),
        )
        read = [t for t in texts if t is not None]
        planned, found = importing.plan(read, place, name=name, force=force)
        result = Imports(planned, diagnostics=sort_diagnostics([*problems, *found]))
        if result.failed or dry_run:
            return result
        edit.write_texts({p.file: (_old_text(Path(p.file)), p.text) for p in planned}, journal)
    result.written = True
    return result


def _page_text(path: Path, problems: list[Diagnostic]) -> importing.PageText | None:
    shown = folder.display_path(path)
    try:
        data = regular.read_bytes(path, MAX_PAGE_BYTES)  # a device or a FIFO is refused
        return importing.PageText(shown, data.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        message = f"cannot read the page: {reason or err}"
        page = Where(shown, 1, 1)
        problems.append(Diagnostic.at(page, id="page", code="import-page", message=message))
        return None


def _old_text(path: Path) -> str:
    """A file's text as `edit.write_texts` compares it ("" for a new file)."""
    if not path.exists():
        return ""
    data = regular.read_bytes(path, MAX_PAGE_BYTES)
    return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")


def cite(root: Path, spec: str, settings: Settings = DEFAULTS) -> cites.Cited:
    """`register cite [ALIAS:]PATH:LINE[-END]`: the citation of those lines at the pin,
    from the checkout or the cache. Raises `cite.CiteError`."""
    paths = project_paths(root, settings)
    sources = _cite_sources(paths)
    named = cites.target(spec, sources)
    with _pinned(paths, sources, named.source, settings) as (checkout, sha):
        return cites.cite(named, _lines(checkout, sha, named.path), sources.claims())


def cite_grep(
    root: Path,
    alias: str,
    needle: str,
    *,
    glob: str | None = None,
    limit: int = 20,
    ignore_case: bool = False,
    settings: Settings = DEFAULTS,
) -> cites.Hits:
    """`register cite ALIAS --grep TEXT`: a citation per line holding TEXT in the files
    ALIAS (or a claimed path) claims at its pin, at most `limit`, all counted."""
    project = project_paths(root, settings)
    sources = _cite_sources(project)
    alias, place = cites.grep_target(alias, sources)
    claims = sources.claims()
    with _pinned(project, sources, alias, settings) as (checkout, sha):
        paths = cites.within(cites.claimed(alias, checkout.paths(sha), claims, glob), place)
        checkout.prefetch(sha, paths)
        lines = partial(_lines, checkout, sha)
        return cites.grep(alias, paths, lines, needle, claims, limit, ignore_case)


def _cite_sources(paths: Paths) -> Sources:
    """sources.yaml, or `CiteError` with its first error."""
    problems: list[Diagnostic] = []
    sources = folder.read_sources(paths, {}, problems)
    if errors := [p for p in problems if p.failing]:
        raise CiteError(errors[0].as_text())
    return sources


@contextmanager
def _pinned(
    paths: Paths, sources: Sources, alias: str, settings: Settings
) -> Iterator[tuple[Checkout, str]]:
    """The checkout of `alias` and its pinned commit's full sha, closed afterwards."""
    checkouts = pins.Checkouts(paths, settings)
    try:
        pin = checkouts.pin(sources.sources[alias])
        if pin.checkout is None or pin.sha is None:
            raise CiteError(f"{alias}: {pin.problem}")
        yield pin.checkout, pin.sha
    except GitSourceError as err:
        raise CiteError(f"{alias}: {err}") from None
    finally:
        checkouts.close()


def _lines(checkout: Checkout, sha: str, path: str) -> list[str] | None:
    """A file's lines at `sha`, None when it is missing or binary (no line to cite)."""
    try:
        return checkout.read_text(sha, path)
    except GitSourceError:
        return None

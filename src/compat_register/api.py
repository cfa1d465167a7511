"""The public API: one function per command, each returning data and diagnostics.

`cli.py` prints what these return and `plugin.py` renders it; neither holds logic.
"""

from __future__ import annotations

import contextlib
import datetime
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .checking import references, resolve, rules
from .model.diagnostic import Diagnostic, sort_diagnostics
from .model.registers import Citation, Register, RegisterSet, Sources
from .model.results import Result
from .reading import folder
from .reading import project as finding
from .reading.document import Document
from .reading.exclusions import read_exclusions
from .site.layout import ASSET_DIR as ASSET_DIR
from .site.layout import Layout as Layout
from .site.values import ExtensionConflict as ExtensionConflict
from .site.values import Notice as Notice
from .site.values import Site as Site
from .site.values import SiteOptions as SiteOptions
from .site.values import TemplateProblem as TemplateProblem
from .storage import project, regular
from .storage.atomic import write_all
from .storage.errors import RegisterError, WriteError
from .storage.layout import Paths

# The stages past checking are imported where used: `register check` and `register export`
# need none of them, and a command's start-up is most of its time on a small set.
if TYPE_CHECKING:
    from .coverage import run as measure
    from .following import bump as bumping
    from .following import edit, verify
    from .history.repository import Compared, History
    from .importing import plan as importing_plan
    from .site.build import Built as SiteBuilt
    from .site.coverage import SiteCoverage
    from .site.rebuild import Memory as SiteMemory
    from .sources import cite as cites
    from .sources import pins
    from .sources.checkout import Checkout


@dataclass
class Checked(Result):
    """A loaded, validated and cross-linked register set, and every problem found."""

    paths: Paths
    registers: RegisterSet
    documents: dict[str, Document]

    def unloaded(self) -> dict[str, list[Diagnostic]]:
        """slug -> the problems of each register file that did not load (it has no page
        of its own otherwise: the site shows these instead)."""
        files = folder.unloaded(self.paths, self.registers, self.diagnostics)
        return {
            slug: [d for d in self.diagnostics if d.file == file] for slug, file in files.items()
        }


def check(root: Path, environ: Mapping[str, str] | None = None) -> Checked:
    """`register check`: load, validate, resolve cross-references. Touches no git."""
    return _check(_paths(root, environ), environ=environ)


def _paths(root: Path, environ: Mapping[str, str] | None) -> Paths:
    """The project's every path, from the registers folder a command was given: made once
    per command here, and handed to the stages (none derives a path of its own)."""
    return Paths.of(root, os.environ if environ is None else environ)


Waiting = Callable[[str], None] | None
"""Told once, when a writer must wait for another: `waiting for pid 4242 (...) to finish`."""


def writer(
    root: Path,
    command: str,
    environ: Mapping[str, str] | None = None,
    on_wait: Waiting = None,
) -> contextlib.AbstractContextManager[Path]:
    """The project's writer lock, held by every command that writes the registers, the
    lock or the cache (`storage.project.writing`): waits a bounded time for another
    writer, finishes what a killed one left, and yields the journal to write through.
    Raises `StorageError` (one line) when the wait runs out."""
    return _writer(_paths(root, environ), command, environ, on_wait)


def _writer(
    paths: Paths, command: str, environ: Mapping[str, str] | None, on_wait: Waiting
) -> contextlib.AbstractContextManager[Path]:
    return project.writing(paths, command, os.environ if environ is None else environ, on_wait)


def _check(
    paths: Paths,
    on_register: Callable[[Register, Sources], None] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Checked:
    """Read, resolve citations, check the rules, resolve references and their backlinks.

    `on_register` sees each register as soon as it is read, its citations resolved
    (verify starts reading the cited files while the next register is parsed). A write
    a killed command left half done is finished first (`storage.project.settle`).
    """
    project.settle(paths, os.environ if environ is None else environ)
    loaded = _read(paths, on_register)
    diagnostics = list(loaded.diagnostics)
    sources_file = loaded.registers.sources.file
    sources_failed = any(d.file == sources_file and d.severity == "error" for d in diagnostics)
    diagnostics.extend(rules.check(loaded.registers, loaded.documents, sources_failed))
    found = references.resolve(loaded.registers, loaded.documents)
    diagnostics.extend(found.diagnostics)
    registers = references.with_backlinks(loaded.registers, found.backlinks)
    diagnostics = sort_diagnostics(diagnostics)
    return Checked(paths, registers, loaded.documents, diagnostics=diagnostics)


def _read(paths: Paths, on_register: Callable[[Register, Sources], None] | None) -> folder.Loaded:
    diagnostics: list[Diagnostic] = []
    documents: dict[str, Document] = {}
    sources = folder.read_sources(paths, documents, diagnostics)
    registers = []
    for register in folder.read_registers(paths, documents, diagnostics, sources.links):
        register = resolve.resolved(register, sources)
        registers.append(register)
        if on_register is not None:
            on_register(register, sources)
    exclusions = read_exclusions(paths, documents, diagnostics)
    if exclusions is not None:
        exclusions = resolve.resolved_exclusions(exclusions, sources)
    return folder.Loaded(RegisterSet(sources, registers, exclusions), documents, diagnostics)


@dataclass
class Verified(Checked):
    """A checked register set with the outcome of every citation."""

    outcomes: list[verify.Outcome] = field(default_factory=list)
    preview: verify.Preview | None = None
    """With `against`: the citations that moving that pin would make stale."""
    check_failed: bool = False
    """Whether `register check` alone reports errors: a file that does not load holds
    citations no outcome speaks of."""
    lock: folder.LockText | None = None
    """citations.lock as read, whose stamps the outcomes took (None: there is none)."""

    @property
    def summary(self) -> dict[str, int]:
        from .following import verify

        return verify.summary(self.outcomes)


def verify_citations(
    root: Path,
    *,
    skip: Iterable[str] = (),
    offline: bool = False,
    environ: Mapping[str, str] | None = None,
    against: tuple[str, str] | None = None,
) -> Verified:
    """`register verify`: everything `check` does, plus every citation at its pinned commit.

    With `against=(ALIAS, REV)`, that source's citations are judged as if its pin were
    moved to REV (`register verify --against`); raises `verify.PreviewError` when the
    source has no checkout or REV names no commit in it.
    """
    return _verify(_paths(root, environ), skip, offline, environ, against)


def _verify(
    paths: Paths,
    skip: Iterable[str] = (),
    offline: bool = False,
    environ: Mapping[str, str] | None = None,
    against: tuple[str, str] | None = None,
) -> Verified:
    from .following import verify

    environ = os.environ if environ is None else environ
    checkouts = verify.Checkouts(paths, environ)
    reader = None if offline else verify.background_reader(checkouts, skip)
    with closing(checkouts):
        checked = _check(paths, on_register=reader, environ=environ)
        if against is not None and against[0] not in checked.registers.sources.sources:
            raise verify.PreviewError(f"--against: no source '{against[0]}' in sources.yaml")
        lock = folder.read_lock(paths)
        outcomes, diagnostics, preview = verify.verify_against(
            checked.registers,
            paths,
            lock,
            against,
            skip=skip,
            offline=offline,
            environ=environ,
            checkouts=checkouts,
        )
    all_diagnostics = sort_diagnostics([*checked.diagnostics, *diagnostics])
    return Verified(
        paths,
        checked.registers,
        checked.documents,
        outcomes,
        preview,
        check_failed=checked.failed,
        lock=lock,
        diagnostics=all_diagnostics,
    )


@dataclass
class Fixed(Result):
    """What `register fix` rewrote; its diagnostics are the run's but those of the
    citations fixed."""

    verified: Verified
    """The verified set the rewrite was planned from."""
    changes: list[edit.Change]
    """Each token rewritten, file by file."""
    fixed: list[Citation]
    """The moved citations that now point at their proposed lines."""

    @property
    def summary(self) -> dict[str, int]:
        """The counts after the rewrite: a citation re-pointed is no longer `moved`, it is
        `ok` (its quote is on the lines it now cites), and counted as fixed."""
        counts, fixed = self.verified.summary, len(self.fixed)
        moved = counts["moved"] - fixed
        return {**counts, "ok": counts["ok"] + fixed, "moved": moved, "fixed": fixed}


def fix(root: Path, environ: Mapping[str, str] | None = None, on_wait: Waiting = None) -> Fixed:
    """`register fix`: point every `moved` citation at its proposed lines, in place (but
    those of a source whose pin was moved by hand: `register bump` follows those).

    The register files and citations.lock (the stamps of the citations moved go with
    them) are made in memory, read back, and written all at once or not at all: raises
    `edit.EditError`, having written nothing, when that cannot be done safely.
    """
    paths = _paths(root, environ)
    with _writer(paths, "register fix", environ, on_wait) as journal:
        return _fix(paths, environ, journal)


def _fix(paths: Paths, environ: Mapping[str, str] | None, journal: Path) -> Fixed:
    from .following import edit
    from .following import fix as fixing

    verified = _verify(paths, environ=environ)
    plan = fixing.plan(
        verified.registers,
        verified.documents,
        verified.outcomes,
        verified.diagnostics,
        verified.lock,
    )
    edit.write_texts(plan.files, journal)
    return Fixed(verified, plan.changes, plan.fixed, diagnostics=plan.remaining)


@dataclass
class Synced(Result):
    """What `register sync` made readable; its diagnostics: those of sources.yaml (with an
    error there nothing is fetched) and one per source that failed."""

    synced: list[pins.Synced] = field(default_factory=list)
    """Each source synced: alias, full sha, the local checkout when nothing was fetched."""


def sync(
    root: Path,
    aliases: Iterable[str] = (),
    progress: Callable[[str, str], None] | None = None,
    environ: Mapping[str, str] | None = None,
    on_wait: Waiting = None,
) -> Synced:
    """`register sync`: fetch each source's pinned commit into the cache, but for a source
    whose local checkout already holds it. Reads sources.yaml alone (the register files
    play no part)."""
    from .sources import pins

    paths = _paths(root, environ)
    problems: list[Diagnostic] = []
    documents: dict[str, Document] = {}
    sources = folder.read_sources(paths, documents, problems)
    problems.extend(rules.check_sources(sources, documents.get(sources.file)))
    if any(p.severity == "error" for p in problems):
        return Synced(diagnostics=sort_diagnostics(problems))
    environ = os.environ if environ is None else environ
    with _writer(paths, " ".join(["register sync", *aliases]), environ, on_wait):
        synced, failed = pins.sync_all(sources, paths, list(aliases), progress, environ)
    return Synced(synced, diagnostics=sort_diagnostics([*problems, *failed]))


@dataclass
class Bumped(Result):
    """What `register bump` moved; its diagnostics are `register check`'s."""

    checked: Checked
    bump: bumping.Bump | None
    """The pin's move and each citation's, None when refused."""


def _needs_clean_set(command: str) -> str:
    """Why a command that rewrites citations refuses while check reports errors."""
    return f"{command} needs a register set without errors: fix them first"


def bump(
    root: Path,
    alias: str,
    rev: str | None = None,
    *,
    dry_run: bool = False,
    progress: Callable[[str], None] | None = None,
    environ: Mapping[str, str] | None = None,
    on_wait: Waiting = None,
) -> Bumped:
    """`register bump`: move the pin of `alias` to `rev` and every citation of it along.

    Refuses (returns no bump) while `register check` reports errors: a file that does not
    load would otherwise keep citations the move never saw. Raises `bump.BumpError` when
    the move cannot be made and `edit.EditError` when a file cannot be rewritten safely;
    in every failure nothing is written.
    """
    from .following import bump as bumping

    environ = os.environ if environ is None else environ
    paths = _paths(root, environ)
    with _writer(paths, f"register bump {alias}", environ, on_wait) as journal:
        checked = _check(paths, environ=environ)
        if checked.failed:
            refused = _needs_clean_set("bump")
            return Bumped(checked, None, diagnostics=checked.diagnostics, refused=refused)
        result = bumping.bump(
            checked.registers,
            checked.documents,
            paths,
            folder.read_lock(paths),
            alias,
            rev,
            dry_run=dry_run,
            environ=environ,
            progress=progress,
            journal=journal,
        )
    return Bumped(checked, result, diagnostics=checked.diagnostics)


class UnknownID(RegisterError):
    """An entry ID named on the command line that has no citations."""

    usage = True


@dataclass
class Stamped(Result):
    """What `register stamp` recorded; its diagnostics are `register verify`'s."""

    verified: Verified
    stamped: list[verify.Outcome] = field(default_factory=list)
    """The citations whose lines were stamped."""
    unstampable: list[verify.Outcome] = field(default_factory=list)
    """Chosen citations that could not be stamped: their lines are not readable as cited."""
    written: bool = False


def stamp(
    root: Path,
    ids: Iterable[str] = (),
    environ: Mapping[str, str] | None = None,
    on_wait: Waiting = None,
) -> Stamped:
    """`register stamp [ID...]`: record the cited lines of the given entries (every entry
    when none is given) in citations.lock, as reviewed. A citation is stamped only when its
    lines read as cited (`ok`, `changed` or `unstamped`); the others keep any old stamp.

    Refuses (`refused` says why; nothing stamped, nothing written) while `register check`
    reports errors: the stamps of a file that does not load would otherwise be dropped. Raises
    `edit.EditError` when the lock cannot be rewritten safely.
    """
    paths = _paths(root, environ)
    with _writer(paths, "register stamp", environ, on_wait) as journal:
        return _stamp(paths, ids, environ, journal)


def _stamp(
    paths: Paths, ids: Iterable[str], environ: Mapping[str, str] | None, journal: Path
) -> Stamped:
    from .following import edit, stamping

    verified = _verify(paths, environ=environ)
    if verified.check_failed:
        refused = _needs_clean_set("stamp")
        return Stamped(verified, diagnostics=verified.diagnostics, refused=refused)
    chosen = set(ids) or None
    known = {c.entry for c in verified.registers.citations()}
    if chosen and (unknown := sorted(chosen - known)):
        raise UnknownID(f"no citations of {', '.join(unknown)} to stamp")
    plan = stamping.plan(verified.outcomes, verified.registers.sources, verified.lock, chosen)
    if plan.changed:
        edit.write_texts({str(paths.lock): (plan.old_text, plan.text)}, journal)
    return Stamped(
        verified, plan.stamped, plan.refused, plan.changed, diagnostics=verified.diagnostics
    )


class UnknownRevision(RegisterError):
    """A revision named on the command line that sources.yaml does not declare."""

    usage = True


@dataclass
class Covered(Result):
    """What `register coverage` found: every statement's state, and every problem."""

    measured: measure.Measured
    registers: RegisterSet
    revisions: list[str]
    """The revisions asked for (every one when none was named), in sources.yaml's order."""


def coverage(
    root: Path,
    revisions: Iterable[str] = (),
    *,
    minimum: float | None = None,
    environ: Mapping[str, str] | None = None,
) -> Covered:
    """`register coverage [REVISION...]`: the state of every normative statement of each
    revision (cited, excluded, uncovered), read at the pins of the sources whose
    `coverage:` names statement files. Their citations are verified (a stale one covers
    nothing); the other sources' are not read. Below `minimum` percent a revision is an
    error; without it, one with uncovered statements is a warning. Raises UnknownRevision."""
    from .coverage import run
    from .sources import pins

    environ = os.environ if environ is None else environ
    paths = _paths(root, environ)
    sources = folder.read_sources(paths, {}, [])
    declared = sources.revisions
    asked = list(dict.fromkeys(revisions))
    if unknown := [r for r in asked if r not in declared]:
        raise UnknownRevision(
            f"no revision {', '.join(unknown)} in sources.yaml ({', '.join(declared)})"
        )
    skip = [alias for alias, source in sources.sources.items() if not source.statements]
    verified = _verify(paths, skip, environ=environ)
    with closing(pins.Checkouts(paths, environ)) as checkouts:
        cache = paths.statements_cache
        measured = run.measure(verified.registers, verified.outcomes, checkouts, cache)
    shown = [r for r in declared if r in asked] if asked else list(declared)
    problems = run.threshold_problems(measured.coverage, verified.registers, shown, minimum)
    diagnostics = [*verified.diagnostics, *measured.diagnostics, *problems]
    return Covered(measured, verified.registers, shown, diagnostics=sort_diagnostics(diagnostics))


def site_coverage(
    root: Path,
    registers: RegisterSet,
    outcomes: Sequence[verify.Outcome] | None,
    environ: Mapping[str, str] | None = None,
) -> SiteCoverage | None:
    """What the site's Coverage pages show: every statement's state, read at the pins of
    the sources naming statement files, judged by `outcomes` (verify's, of the same set);
    None when no source names any. Without outcomes (an offline build) nothing is read:
    a citation not verified could not say what it covers."""
    from .coverage import run
    from .site.coverage import SiteCoverage
    from .sources import pins

    readers = run.statement_sources(registers)
    if not readers:
        return None
    if outcomes is None:
        return SiteCoverage(None, problems=["an offline build: no citation was verified"])
    aliases = {s.alias for s in readers}
    unverified = [o for o in outcomes if o.outcome == "unverified" and o.citation.source in aliases]
    if unverified:
        first = unverified[0]
        said = f"{first.citation.source}: its citations were not verified ({first.message})"
        return SiteCoverage(None, problems=[said])
    environ = os.environ if environ is None else environ
    paths = _paths(root, environ)
    with closing(pins.Checkouts(paths, environ)) as checkouts:
        measured = run.measure(registers, outcomes, checkouts, paths.statements_cache)
    problems = [d.message for d in measured.diagnostics if d.code == "coverage-unreadable"]
    if problems:
        return SiteCoverage(None, problems=problems)
    return SiteCoverage(measured.coverage, measured.changelogs)


class InitError(RegisterError):
    """`register init` would overwrite a file, or could not write; nothing was written."""


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
    """`register init [DIR]`: write a working register project into `folder` (created when
    missing), its site built with `engine` (`mkdocs`, or `zensical`: docs/publishing.md),
    and return the paths written. Refuses, writing nothing, when any of them exists."""
    from .following import edit
    from .scaffold import project

    day = today or datetime.date.today()
    texts = project.files(name or _project_name(folder), day, engine)
    existing = sorted(path for path in texts if (folder / path).exists())
    if existing:
        raise InitError(f"{folder}: would overwrite {', '.join(existing)}; nothing written")
    try:
        for path in texts:
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
        edit.write_all([(folder / path, text.encode("utf-8")) for path, text in texts.items()])
    except OSError as err:
        raise InitError(f"cannot write {err.filename or folder}: {err.strerror or err}") from None
    return Initialised(list(texts))


def _project_name(folder: Path) -> str:
    return folder.resolve().name or "registers"


def diff(root: Path, old_rev: str | None = None, new_rev: str | None = None) -> Compared:
    """`register diff [REV1 [REV2]]`: the registers at REV1 (default HEAD) against REV2
    (default: the working tree). Raises `HistoryError` (one line) when the registers are
    in no git repository or a revision names no commit."""
    from .history import repository

    return repository.compare(root, old_rev, new_rev)


def history_head(root: Path) -> str | None:
    """The commit the registers' history ends at (HEAD of the repository holding them), or
    None outside a git repository: what a site compares to know its Changes page is current."""
    from .history import repository

    return repository.head_of(root)


def excerpt_cache(root: Path, environ: Mapping[str, str] | None = None) -> Path:
    """Where the site keeps highlighted excerpts between builds: `excerpts/` under the cache
    root (`REGISTER_CACHE`, else `.register/cache` beside the registers folder)."""
    return _paths(root, environ).excerpt_cache


def history(root: Path, environ: Mapping[str, str] | None = None) -> History:
    """The history of the registers folder, commit by commit, cached under the cache root
    (`.register/cache/history.json`). Raises `HistoryError` outside a git repository."""
    from .history import repository

    return repository.read_history(root, _paths(root, environ).history_cache)


def build_site(
    root: Path,
    options: SiteOptions | None = None,
    last: SiteMemory | None = None,
    environ: Mapping[str, str] | None = None,
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
    from .site import build

    options = options or SiteOptions()
    environ = os.environ if environ is None else environ
    head = history_head(root) if options.history else None
    key = build.key_of(root, options, head)
    if last is not None and last.fresh(key, _site_pins(root, last.sources, options, environ)):
        return build.Built(last.site, last)
    checked = verify_citations(root, offline=not options.verify, environ=environ)
    pins = _site_pins(root, checked.registers.sources, options, environ)
    found, notices = _site_history(root, options, environ)
    read = build.Read(
        root,
        checked.registers,
        checked.outcomes,
        checked.diagnostics,
        checked.unloaded(),
        found,
        notices,
        site_coverage(
            root, checked.registers, checked.outcomes if options.verify else None, environ
        ),
    )
    return build.build(read, options, key, pins, last, excerpt_cache(root, environ))


def _site_pins(
    root: Path, sources: Sources, options: SiteOptions, environ: Mapping[str, str]
) -> tuple[tuple[str, str | None], ...] | None:
    """(alias, the sha each source's pin resolves to in its checkout, or None), by alias:
    a checkout that gains the pinned commit (`register sync`), or loses it, changes this.
    None when the checkouts cannot be asked (the build then reports why)."""
    if not options.verify:
        return ()
    from .sources.pins import Checkouts

    checkouts = Checkouts(_paths(root, environ), environ)
    try:
        return tuple(
            (alias, checkouts.pin(sources.sources[alias]).sha) for alias in sorted(sources.sources)
        )
    except Exception:  # noqa: BLE001 - a checkout that cannot be read: verify says why
        return None
    finally:
        checkouts.close()


def _site_history(
    root: Path, options: SiteOptions, environ: Mapping[str, str]
) -> tuple[History | None, list[Notice]]:
    """The registers' history for the Changes page, or None and a notice why not."""
    from .history.repository import HistoryError, NoRepository

    if not options.history:
        return None, []
    try:
        found = history(root, environ)
    except NoRepository as err:
        return None, [Notice("info", f"no Changes page: {err}")]
    except HistoryError as err:  # git failed: the site builds, and a strict build says so
        return None, [Notice("warning", f"no Changes page: {err}")]
    notices = [Notice("info", d.message) for d in found.diagnostics]
    if found.shallow:
        notices.append(
            Notice("info", "a shallow clone: the Changes page shows the history it holds")
        )
    return found, notices


def complete_extensions(names: list[Any], configs: dict[str, dict[str, Any]]) -> list[str]:
    """Make a site's Markdown extensions (mkdocs.yml's `markdown_extensions` and their
    options) serve the register pages, in place; returns those added. Raises
    `ExtensionConflict` when the site sets an option the pages need to another value."""
    from .site import extensions

    return extensions.complete(names, configs)


def extensions_fingerprint(names: Sequence[Any], configs: Mapping[str, Any]) -> str:
    """A stable text naming a site's Markdown extensions and their options: equal texts,
    equal HTML of the same Markdown."""
    from .site import extensions

    return extensions.fingerprint(names, configs)


def clean_html(page: str) -> str:
    """A generated page's HTML kept to the site's allowlist (`site.sanitize`)."""
    from .site import sanitize

    return sanitize.clean(page)


def site_edit_url(
    repo_url: str | None, edit_uri: str | None, top: Path, docs_dir: Path, registers: Path
) -> str | None:
    """Where the registers folder's files are edited, from a site's `repo_url` and
    `edit_uri` (relative to its docs folder) and where mkdocs.yml (`top`), the docs folder
    and the registers folder are; None when that cannot be told."""
    from .site import editing

    try:
        docs = docs_dir.resolve().relative_to(top.resolve()).as_posix()
        folder = registers.resolve().relative_to(top.resolve()).as_posix()
    except ValueError:
        return None  # outside mkdocs.yml's folder: where it sits in the repository is unknown
    return editing.edit_base(repo_url, edit_uri, docs, folder)


def site_watched(root: Path, options: SiteOptions) -> list[Path]:
    """What a live server watches to build the site again: the registers folder and the
    templates (the packaged ones without a site's own)."""
    from .site.render import PACKAGED_TEMPLATES

    return [root, options.templates or PACKAGED_TEMPLATES]


MAX_PAGE_BYTES = 4 * 1024 * 1024
"""The most of an import page read (a register file has the same limit)."""


@dataclass
class Imports(Result):
    """What `register import` planned, and whether it wrote the files."""

    planned: list[importing_plan.Planned]
    written: bool = False


def import_pages(
    root: Path,
    pages: Iterable[Path],
    *,
    name: str | None = None,
    force: bool = False,
    dry_run: bool = False,
    on_wait: Waiting = None,
) -> Imports:
    """`register import PAGE...`: each hand-written page as a register file under `root`.

    Every page is planned first; the files are written only when no page has an error,
    all at once or none (`edit.EditError`, having written nothing, when that fails).
    """
    paths = _paths(root, None)
    with _writer(paths, "register import", None, on_wait) as journal:
        return _import_pages(paths, pages, name, force, dry_run, journal)


def _import_pages(
    paths: Paths,
    pages: Iterable[Path],
    name: str | None,
    force: bool,
    dry_run: bool,
    journal: Path,
) -> Imports:
    from .following import edit
    from .importing import plan as importing

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
    planned, found = importing.plan(
        [t for t in texts if t is not None], place, name=name, force=force
    )
    result = Imports(planned, diagnostics=sort_diagnostics([*problems, *found]))
    if result.failed or dry_run:
        return result
    edit.write_texts({p.file: (_old_text(Path(p.file)), p.text) for p in planned}, journal)
    result.written = True
    return result


def _page_text(path: Path, problems: list[Diagnostic]) -> importing_plan.PageText | None:
    from .importing import plan as importing

    shown = folder.display_path(path)
    try:
        data = regular.read_bytes(path, MAX_PAGE_BYTES)  # a device or a FIFO is refused
        return importing.PageText(shown, data.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        problems.append(
            Diagnostic(
                file=shown,
                line=1,
                col=1,
                severity="error",
                id="page",
                code="import-page",
                message=f"cannot read the page: {reason or err}",
            )
        )
        return None


def _old_text(path: Path) -> str:
    """A file's text as `edit.write_texts` compares it ("" for a file still to be made)."""
    if not path.exists():
        return ""
    data = regular.read_bytes(path, MAX_PAGE_BYTES)
    return data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")


@dataclass
class PlainPages(Result):
    """`register render --plain`'s pages, by file name; its diagnostics are check's."""

    pages: dict[str, str]


def render_plain(root: Path, legend: str | None = None) -> PlainPages:
    """`register render --plain`: each register as a plain Markdown page in the hand-written
    shape (`<slug>.md`), which `register import` reads back into the same register. Reads
    no checkout. A register whose subject is not a source is left out (check says why)."""
    from .site.plain import plain_page

    checked = check(root)
    sources = checked.registers.sources.sources
    pages = {
        f"{register.slug}.md": plain_page(register, sources[register.subject].commit, legend)
        for register in checked.registers.registers
        if register.subject in sources
    }
    return PlainPages(pages, diagnostics=checked.diagnostics)


@dataclass
class Cite(Result):
    """The citation `register cite` made."""

    cited: cites.Cited


def cite(root: Path, spec: str, environ: Mapping[str, str] | None = None) -> Cite:
    """`register cite [ALIAS:]PATH:LINE[-END]`: the citation of those lines at the pin,
    read from the source's checkout or the cache (never the network). Raises
    `cite.CiteError` with one line saying why not (and what to run)."""
    from .sources import cite as cites

    paths = _paths(root, environ)
    sources = _cite_sources(paths)
    named = cites.target(spec, sources)
    with _pinned(paths, sources, named.source, environ) as (checkout, sha):
        return Cite(cites.cite(named, _lines(checkout, sha, named.path), sources.claims()))


def cite_grep(
    root: Path,
    alias: str,
    needle: str,
    *,
    glob: str | None = None,
    limit: int = 20,
    ignore_case: bool = False,
    environ: Mapping[str, str] | None = None,
) -> cites.Hits:
    """`register cite ALIAS --grep TEXT [--path GLOB] [--ignore-case]`: one citation per
    line holding TEXT in the source's claimed files at its pin (at most `limit`; all are
    counted); TEXT's case must match unless `ignore_case`."""
    from .sources import cite as cites

    project_paths = _paths(root, environ)
    sources = _cite_sources(project_paths)
    if alias not in sources.sources:
        raise cites.CiteError(f"no source '{alias}' in sources.yaml")
    claims = sources.claims()
    with _pinned(project_paths, sources, alias, environ) as (checkout, sha):
        paths = cites.claimed(alias, checkout.paths(sha), claims, glob)
        checkout.prefetch(sha, paths)
        return cites.grep(
            alias,
            paths,
            lambda path: _lines(checkout, sha, path),
            needle,
            claims,
            limit,
            ignore_case,
        )


def _cite_sources(paths: Paths) -> Sources:
    from .sources.cite import CiteError

    problems: list[Diagnostic] = []
    sources = folder.read_sources(paths, {}, problems)
    if errors := [p for p in problems if p.failing]:
        raise CiteError(errors[0].as_text())
    return sources


@contextmanager
def _pinned(
    paths: Paths, sources: Sources, alias: str, environ: Mapping[str, str] | None
) -> Iterator[tuple[Checkout, str]]:
    """The checkout of `alias` and its pinned commit's full sha, closed afterwards."""
    from .sources import pins
    from .sources.cite import CiteError
    from .sources.git import GitSourceError

    checkouts = pins.Checkouts(paths, os.environ if environ is None else environ)
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
    """A file's lines at `sha`, None when it is missing or binary."""
    from .sources.git import GitSourceError

    try:
        return checkout.read_text(sha, path)
    except GitSourceError:  # a binary file holds no line to cite
        return None


# --- what the shells need besides the commands ---------------------------------------------

DEFAULT_REGISTERS = finding.DEFAULT
"""The registers folder a command reads when nothing names one and no project is found."""
REGISTERS_VARIABLE = finding.ENVIRONMENT
"""The environment variable naming the registers folder (as `--registers DIR` does)."""


def registers_folder(given: Path | None, environ: Mapping[str, str] | None = None) -> Path | None:
    """The registers folder a command reads: `given`, else `$REGISTER_DIR`, else the
    nearest project at or above the working directory (`reading.project`); None if none."""
    return finding.registers_folder(given, os.environ if environ is None else environ)


def write_files(files: Mapping[Path, str], *, make_folders: bool = False) -> None:
    """Write every file as UTF-8, all or none, each through a temporary file and a rename
    (their folders made first with `make_folders`). Raises `WriteError`, one line naming
    the file that failed (the target, not the temporary file beside it)."""
    try:
        if make_folders:
            for path in files:
                path.parent.mkdir(parents=True, exist_ok=True)
        write_all([(path, text.encode("utf-8")) for path, text in files.items()])
    except OSError as err:
        where = _written(err.filename, files) or ", ".join(str(path) for path in files)
        raise WriteError(f"cannot write {where}: {err.strerror or err}") from None


def _written(name: str | None, files: Mapping[Path, str]) -> Path | None:
    """The file being written when `name` (an error's file name) failed: the target, not
    the temporary file beside it (`.x.json.abc123.tmp` for x.json)."""
    if name is None:
        return None
    failed = Path(name)
    for path in files:
        if failed == path or (
            failed.parent == path.parent and failed.name.startswith(f".{path.name}.")
        ):
            return path
    return failed

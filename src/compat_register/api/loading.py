"""Reading a register set: `register check` and `register verify`, and the writer lock
every command that writes takes."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..checking import references, resolve, rules
from ..concepts.conceptsfile import read_concepts
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.registers import RegisterSet
from ..model.results import Result
from ..reading import folder
from ..reading.document import Document
from ..reading.folder import read_exclusions
from ..sources import git
from ..storage import writers as project
from ..storage.journal import Journal
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from ..verifying import verify


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


def check(root: Path, settings: Settings = DEFAULTS) -> Checked:
    """`register check`: load, validate, resolve cross-references. Reads no source (git is asked
    only what `.register/` tracks: `project_paths`)."""
    return check_at(project_paths(root, settings), settings=settings)


def project_paths(root: Path, settings: Settings) -> Paths:
    """The project's every path, from the registers folder a command was given: made once
    per command here, and handed to the stages (none derives a path of its own); and
    whether this run may use `.register/` (`storage.writers`: git is asked what it tracks)."""
    paths = Paths.of(root, settings.cache)
    tracked, unknown = _tracked(paths.state)
    return replace(paths, refused=project.refusal(paths, tracked, unknown))


def _tracked(folder: Path) -> tuple[list[str], str | None]:
    """The paths under `folder` (`.register/`) git tracks, relative to it (none outside a
    git repository or with no git), and why git cannot say, when it cannot: a repository
    it will not read (a bare one planted above the folder, `safe.bareRepository`)."""
    if not os.path.isdir(folder):
        return [], None

    try:  # asked from the project's folder: a `.git` planted in `folder` is not asked
        out = git.run(["ls-files", "-z", "--", folder.name], cwd=folder.parent)
    except git.GitSourceError as err:
        if "not a git repository" in str(err) or str(err).startswith("cannot run git"):
            return [], None
        return [], str(err)
    names = [os.fsdecode(name) for name in out.split(b"\0") if name]
    return [os.path.relpath(name, folder.name) for name in names], None


Waiting = Callable[[str], None] | None
"""Told once, when a writer must wait for another: `waiting for pid 4242 (...) to finish`."""


def writer(
    root: Path,
    command: str,
    settings: Settings = DEFAULTS,
    on_wait: Waiting = None,
) -> contextlib.AbstractContextManager[Journal]:
    """The project's writer lock, held by every command that writes the registers, the
    lock or the cache (`storage.writers.writing`): waits a bounded time for another
    writer, finishes what a killed one left, and yields the journal to write through.
    Raises `StorageError` (one line) when the wait runs out or `.register/` may not be
    used (a link, files git tracks)."""
    return writer_at(project_paths(root, settings), command, settings, on_wait)


def writer_at(
    paths: Paths, command: str, settings: Settings, on_wait: Waiting
) -> contextlib.AbstractContextManager[Journal]:
    return project.writing(paths, command, settings.lock_wait, on_wait)


def check_at(paths: Paths, settings: Settings = DEFAULTS) -> Checked:
    """Read, resolve citations, check the rules, resolve references and their backlinks.
    Only reads: a write a killed command left half done, or a `.register/` this run may
    not use, is a warning (`state_warnings`), finished or mended by no reader."""
    loaded = _read(paths)
    diagnostics = [*loaded.diagnostics, *state_warnings(paths, settings)]
    sources_file = loaded.registers.sources.file
    sources_failed = any(d.file == sources_file and d.severity == "error" for d in diagnostics)
    diagnostics.extend(rules.check(loaded.registers, loaded.documents, sources_failed))
    found = references.resolve(loaded.registers, loaded.documents)
    diagnostics.extend(found.diagnostics)
    registers = references.with_backlinks(loaded.registers, found.backlinks)
    diagnostics = sort_diagnostics(diagnostics)
    return Checked(paths, registers, loaded.documents, diagnostics=diagnostics)


def state_warnings(paths: Paths, settings: Settings) -> list[Diagnostic]:
    """What a command that only reads says of `.register/`: that it is not used on this
    run and why, or that a write was interrupted and what finishes it."""
    if paths.refused is not None:
        return [_warning("state-refused", paths.refused)]
    line = project.unfinished(paths, settings.lock_wait)
    return [] if line is None else [_warning("write-interrupted", line)]


def _warning(code: str, line: str) -> Diagnostic:
    """`FILE: message` (a storage line) as a warning about FILE."""
    file, _, message = line.partition(": ")
    return Diagnostic.notice(file, id="register", code=code, message=message, severity="warning")


def _read(paths: Paths) -> folder.Loaded:
    diagnostics: list[Diagnostic] = []
    documents: dict[str, Document] = {}
    sources = folder.read_sources(paths, documents, diagnostics)
    registers = [
        resolve.resolved(register, sources)
        for register in folder.read_registers(paths, documents, diagnostics, sources.links)
    ]
    exclusions = read_exclusions(paths, documents, diagnostics)
    if exclusions is not None:
        exclusions = resolve.resolved_exclusions(exclusions, sources)
    concepts = read_concepts(paths, documents, diagnostics)
    if concepts is not None:
        concepts = resolve.resolved_concepts(concepts, sources)
    loaded = RegisterSet(sources, registers, exclusions, concepts)
    return folder.Loaded(loaded, documents, diagnostics)


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

        return verify.summary(self.outcomes)


def verify_citations(
    root: Path,
    *,
    skip: Iterable[str] = (),
    offline: bool = False,
    settings: Settings = DEFAULTS,
    against: tuple[str, str] | None = None,
) -> Verified:
    """`register verify`: everything `check` does, plus every citation at its pinned commit.

    With `against=(ALIAS, REV)`, that source's citations are judged as if its pin were
    moved to REV (`register verify --against`); raises `verify.PreviewError` when the
    source has no checkout or REV names no commit in it.
    """
    return verify_at(project_paths(root, settings), skip, offline, settings, against)


def verify_at(
    paths: Paths,
    skip: Iterable[str] = (),
    offline: bool = False,
    settings: Settings = DEFAULTS,
    against: tuple[str, str] | None = None,
) -> Verified:
    checked = check_at(paths, settings)
    if against is not None and against[0] not in checked.registers.sources.sources:
        raise verify.PreviewError(f"--against: no source '{against[0]}' in sources.yaml")
    lock = folder.read_lock(paths)
    outcomes, diagnostics, preview = verify.verify_against(
        checked.registers, paths, lock, against, skip=skip, offline=offline, settings=settings
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


def needs_clean_set(command: str) -> str:
    """Why a command that rewrites citations refuses while check reports errors."""
    return f"{command} needs a register set without errors: fix them first"

"""`register check` and `verify`, the writer lock every writing command takes, and the
shells' file writes."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..checking import references, resolve, rules
from ..concepts.conceptsfile import read_concepts
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.registers import RegisterSet
from ..model.results import Result
from ..reading import folder
from ..reading.document import Document
from ..sources import git
from ..storage import regular
from ..storage import writers as project
from ..storage.atomic import holds, write_all
from ..storage.errors import WriteError
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
        """slug -> the problems of each register file that did not load (its site page)."""
        files = folder.unloaded(self.paths, self.registers, self.diagnostics)
        return {
            slug: [d for d in self.diagnostics if d.file == file] for slug, file in files.items()
        }


def project_paths(root: Path | Paths, settings: Settings) -> Paths:
    """The project's paths, made once per command (stages take either), with whether this
    run may use `.register/` (git is asked what it tracks)."""
    if isinstance(root, Paths):
        return root
    paths = Paths.of(root, settings.cache)
    tracked, unknown = _tracked(paths.state)
    return replace(paths, refused=project.refusal(paths, tracked, unknown))


def _tracked(state: Path) -> tuple[list[str], str | None]:
    """The paths under `state` git tracks, relative to it, and why git cannot say when it
    cannot (a planted bare repository it will not read)."""
    if not os.path.isdir(state):
        return [], None
    try:  # asked from the project's folder: a `.git` planted in `state` is not asked
        out = git.run(["ls-files", "-z", "--", state.name], cwd=state.parent)
    except git.GitSourceError as err:
        if "not a git repository" in str(err) or str(err).startswith("cannot run git"):
            return [], None
        return [], str(err)
    names = [os.fsdecode(name) for name in out.split(b"\0") if name]
    return [os.path.relpath(name, state.name) for name in names], None


Waiting = Callable[[str], None] | None
"""Told once, when a writer must wait for another: `waiting for pid 4242 (...) to finish`."""


def writer(
    root: Path | Paths, command: str, settings: Settings = DEFAULTS, on_wait: Waiting = None
) -> contextlib.AbstractContextManager[Journal]:
    """The project's writer lock, yielding the journal to write through. Raises
    `StorageError` when the wait runs out or `.register/` may not be used."""
    return project.writing(project_paths(root, settings), command, settings.lock_wait, on_wait)


def check(root: Path | Paths, settings: Settings = DEFAULTS) -> Checked:
    """`register check`: read, resolve citations, check the rules, resolve references and
    backlinks. Reads no source: an unfinished write or a refused `.register/` is a warning."""
    paths = project_paths(root, settings)
    loaded = _read(paths)
    diagnostics = [*loaded.diagnostics, *_state_warnings(paths, settings)]
    sources_file = loaded.registers.sources.file
    sources_failed = any(d.file == sources_file and d.severity == "error" for d in diagnostics)
    diagnostics.extend(rules.check(loaded.registers, loaded.documents, sources_failed))
    found, registers = references.resolve(loaded.registers, loaded.documents)
    diagnostics.extend(found)
    diagnostics = sort_diagnostics(diagnostics)
    return Checked(paths, registers, loaded.documents, diagnostics=diagnostics)


def _state_warnings(paths: Paths, settings: Settings) -> list[Diagnostic]:
    """`.register/` not used and why, or a write left unfinished, as a warning about its file."""
    line = paths.refused or project.unfinished(paths, settings.lock_wait)
    if line is None:
        return []
    code = "state-refused" if paths.refused is not None else "write-interrupted"
    file, _, message = line.partition(": ")
    return [Diagnostic.notice(file, id="register", code=code, message=message, severity="warning")]


def _read(paths: Paths) -> folder.Loaded:
    """The folder loaded, exclusions.yaml and concepts.yaml with it, each citation resolved."""
    loaded = folder.load(paths)
    documents, diagnostics = loaded.documents, loaded.diagnostics
    exclusions = folder.read_exclusions(paths, documents, diagnostics)
    concepts = read_concepts(paths, documents, diagnostics)
    read = replace(loaded.registers, exclusions=exclusions, concepts=concepts)
    return folder.Loaded(resolve.resolved(read), documents, diagnostics)


@dataclass
class Verified(Checked):
    """A checked register set with the outcome of every citation."""

    outcomes: list[verify.Outcome] = field(default_factory=list)
    preview: verify.Preview | None = None
    """With `against`: the citations that moving that pin would make stale."""
    check_failed: bool = False
    """Whether `register check` alone reports errors (a file that does not load)."""
    lock: folder.BesideFile | None = None
    """citations.lock as read (None: there is none)."""

    @property
    def summary(self) -> dict[str, int]:
        return verify.summary(self.outcomes)


def verify_citations(
    root: Path | Paths,
    *,
    skip: Iterable[str] = (),
    offline: bool = False,
    settings: Settings = DEFAULTS,
    against: tuple[str, str] | None = None,
) -> Verified:
    """`register verify`: `check`, then every citation at its pinned commit; with
    `against=(ALIAS, REV)`, ALIAS's as if its pin were at REV (raises `verify.PreviewError`)."""
    checked = check(root, settings)
    if against is not None and against[0] not in checked.registers.sources.sources:
        raise verify.PreviewError(f"--against: no source '{against[0]}' in sources.yaml")
    paths, registers = checked.paths, checked.registers
    lock = folder.read_lock(paths)
    outcomes, diagnostics, preview = verify.verify_against(
        registers, paths, lock, against, skip=skip, offline=offline, settings=settings
    )
    return Verified(
        paths,
        registers,
        checked.documents,
        outcomes,
        preview,
        check_failed=checked.failed,
        lock=lock,
        diagnostics=sort_diagnostics([*checked.diagnostics, *diagnostics]),
    )


def write_files(
    files: Mapping[Path, str], *, make_folders: bool = False, journal: Journal | None = None
) -> None:
    """Write every file as UTF-8, all or none (through `journal`, under the writer lock),
    leaving one that holds those bytes untouched (an engine's incremental build reads its
    time). Raises `WriteError` naming the file, not its temporary file."""
    encoded = {path: text.encode("utf-8") for path, text in files.items()}
    try:
        if make_folders:
            for path in files:
                path.parent.mkdir(parents=True, exist_ok=True)
        write_all(
            [(path, data) for path, data in encoded.items() if not holds(path, data)], journal
        )
    except OSError as err:
        failed = Path(err.filename) if err.filename else None
        where = next((p for p in files if failed and _written(failed, p)), failed)
        raise WriteError(
            f"cannot write {where or ', '.join(map(str, files))}: {err.strerror or err}"
        ) from None


def _written(failed: Path, path: Path) -> bool:
    return failed == path or (
        failed.parent == path.parent and failed.name.startswith(f".{path.name}.")
    )


def refuse_links_under(out: Path, files: Iterable[str]) -> None:
    """Raise `WriteError` when a folder under `out` on the way to one of `files` is a link:
    `out` may be a pull request's, and a link would lead the writes out."""
    for file in files:
        if (linked := regular.linked_folder(out, file)) is not None:
            raise WriteError(
                f"{linked}: a symbolic link (to {os.readlink(linked)!r}): nothing is "
                "written through a link under --out; remove it; nothing written"
            )

"""The record of a multi-file write in progress: `prepared` (recovery removes the new
files), `committed` (it finishes the renames), `rolling back` (it restores the backups). A
journal may be planted: its paths stay inside its places, and recovery touches only a file
whose bytes hash to what it recorded."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

from . import regular, shape
from .atomic import TOKEN, Planned, digest
from .errors import StorageError

STATES = ("prepared", "committed", "rolling back")
VERSION = 2  # a journal of another version is refused

_DIGEST = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
_ENTRY = shape.record(
    {
        "in": {"type": "string"},
        "file": {"type": "string", "minLength": 1},
        "token": {"type": "string", "pattern": f"^{TOKEN.pattern}$"},
        "made": _DIGEST,
        "was": shape.nullable(_DIGEST),
    }
)
_valid = shape.checker(
    shape.record(
        {
            "version": {"enum": [VERSION]},  # not const: fastjsonschema 2.21 fails on it
            "state": {"enum": list(STATES)},
            "files": {"type": "array", "items": _ENTRY},
        }
    )
)


class JournalError(StorageError):
    """A journal that cannot be read or acted on. One line."""


class Recovered(NamedTuple):
    """The state `recover` found, and a line naming each file it left (not its bytes)."""

    state: str
    left: list[str]


class Journal:
    """The journal file of the writes into `places` (name -> folder)."""

    def __init__(self, path: Path, places: Mapping[str, Path]) -> None:
        self.path = path
        self.places = dict(places)

    def write(self, state: str, planned: list[Planned]) -> None:
        """Record `state` and the files durably; JournalError, before anything is written,
        for a target outside the places."""
        data = {"version": VERSION, "state": state, "files": [self._entry(p) for p in planned]}
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        temp.unlink(missing_ok=True)  # a killed run's, of this pid: the name is the tool's own
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(json.dumps(data))
            out.flush()
            os.fsync(out.fileno())
        os.rename(temp, self.path)  # os.rename, not os.replace: the targets' renames are those
        _sync_dir(self.path.parent)

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)

    def recover(self) -> Recovered | None:
        """Finish or undo the write recorded here (None when there is none); JournalError,
        acting on nothing, for a record unreadable or naming a file outside its places."""
        try:
            raw = regular.read_bytes(self.path, regular.MAX_BYTES, follow=False)
        except FileNotFoundError:
            return None
        except OSError as err:
            raise self.error(f"cannot read the journal: {err.strerror or err}") from None
        state, planned = self._parse(raw)
        left: list[str] = []
        for plan in planned:
            if state == "committed" and _holds(plan.new, plan.made):
                os.replace(plan.new, plan.target)
            elif state == "rolling back":
                _undo(plan)
        for plan in planned:
            if state == "prepared":  # killed while writing it: partial bytes of its own name
                plan.new.unlink(missing_ok=True)
            _discard(plan.new, plan.made, left)
            if plan.old is not None and plan.was is not None:
                _discard(plan.old, plan.was, left)
        self.remove()
        return Recovered(state, left)

    def error(self, message: str) -> JournalError:
        return JournalError(f"{self.path}: {message}")

    def _entry(self, plan: Planned) -> dict[str, Any]:
        place, file = self._place_of(plan.target)
        return {"in": place, "file": file, "token": plan.token, "made": plan.made, "was": plan.was}

    def _place_of(self, target: Path) -> tuple[str, str]:
        for place, folder in self.places.items():
            file = os.path.relpath(os.path.abspath(target), os.path.abspath(folder))
            if not file.startswith(".."):
                return place, PurePosixPath(Path(file)).as_posix()
        raise self.error(f"{target} is outside {', '.join(map(str, self.places.values()))}")

    def _parse(self, raw: bytes) -> tuple[str, list[Planned]]:
        try:
            data = shape.parse(raw)
        except ValueError:
            data = None
        if not _valid(data):
            raise self.error("not a journal this tool wrote; nothing done: remove it")
        planned = [
            Planned(self._target(e["in"], e["file"]), e["token"], e["made"], e["was"])
            for e in data["files"]
        ]
        return data["state"], planned

    def _target(self, place: str, file: str) -> Path:
        """The file `file` of `place`: a plain relative path, no link on the way to it."""
        folder = self.places.get(place)
        parts = PurePosixPath(file).parts
        plain = file not in (".", "") and file == os.path.normpath(file) and ".." not in parts
        if folder is None or os.path.isabs(file) or not plain:
            outside = f"names {place}/{file!s}, outside the project's folders"
            raise self.error(f"{outside}; nothing done: remove it")
        if (linked := regular.linked_folder(folder, file)) is not None:
            raise self.error(f"names {linked}, a symbolic link; nothing done: remove it")
        return folder / file


def _undo(plan: Planned) -> None:
    if plan.old is not None and plan.was is not None:
        if _holds(plan.old, plan.was):
            os.replace(plan.old, plan.target)
    elif not os.path.lexists(plan.new) and _holds(plan.target, plan.made):
        plan.target.unlink()  # the write made it, and nothing was there before


def _discard(path: Path, made: str, left: list[str]) -> None:
    """Remove a new file or backup the write made; another file there is named, kept (once
    committed, every new file was whole and synced: other bytes are someone else's)."""
    if not os.path.lexists(path):
        return
    if _holds(path, made):
        path.unlink()
    else:
        left.append(f"{path}: left in place: not the bytes the interrupted write made")


def _holds(path: Path, made: str) -> bool:
    """Whether `path` is a regular file (not a link) of bytes hashing to `made`."""
    try:
        return digest(regular.read_bytes(path, regular.MAX_BYTES, follow=False)) == made
    except OSError:
        return False


def _sync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable; where a folder cannot be synced, it stands."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

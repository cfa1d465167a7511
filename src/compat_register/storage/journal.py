"""The record of a multi-file write in progress, and what the next run does with it.

`atomic.write_all` writes the record in three states, each an atomic rename of its own:

- `prepared`: the new files and backups are being made beside their targets; no target
  has changed. Recovery removes them: the set stays wholly old.
- `committed`: every new file is complete and synced; the targets are being renamed over.
  Recovery renames the new files still waiting: the set becomes wholly new.
- `rolling back`: an error stopped the renames and the process puts back the backups.
  Recovery finishes that: the set becomes wholly old.

So after a kill at any instant the next `recover` leaves the files wholly old or wholly
new, and the command, run again, does (or finds done) the rest.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, NamedTuple

from .errors import StorageError

STATES = ("prepared", "committed", "rolling back")


class Planned(NamedTuple):
    """One file of a write: its target, its new file beside it, its backup (None when
    the target does not exist yet)."""

    target: Path
    new: Path
    old: Path | None


class JournalError(StorageError):
    """A journal that cannot be read or acted on. One line."""


class Journal:
    """The journal file of one write."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, state: str, planned: list[Planned]) -> None:
        """Record `state` and the files, durably (synced, then renamed into place)."""
        data = {"state": state, "files": [_entry(plan) for plan in planned]}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(temp, "w", encoding="utf-8") as out:
            json.dump(data, out)
            out.flush()
            os.fsync(out.fileno())
        os.rename(temp, self.path)  # os.rename, not os.replace: the targets' renames are those
        _sync_dir(self.path.parent)

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)


def recover(path: Path) -> str | None:
    """Finish or undo the write recorded at `path`, if any; return the state it was found
    in (None when there was none). Raises JournalError when the record is unreadable."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise JournalError(f"{path}: cannot read the journal: {err.strerror or err}") from None
    state, planned = _parse(path, raw)
    if state == "committed":
        for plan in planned:
            if plan.new.exists():
                os.replace(plan.new, plan.target)
    elif state == "rolling back":
        for plan in planned:
            _undo(plan)
    for plan in planned:
        plan.new.unlink(missing_ok=True)
        if plan.old is not None:
            plan.old.unlink(missing_ok=True)
    path.unlink(missing_ok=True)
    return state


def _undo(plan: Planned) -> None:
    """Put one target back as it was before the write."""
    if plan.old is None:
        if not plan.new.exists():  # the new file was renamed in: the target is new
            plan.target.unlink(missing_ok=True)
    elif plan.old.exists():
        os.replace(plan.old, plan.target)


def _entry(plan: Planned) -> list[str | None]:
    return [str(plan.target.absolute()), str(plan.new.absolute()), _absolute(plan.old)]


def _absolute(path: Path | None) -> str | None:
    return None if path is None else str(path.absolute())


def _parse(path: Path, raw: bytes) -> tuple[str, list[Planned]]:
    try:
        data: Any = json.loads(raw)
        state = data["state"]
        planned = [
            Planned(Path(t), Path(n), None if o is None else Path(o)) for t, n, o in data["files"]
        ]
    except (ValueError, KeyError, TypeError) as err:
        raise JournalError(f"{path}: not a journal this tool wrote ({err}); remove it") from None
    if state not in STATES:
        raise JournalError(f"{path}: unknown journal state {state!r}; remove it")
    for plan in planned:  # only our own names beside the targets: never a file elsewhere
        names = [plan.new] + ([plan.old] if plan.old else [])
        if any(
            p.parent != plan.target.parent or not p.name.startswith(f".{plan.target.name}.")
            for p in names
        ):
            raise JournalError(f"{path}: names files that are not its own; remove it")
    return state, planned


def _sync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable (a directory's entries are synced on their own)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a directory: the rename stands
        pass
    finally:
        os.close(fd)

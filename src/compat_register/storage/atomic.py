"""Several files replaced all or none, even across a kill: each new file synced beside its
target and each old one kept as a backup before any rename. A journal lets the next writer
finish a killed write; without one, a dead process's `.NAME.PID-TOKEN.tmp`/`.bak` are swept.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

from . import regular

TOKEN = re.compile(r"[0-9]{1,10}-[0-9a-f]{8}")  # PID-RANDOM: `.NAME.TOKEN.tmp`, `.bak`


class Planned(NamedTuple):
    """One file of a write: its target, the token naming its new file and backup, the
    digests of its new bytes and of its old ones (None: no target yet)."""

    target: Path
    token: str
    made: str
    was: str | None

    @property
    def new(self) -> Path:
        return self.target.with_name(f".{self.target.name}.{self.token}.tmp")

    @property
    def old(self) -> Path | None:
        backup = f".{self.target.name}.{self.token}.bak"
        return None if self.was is None else self.target.with_name(backup)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Journal(Protocol):
    """What a write records its steps in (`storage.journal.Journal`, which imports this)."""

    def write(self, state: str, planned: list[Planned]) -> None: ...

    def remove(self) -> None: ...


def write_all(files: Sequence[tuple[Path, bytes]], journal: Journal | None = None) -> None:
    """Replace each path with its bytes, all or none; recorded first in `journal` when
    given, so that `Journal.recover` completes or undoes it after a kill."""
    planned = [_plan(path, data) for path, data in files]
    for plan in planned:
        _sweep(plan.target)
    replaced: list[Planned] = []
    try:
        if journal:
            journal.write("prepared", planned)
        for (_, data), plan in zip(files, planned, strict=True):
            _write_new(plan, data)
        if journal:
            journal.write("committed", planned)
        for plan in planned:
            replaced.append(plan)
            os.replace(plan.new, plan.target)
    except BaseException:
        if journal and replaced:
            with contextlib.suppress(OSError):  # the backups are put back all the same
                journal.write("rolling back", planned)
        for plan in reversed(replaced):
            if plan.old is None:
                plan.target.unlink(missing_ok=True)
            elif plan.old.exists():
                os.replace(plan.old, plan.target)
        _done(journal, planned)
        raise
    _done(journal, planned)


def _done(journal: Journal | None, planned: list[Planned]) -> None:
    for plan in planned:
        plan.new.unlink(missing_ok=True)
        if plan.old is not None:
            plan.old.unlink(missing_ok=True)
    if journal:
        journal.remove()


def _plan(path: Path, data: bytes) -> Planned:
    token = f"{os.getpid()}-{secrets.token_hex(4)}"
    was = digest(regular.read_bytes(path, regular.MAX_BYTES)) if path.exists() else None
    return Planned(path, token, digest(data), was)


def _sweep(target: Path) -> None:
    """Remove the new files and backups of `target` left by a killed run that has ended."""
    mine = re.compile(rf"\.{re.escape(target.name)}\.(?P<token>{TOKEN.pattern})\.(tmp|bak)")
    try:
        names = os.listdir(target.parent)
    except OSError:  # no folder yet: nothing left in it
        return
    for name in names:
        found = mine.fullmatch(name)
        if found and _ended(int(found["token"].split("-")[0])):
            with contextlib.suppress(OSError):
                (target.parent / name).unlink()


def _ended(pid: int) -> bool:
    """Whether no process `pid` runs (this one runs; one of another user's runs too)."""
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):
        pass
    return False


def _write_new(plan: Planned, data: bytes) -> None:
    """`data` in the plan's new file, synced, with the target's mode; and the backup."""
    target = plan.target
    mode = target.stat().st_mode & 0o7777 if target.exists() else 0o644
    fd = os.open(plan.new, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(plan.new, mode)
    except BaseException:
        plan.new.unlink(missing_ok=True)
        raise
    if plan.old is not None:
        try:
            os.link(target, plan.old)
        except OSError:  # no hard links on this file system: a copy does as well
            shutil.copy2(target, plan.old)


def holds(path: Path, data: bytes) -> bool:
    """Whether `path` is a regular file of exactly these bytes (one larger is not read)."""
    try:
        return regular.read_bytes(path, len(data)) == data
    except OSError:
        return False


def write_changed(path: Path, data: bytes) -> None:
    """Write `data` to `path` (folders made) unless it holds those bytes already, so that its
    time stays for an engine's incremental build (MkDocs `--dirty`). Not atomic."""
    if not holds(path, data):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

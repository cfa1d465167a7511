"""Several files replaced so that all change or none does, even across a kill: each new
file written and synced beside its target, each old one kept as a backup, before any rename.
With a journal, the next run finishes what a killed one left (`journal`); without one, the
next write of a file sweeps a dead process's `.NAME.PID-TOKEN.tmp` and `.bak` files.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
from collections.abc import Sequence
from pathlib import Path

from . import regular
from .journal import TOKEN, Journal, Planned, digest


def write_all(files: Sequence[tuple[Path, bytes]], journal: Journal | None = None) -> None:
    """Replace each path with its bytes, all or none. With a `journal`, the write is
    recorded there first, so that `Journal.recover` completes or undoes it after a kill;
    the record is removed once every file is in place."""
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
        _undo(journal, planned, replaced)
        raise
    _done(journal, planned)


def _undo(record: Journal | None, planned: list[Planned], replaced: list[Planned]) -> None:
    """Put back the files already replaced; a failure here leaves the backups (and the
    journal, which the next run then finishes from)."""
    if record and replaced:
        with contextlib.suppress(OSError):  # the backups are put back all the same
            record.write("rolling back", planned)
    _restore(replaced)
    _done(record, planned)


def _done(record: Journal | None, planned: list[Planned]) -> None:
    _remove_leftovers(planned)
    if record:
        record.remove()


def _plan(path: Path, data: bytes) -> Planned:
    """A target's token (naming its new file and backup beside it, unique to this run),
    the digest of its new bytes and of its present ones (None when there is none)."""
    token = f"{os.getpid()}-{secrets.token_hex(4)}"
    was = digest(regular.read_bytes(path, regular.MAX_BYTES)) if path.exists() else None
    return Planned(path, token, digest(data), was)


def _sweep(target: Path) -> None:
    """Remove the new files and backups of `target` that a killed run of this tool left
    beside it: named by the pattern of `_plan`, made by a process that has ended."""
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


def _restore(replaced: list[Planned]) -> None:
    for plan in reversed(replaced):
        if plan.old is None:
            plan.target.unlink(missing_ok=True)
        elif plan.old.exists():
            os.replace(plan.old, plan.target)


def _remove_leftovers(planned: list[Planned]) -> None:
    for plan in planned:
        plan.new.unlink(missing_ok=True)
        if plan.old is not None:
            plan.old.unlink(missing_ok=True)


def holds(path: Path, data: bytes) -> bool:
    """Whether `path` is a regular file of exactly these bytes (one larger is not read)."""
    try:
        return regular.read_bytes(path, len(data)) == data
    except OSError:
        return False


def write_changed(path: Path, data: bytes) -> None:
    """Write `data` to `path` (its folders made) unless the file holds those bytes already,
    whose modification time then stays: what an engine's incremental build reads (MkDocs'
    `--dirty`, Zensical). Not atomic: for generated files."""
    if not holds(path, data):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

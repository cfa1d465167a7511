"""A project's writers: whether this run may use `.register/` (only a real folder, no link
in it or its caches, where git tracks nothing: a pull request may have written it); one
writer at a time (a `flock` on `.register/lock`, which the kernel drops however its holder
ends), each finishing first what a killed one left; what a reader is told of it."""

from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from . import journal, regular
from .errors import StorageError
from .layout import EXCERPT_CACHE, Paths

FINISH = "register sync"  # any writer finishes it; this one changes nothing else

Tell = Callable[[str], None] | None


class Busy(StorageError):
    """Another writer held the project's lock for longer than the wait. One line."""


def refusal(paths: Paths, tracked: Sequence[str], unknown: str | None = None) -> str | None:
    """Why `.register/` is not the tool's own on this run, one line naming the file, or None
    (`tracked`: the paths under it git tracks; `unknown`: why git cannot say)."""
    folders = [paths.state]
    if paths.own_cache:
        folders += [paths.cache, paths.cache / EXCERPT_CACHE]
    for folder in folders:
        found = _linked(folder) or _linked_inside(folder)
        if found is not None:
            return found
    if unknown is not None:
        return f"{paths.state}: git cannot say what it tracks here ({unknown}); not used"
    tracked = [
        path for path in tracked if path != paths.writer_lock.name
    ]  # written, never read back
    if tracked:
        more = f" (and {len(tracked) - 1} more)" if len(tracked) > 1 else ""
        return (
            f"{paths.state / tracked[0]}{more}: tracked by git: the tool never reads a file "
            f"a commit brought into its folder; untrack it: git rm -r --cached {paths.state}"
        )
    return None


def _linked(path: Path) -> str | None:
    if os.path.islink(path):
        return _a_link(path)
    if os.path.lexists(path) and not os.path.isdir(path):
        return f"{path}: not a folder: the tool's folder must be one; remove it"
    return None


def _linked_inside(folder: Path) -> str | None:
    try:
        with os.scandir(folder) as entries:
            links = sorted(entry.name for entry in entries if entry.is_symlink())
    except OSError:  # no folder (yet): nothing in it
        return None
    return _a_link(folder / links[0]) if links else None


def _a_link(path: Path) -> str:
    return (
        f"{path}: a symbolic link (to {os.readlink(path)!r}): nothing in the tool's folder "
        "is followed out of it; remove the link"
    )


def claim(paths: Paths) -> Path:
    """For a command that writes: `.register/`, made when missing; StorageError when this
    run may not use it."""
    if paths.refused is not None:
        raise StorageError(paths.refused)
    try:
        os.mkdir(paths.state)
    except FileExistsError:
        pass
    except OSError as err:
        raise StorageError(f"cannot make {paths.state}: {err.strerror or err}") from None
    if (found := _linked(paths.state)) is not None:  # made meanwhile
        raise StorageError(found)
    return paths.state


@contextlib.contextmanager
def writing(
    paths: Paths, command: str, wait: float, tell: Tell = None
) -> Iterator[journal.Journal]:
    """Hold the writer lock while the block runs (Busy after `wait` seconds), a killed run's
    write finished first; yields the journal to write through. `tell` hears once whom it
    waits for, and what was left."""
    claim(paths)
    record = journal.Journal(paths.journal, {"registers": paths.registers, "state": paths.state})
    fd = _open_lock(paths.writer_lock, os.O_RDWR | os.O_CREAT)
    try:
        _acquire(fd, paths.writer_lock, wait, tell, fcntl.LOCK_EX)
        _write_holder(fd, command)  # only once held: nothing is written before the lock
        try:
            recovered = record.recover()
        except OSError as err:
            message = f"cannot finish the interrupted write: {err.strerror or err}"
            raise record.error(message) from None
        if recovered is not None and tell is not None:
            for line in recovered.left:
                tell(line)
        yield record
    finally:
        os.close(fd)  # releases the lock; the file stays, as removing it would race


def unfinished(paths: Paths, wait: float) -> str | None:
    """For a command that only reads: the line saying a write was interrupted (its journal
    is there once any writer at work has ended) and what to run; else None."""
    if paths.refused is not None or not os.path.lexists(paths.journal):
        return None
    try:
        _wait_for_writer(paths.writer_lock, wait)
    except Busy:
        pass  # a writer still at work: its journal is not a kill's, but the set is mid-write
    else:
        if not os.path.lexists(paths.journal):  # the writer at work ended, its write done
            return None
    return (
        f"{paths.journal}: a write was interrupted, so what is read may be part "
        f"old, part new: run `{FINISH}` (or any command that writes) to finish it"
    )


def _wait_for_writer(path: Path, wait: float) -> None:
    """Wait at most `wait` seconds for the writer holding `path` to end (Busy when it does
    not). Creates nothing: without a lock file nobody is waited for."""
    try:
        fd = _open_lock(path, os.O_RDONLY)
    except StorageError:
        return
    try:
        _acquire(fd, path, wait, None, fcntl.LOCK_SH)
    finally:
        os.close(fd)


def _open_lock(path: Path, flags: int) -> int:
    """The lock file, a regular file of one name never opened through a link; else a
    StorageError (one line)."""
    try:
        fd = regular.open_regular(path, flags)
    except regular.Refused as err:
        tail = "" if err.errno == errno.ELOOP else "; remove it"  # the link message says it already
        raise StorageError(f"{path}: cannot lock: {err.strerror}{tail}") from None
    except OSError as err:
        raise StorageError(f"{path}: cannot lock: {err.strerror or err}") from None
    if os.fstat(fd).st_nlink > 1:
        os.close(fd)
        reason = "a hard link (a file with other names, which the holder's line would overwrite)"
        raise StorageError(f"{path}: cannot lock: {reason}; remove it")
    return fd


def _acquire(fd: int, path: Path, wait: float, tell: Tell, kind: int) -> None:
    deadline = time.monotonic() + wait
    while True:
        with contextlib.suppress(BlockingIOError):
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            return
        if tell is not None:
            tell(f"waiting for {holder(path)} to finish")
            tell = None
        if time.monotonic() >= deadline:
            raise Busy(
                f"{path}: another register command is writing this project: {holder(path)}; "
                f"waited {wait:g} s (REGISTER_LOCK_WAIT sets how long)"
            )
        time.sleep(0.05)


def _write_holder(fd: int, command: str) -> None:
    since = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    data = json.dumps({"pid": os.getpid(), "command": command, "since": since}).encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, data + b"\n", 0)


def holder(path: Path) -> str:
    """Who holds the lock, as the holder wrote it (`pid 123 (register bump mcpx) since
    2026-12-01T16:30:02Z`), or "an unknown process"."""
    try:
        data = json.loads(regular.read_bytes(path, 4096, follow=False))
        return f"pid {int(data['pid'])} ({data['command']}) since {data['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "an unknown process"

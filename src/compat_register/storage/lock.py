"""One writer at a time per project: a `flock` on a file under `.register/`, held for a
writing command's whole run, reading included. The holder writes who it is into the file,
so a command kept waiting says whom it waits for; the kernel drops the lock when its holder
ends, however it ends.
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import json
import os
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from . import regular
from .errors import StorageError

DEFAULT_WAIT = 30.0
"""Seconds a writer waits for another by default (`REGISTER_LOCK_WAIT` says otherwise)."""


class Busy(StorageError):
    """Another writer held the project's lock for longer than the wait. One line."""


@contextlib.contextmanager
def hold(
    path: Path,
    command: str,
    wait: float = DEFAULT_WAIT,
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[None]:
    """Hold the lock at `path` while the block runs, waiting at most `wait` seconds for
    it; `on_wait` hears once whom it waits for. Raises Busy when the wait runs out, and
    StorageError when `path` is a link or not a regular file (its target never opened)."""
    fd = _open(path, os.O_RDWR | os.O_CREAT)
    try:
        _acquire(fd, path, wait, on_wait, fcntl.LOCK_EX)
        _write_holder(fd, command)  # only once held: nothing is written before the lock
        yield
    finally:
        os.close(fd)  # releases the lock; the file stays, as removing it would race


def wait_for_writer(path: Path, wait: float) -> None:
    """For a reader: wait at most `wait` seconds for the writer holding the lock at `path`
    to end (Busy when it does not). Writes nothing and creates no lock: without one (or
    with one that is no regular file, which no writer could hold) nobody is waited for."""
    try:
        fd = _open(path, os.O_RDONLY)
    except StorageError:
        return
    try:
        _acquire(fd, path, wait, None, fcntl.LOCK_SH)
    finally:
        os.close(fd)


def _open(path: Path, flags: int) -> int:
    """The lock file opened without following a link and without waiting on a FIFO; a
    StorageError (one line) unless it is a regular file."""
    flags |= os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as err:
        reason = regular.a_link(path) if err.errno == errno.ELOOP else err.strerror or str(err)
        raise StorageError(f"{path}: cannot lock: {reason}") from None
    found = os.fstat(fd)
    if not stat.S_ISREG(found.st_mode) or found.st_nlink > 1:
        os.close(fd)
        reason = (
            regular.not_regular(path, found.st_mode)
            if not stat.S_ISREG(found.st_mode)
            else "a hard link (a file with other names, which the holder's line would overwrite)"
        )
        raise StorageError(f"{path}: cannot lock: {reason}; remove it") from None
    return fd


def _acquire(
    fd: int, path: Path, wait: float, on_wait: Callable[[str], None] | None, kind: int
) -> None:
    deadline = time.monotonic() + wait
    told = False
    while True:
        with contextlib.suppress(BlockingIOError):
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            return
        if on_wait is not None and not told:
            on_wait(f"waiting for {holder(path)} to finish")
            told = True
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
    """Who holds the lock, as the holder wrote it: `pid 123 (register bump mcpx) since
    2026-12-01T16:30:02Z`; "an unknown process" when it has not said yet."""
    try:
        data = json.loads(regular.read_bytes(path, 4096, follow=False))
        return f"pid {int(data['pid'])} ({data['command']}) since {data['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "an unknown process"

"""One writer at a time per project: a `flock` on `.register/lock` for a writing command's
whole run; the holder writes who it is there, so a command kept waiting says whom it waits
for, and the kernel drops the lock when its holder ends, however it ends."""

from __future__ import annotations

import contextlib
import datetime
import errno
import fcntl
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from . import regular
from .errors import StorageError

DEFAULT_WAIT = 30.0  # seconds a writer waits for another (`REGISTER_LOCK_WAIT`)


class Busy(StorageError):
    """Another writer held the project's lock for longer than the wait. One line."""


@contextlib.contextmanager
def hold(
    path: Path,
    command: str,
    wait: float = DEFAULT_WAIT,
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[None]:
    """Hold the lock at `path` while the block runs, waiting at most `wait` seconds (Busy
    then); `on_wait` hears once whom it waits for."""
    fd = _open(path, os.O_RDWR | os.O_CREAT)
    try:
        _acquire(fd, path, wait, on_wait, fcntl.LOCK_EX)
        _write_holder(fd, command)  # only once held: nothing is written before the lock
        yield
    finally:
        os.close(fd)  # releases the lock; the file stays, as removing it would race


def wait_for_writer(path: Path, wait: float) -> None:
    """For a reader: wait at most `wait` seconds for the writer holding `path` to end (Busy
    when it does not). Creates nothing: without a lock file nobody is waited for."""
    try:
        fd = _open(path, os.O_RDONLY)
    except StorageError:
        return
    try:
        _acquire(fd, path, wait, None, fcntl.LOCK_SH)
    finally:
        os.close(fd)


def _open(path: Path, flags: int) -> int:
    """The lock file, a regular file of one name never opened through a link; else a
    StorageError (one line)."""
    try:
        fd = regular.open_regular(path, flags)
    except regular.Refused as err:
        tail = "" if err.errno == errno.ELOOP else "; remove it"  # `a_link` says it already
        raise StorageError(f"{path}: cannot lock: {err.strerror}{tail}") from None
    except OSError as err:
        raise StorageError(f"{path}: cannot lock: {err.strerror or err}") from None
    if os.fstat(fd).st_nlink > 1:
        os.close(fd)
        reason = "a hard link (a file with other names, which the holder's line would overwrite)"
        raise StorageError(f"{path}: cannot lock: {reason}; remove it")
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
    """Who holds the lock, as the holder wrote it (`pid 123 (register bump mcpx) since
    2026-12-01T16:30:02Z`), or "an unknown process"."""
    try:
        data = json.loads(regular.read_bytes(path, 4096, follow=False))
        return f"pid {int(data['pid'])} ({data['command']}) since {data['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return "an unknown process"

"""Bounded reads of regular files: a device, a FIFO or a socket is refused, never read.

A register set comes from a pull request, and git commits a symbolic link to `/dev/zero`
as readily as a file: reading it would never end, and opening a FIFO would wait forever.
So the file is opened without blocking (a FIFO's open then returns at once), what was
opened is asked what it is, and at most `limit` bytes are read from a regular file.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import RegisterError

MAX_BYTES = 64 * 1024 * 1024
"""The most of any one file the tool reads (a register file's own limit is smaller)."""

KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
}


class Refused(OSError, RegisterError):
    """A file that is not read: not a regular file, or larger than the limit. Its
    `strerror` is one line saying why (callers already report an OSError's strerror)."""


def read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path` (a link to one is followed); raises `Refused`
    for anything else or for more than `limit` bytes, and OSError when it cannot be read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):  # as reading one always said
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise Refused(errno.EINVAL, not_regular(path, mode), str(path))
        os.set_blocking(fd, True)
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise Refused(errno.EFBIG, too_large(limit), str(path))
    return data


def kind_of(path: Path) -> str | None:
    """What `path` is when it is not a regular file (following links), else None; None
    too for a path that does not exist (opening it says so)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else not_regular(path, mode)


def not_regular(path: Path, mode: int) -> str:
    kind = KINDS.get(stat.S_IFMT(mode), "not a regular file")
    via = ""
    if os.path.islink(path):
        via = f" (a symbolic link to {os.readlink(path)!r})"
    return f"{kind}{via}, not a regular file: only regular files are read"


def too_large(limit: int) -> str:
    mb = 1024 * 1024
    size = f"{limit / mb:g} MB" if limit >= mb else f"{limit:,} bytes"
    return f"over the {size} limit for one file"

"""Bounded reads of regular files: a device, a FIFO or a socket (git commits a link to
`/dev/zero` as readily as a file) is refused, never read; a file is opened without blocking.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
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


def read_bytes(
    path: Path, limit: int, *, follow: bool = True, within: Sequence[Path] = ()
) -> bytes:
    """The bytes of the regular file at `path`; `Refused` for anything else or more than
    `limit` bytes, OSError when unreadable. A link is followed only when `follow`, and then
    only to a file inside one of `within` when given (not a register linked to /etc/passwd)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    fd = _open(path, flags if follow else flags | os.O_NOFOLLOW)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):  # as reading one always said
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise Refused(errno.EINVAL, not_regular(path, mode), str(path))
        if within and not _inside(path, within):
            raise Refused(errno.EXDEV, leads_out(path), str(path))
        os.set_blocking(fd, True)
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise Refused(errno.EFBIG, too_large(limit), str(path))
    return data


def _open(path: Path, flags: int) -> int:
    try:
        return os.open(path, flags)
    except OSError as err:
        if err.errno == errno.ELOOP and os.path.islink(path):  # O_NOFOLLOW met a link
            raise Refused(errno.ELOOP, a_link(path), str(path)) from None
        raise


def _inside(path: Path, folders: Sequence[Path]) -> bool:
    """Whether `path`, its links followed, is in one of `folders` (theirs followed too)."""
    real = os.path.realpath(path)
    return any(real.startswith(os.path.join(os.path.realpath(f), "")) for f in folders)


def a_link(path: Path) -> str:
    """Why a link among the tool's own files is not read."""
    return (
        f"a symbolic link (to {os.readlink(path)!r}): the tool never reads its own files "
        "through a link; remove it"
    )


def leads_out(path: Path) -> str:
    """Why a link that leads out of the project is not read."""
    return (
        f"a symbolic link to {os.readlink(path)!r}, which leads outside the project: "
        "only files inside it are read"
        if os.path.islink(path)
        else "inside a linked folder that leads outside the project: only files inside it are read"
    )


def linked_folder(folder: Path, relative: Path | str) -> Path | None:
    """The first folder on the way from `folder` to the file `relative` under it that is a
    symbolic link (a write or removal there would land wherever it leads); None when none."""
    for part in Path(relative).parts[:-1]:
        folder = folder / part
        if os.path.islink(folder):
            return folder
    return None


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

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
    """A file that is not read: not a regular file, or over the limit; `strerror` says why."""


def open_regular(path: Path, flags: int = os.O_RDONLY, *, follow: bool = False) -> int:
    """The regular file at `path` opened without blocking (nor following a link unless
    `follow`); `Refused` for a link or anything but a regular file."""
    flags |= os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as err:
        if err.errno == errno.ELOOP and os.path.islink(path):  # O_NOFOLLOW met a link
            link = f"a symbolic link (to {os.readlink(path)!r}): the tool never reads its own files"
            raise Refused(errno.ELOOP, f"{link} through a link; remove it", str(path)) from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):  # as reading one always said
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        kind = KINDS.get(stat.S_IFMT(mode), "not a regular file")
        via = f" (a symbolic link to {os.readlink(path)!r})" if os.path.islink(path) else ""
        why = f"{kind}{via}, not a regular file: only regular files are read"
        raise Refused(errno.EINVAL, why, str(path))
    return fd


def read_bytes(
    path: Path, limit: int, *, follow: bool = True, within: Sequence[Path] = ()
) -> bytes:
    """The bytes of the regular file at `path`; `Refused` for anything else or more than
    `limit` bytes. A link is followed only when `follow`, and then only to a file inside
    one of `within` when given (not a register linked to /etc/passwd)."""
    fd = open_regular(path, follow=follow)
    with os.fdopen(fd, "rb") as handle:
        if within and not _inside(path, within):
            how = "inside a linked folder that leads"
            if os.path.islink(path):
                how = f"a symbolic link to {os.readlink(path)!r}, which leads"
            why = f"{how} outside the project: only files inside it are read"
            raise Refused(errno.EXDEV, why, str(path))
        os.set_blocking(fd, True)
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise Refused(errno.EFBIG, too_large(limit), str(path))
    return data


def _inside(path: Path, folders: Sequence[Path]) -> bool:
    real = os.path.realpath(path)
    return any(real.startswith(os.path.join(os.path.realpath(f), "")) for f in folders)


def linked_folder(folder: Path, relative: Path | str) -> Path | None:
    """The first folder on the way from `folder` to the file `relative` that is a link (a
    write there would land wherever it leads); None when none is."""
    for part in Path(relative).parts[:-1]:
        folder = folder / part
        if os.path.islink(folder):
            return folder
    return None


def too_large(limit: int) -> str:
    mb = 1024 * 1024
    size = f"{limit / mb:g} MB" if limit >= mb else f"{limit:,} bytes"
    return f"over the {size} limit for one file"

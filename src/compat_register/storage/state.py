"""Whether this run may use `.register/`: only a real folder (no link in it or its caches)
where git tracks nothing, as a pull request may have written it. Else a reading command
runs without caches, and a writing command stops before it changes anything."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .errors import StorageError
from .layout import EXCERPT_CACHE, WRITER_LOCK, Paths


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
    tracked = [path for path in tracked if path != WRITER_LOCK]  # written, never read back
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

"""A project's writers: whether this run may use `.register/` (only a real folder, no link
in it or its caches, where git tracks nothing: a pull request may have written it); one
writer at a time, each finishing first what a killed one left; what a reader is told of a
write left unfinished."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from . import journal, lock
from .errors import StorageError
from .layout import EXCERPT_CACHE, JOURNAL_FILE, WRITER_LOCK, Paths

FINISH = "register sync"  # any writer finishes it; this one changes nothing else


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


@contextlib.contextmanager
def writing(
    paths: Paths,
    command: str,
    wait: float,
    tell: Callable[[str], None] | None = None,
) -> Iterator[journal.Journal]:
    """Hold the writer lock while the block runs, a killed run's write finished first;
    yields the journal to write through. `tell` hears whom it waits for, and what was left."""
    claim(paths)
    record = journal.Journal(paths.journal, {"registers": paths.registers, "state": paths.state})
    with lock.hold(paths.writer_lock, command, wait, tell):
        try:
            recovered = record.recover()
        except OSError as err:
            message = f"cannot finish the interrupted write: {err.strerror or err}"
            raise record.error(message) from None
        if recovered is not None and tell is not None:
            for line in recovered.left:
                tell(line)
        yield record


def unfinished(paths: Paths, wait: float) -> str | None:
    """For a command that only reads: the line saying a write was interrupted (its journal
    is there once any writer at work has ended) and what to run; else None."""
    if paths.refused is not None or not os.path.lexists(paths.journal):
        return None
    try:
        lock.wait_for_writer(paths.writer_lock, wait)
    except lock.Busy:
        pass  # a writer still at work: its journal is not a kill's, but the set is mid-write
    else:
        if not os.path.lexists(paths.journal):  # the writer at work ended, its write done
            return None
    return (
        f"{paths.state / JOURNAL_FILE}: a write was interrupted, so what is read may be part "
        f"old, part new: run `{FINISH}` (or any command that writes) to finish it"
    )

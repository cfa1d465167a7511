"""A project's writers: one at a time, each finishing first what a killed one left; and
what a reader is told of a write left unfinished (it finishes nothing itself)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator

from . import journal, lock, state
from .layout import JOURNAL_FILE, Paths

FINISH = "register sync"  # any writer finishes it; this one changes nothing else


def journal_of(paths: Paths) -> journal.Journal:
    return journal.Journal(paths.journal, {"registers": paths.registers, "state": paths.state})


@contextlib.contextmanager
def writing(
    paths: Paths,
    command: str,
    wait: float,
    tell: Callable[[str], None] | None = None,
) -> Iterator[journal.Journal]:
    """Hold the writer lock while the block runs, a killed run's write finished first;
    yields the journal to write through. `tell` hears whom it waits for, and what was left."""
    state.claim(paths)
    record = journal_of(paths)
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

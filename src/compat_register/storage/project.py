"""A project's writers: one at a time, each finishing first what a killed one left.

The lock and the journal sit in `.register/` beside the registers folder (`layout.Paths`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from . import journal, lock
from .layout import Paths


@contextlib.contextmanager
def writing(
    paths: Paths,
    command: str,
    environ: Mapping[str, str],
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[Path]:
    """Hold the project's writer lock while the block runs, having first finished any
    write a killed run left; yields the journal path the block's writes go through.
    Raises `lock.Busy` when another writer holds it past the wait, `journal.JournalError`
    when what it left cannot be read."""
    wait = lock.wait_from(environ)
    with lock.hold(paths.writer_lock, command, wait, on_wait):
        try:
            journal.recover(paths.journal)
        except OSError as err:
            message = f"cannot finish the interrupted write of {paths.journal}"
            raise journal.JournalError(f"{message}: {err.strerror or err}") from None
        yield paths.journal


def settle(paths: Paths, environ: Mapping[str, str]) -> None:
    """For a command that only reads: when a killed write left a journal, wait for the
    lock and finish it, so that the set read is wholly old or wholly new."""
    if paths.journal.exists():
        with writing(paths, "register (finishing an interrupted write)", environ):
            pass

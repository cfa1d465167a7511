"""A project's own state beside its registers folder: `.register/`, and its writers.

`.register/` sits beside the registers folder (`registers/../.register`): the cache, the
writers' lock, and the journal of a multi-file write in progress. One home for the layout.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from . import journal, lock

STATE_DIR = ".register"
LOCK_FILE = "lock"
JOURNAL_FILE = "journal.json"


def state_dir(registers_dir: Path) -> Path:
    """`<registers_dir>/../.register` (normpath, not .parent: the parent of "." is ".")."""
    return Path(os.path.normpath(registers_dir / ".." / STATE_DIR))


def journal_path(registers_dir: Path) -> Path:
    return state_dir(registers_dir) / JOURNAL_FILE


@contextlib.contextmanager
def writing(
    registers_dir: Path,
    command: str,
    environ: Mapping[str, str],
    on_wait: Callable[[str], None] | None = None,
) -> Iterator[Path]:
    """Hold the project's writer lock while the block runs, having first finished any
    write a killed run left; yields the journal path the block's writes go through.
    Raises `lock.Busy` when another writer holds it past the wait, `journal.JournalError`
    when what it left cannot be read."""
    wait = lock.wait_from(environ)
    with lock.hold(state_dir(registers_dir) / LOCK_FILE, command, wait, on_wait):
        try:
            journal.recover(journal_path(registers_dir))
        except OSError as err:
            message = f"cannot finish the interrupted write of {journal_path(registers_dir)}"
            raise journal.JournalError(f"{message}: {err.strerror or err}") from None
        yield journal_path(registers_dir)


def settle(registers_dir: Path, environ: Mapping[str, str]) -> None:
    """For a command that only reads: when a killed write left a journal, wait for the
    lock and finish it, so that the set read is wholly old or wholly new."""
    if journal_path(registers_dir).exists():
        with writing(registers_dir, "register (finishing an interrupted write)", environ):
            pass

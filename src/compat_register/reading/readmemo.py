"""Register files as this process last read them, kept by their bytes and what else the
reading took (the path shown, sources.yaml's link patterns): `mkdocs serve` then parses
again only the files an edit changed. Each load keeps exactly the files it read, so the
memo is bounded by one registers folder, and a kept read is the value a fresh one gives.
Only a process that loads again keeps them (`keep_between_loads`): a command or a cold
build would hold every file's document to the end for nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..model.diagnostic import Diagnostic
from ..model.registers import LinkPattern, Register
from .document import Document

Key = tuple[str, bytes, tuple[tuple[str, str], ...]]
"""A file's path as messages show it, its bytes, and the link patterns its prose is read
with (each as its pattern's text and its URL)."""


@dataclass(frozen=True)
class FileRead:
    """One register file read: its document and register (None when it does not load) and
    what reading it found."""

    document: Document | None
    register: Register | None
    diagnostics: tuple[Diagnostic, ...]


_LAST: dict[Key, FileRead] = {}
"""The files the last load read, by key."""
_KEEPING = {"on": False}
"""Whether loads keep their reads for the next (`keep_between_loads`)."""


def keep_between_loads(on: bool) -> None:
    """Keep each load's reads for the next one (a serving process), or keep none."""
    _KEEPING["on"] = on
    _LAST.clear()


def key(display: str, raw: bytes, links: Sequence[LinkPattern]) -> Key:
    """The key of a file's reading."""
    return display, raw, tuple((link.pattern.pattern, link.url) for link in links)


class Reads:
    """One load's reads: each the last load's read of the same key, or made anew."""

    def __init__(self) -> None:
        self.now: dict[Key, FileRead] = {}

    def read(self, found: Key, make: Callable[[], FileRead]) -> FileRead:
        """The read under `found`, kept or made by `make`."""
        self.now[found] = _LAST.get(found) or make()
        return self.now[found]

    def keep(self) -> None:
        """This load's reads become the last ones (and only they), when loads keep them."""
        _LAST.clear()
        if _KEEPING["on"]:
            _LAST.update(self.now)

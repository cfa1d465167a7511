"""Register files as this process last read them, by their bytes, path shown and link
patterns: `mkdocs serve` parses again only the files an edit changed. Each load keeps exactly
the files it read (bounded by one folder; a kept read is the value a fresh one gives), and
only a process that loads again keeps them (`keep_between_loads`)."""

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
    """One register file read: its document and register (None when it does not load), and
    its problems."""

    document: Document | None
    register: Register | None
    diagnostics: tuple[Diagnostic, ...]


_LAST: dict[Key, FileRead] = {}
_KEEPING = {"on": False}


def keep_between_loads(on: bool) -> None:
    """Keep each load's reads for the next one (a serving process), or keep none."""
    _KEEPING["on"] = on
    _LAST.clear()


def _key(display: str, raw: bytes, links: Sequence[LinkPattern]) -> Key:
    return display, raw, tuple((link.pattern.pattern, link.url) for link in links)


class Reads(dict[Key, FileRead]):
    """One load's reads: each the last load's read of the same file, or made anew."""

    def read(
        self, display: str, raw: bytes, links: Sequence[LinkPattern], make: Callable[[], FileRead]
    ) -> FileRead:
        found = _key(display, raw, links)
        self[found] = _LAST.get(found) or make()
        return self[found]

    def kept(self, display: str, raw: bytes, links: Sequence[LinkPattern]) -> bool:
        """Whether the last load's read of this file is kept (`read` will not make it)."""
        return _key(display, raw, links) in _LAST

    def keep(self) -> None:
        """This load's reads become the last ones (and only they), when loads keep them."""
        _LAST.clear()
        if _KEEPING["on"]:
            _LAST.update(self)

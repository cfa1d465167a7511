"""One loaded YAML file: its data and where each part of it was written (`Document`), made by
`loader.parse`; later stages read positions from it, and `rewriting.edit` a scalar's text."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

from ..model.positions import Path_, Where
from ..storage.errors import RegisterError


class Mark(NamedTuple):
    """A 1-based position in a file, with its character offset (a named tuple: the loader
    makes tens of thousands)."""

    line: int
    col: int
    offset: int = 0


@dataclass
class Document:
    """One loaded YAML file: its data and its parts' character offsets by path (made a `Mark`
    only when a message asks)."""

    file: str
    text: str
    data: Any
    values: dict[Path_, int] = field(default_factory=dict)
    """Where each value (mapping, sequence or scalar) starts."""
    keys: dict[Path_, int] = field(default_factory=dict)
    """Where the key introducing each mapping value starts."""
    ends: dict[Path_, int] = field(default_factory=dict)
    """Just past each scalar value, for byte-preserving edits."""
    styles: dict[Path_, str] = field(default_factory=dict)
    """Quoting style of each scalar: '' plain, "'", '"', '|' or '>'."""

    def mark(self, path: Path_) -> Mark:
        """The position of `path`, or of its nearest written ancestor."""
        while path and path not in self.values:
            path = path[:-1]
        return self.position(self.values[path]) if path in self.values else Mark(1, 1)

    def key_mark(self, path: Path_) -> Mark:
        """The position of the key introducing `path` (for unknown-field messages)."""
        return self.position(self.keys[path]) if path in self.keys else self.mark(path)

    def where(self, path: Path_, at_key: bool = False) -> Where:
        """Where the value at `path` (its key, `at_key`) was written, as diagnostics carry it."""
        mark = self.key_mark(path) if at_key else self.mark(path)
        return Where(self.file, mark.line, mark.col)

    def raw(self, path: Path_) -> tuple[int, int]:
        """The character span of the scalar at `path` as written, quotes included."""
        start = self.values[path]
        return start, self.ends.get(path, start)

    def find(self, path: Path_, token: str, occurrence: int = 0) -> int | None:
        """Character offset of the `occurrence`-th `token` inside the scalar at `path`: a token
        without spaces (an ID, `path:line`) is verbatim in any quoting or folding."""
        if path not in self.values:
            return None
        start, end = self.raw(path)
        offset = start - 1
        for _ in range(occurrence + 1):
            offset = self.text.find(token, offset + 1, end)
            if offset < 0:
                return None
        return offset

    def position(self, index: int) -> Mark:
        """The line and column of a character offset. Only `\\n` ends a line, as editors and
        `grep -n` count (libyaml also breaks at a lone `\\r`, U+0085, U+2028, U+2029)."""
        starts = self._line_starts
        line = bisect.bisect_right(starts, index)
        return Mark(line, index - starts[line - 1] + 1, index)

    def token_mark(self, path: Path_, token: str, occurrence: int = 0) -> Mark:
        """Where a token inside a scalar was written, else where the scalar starts."""
        index = self.find(path, token, occurrence)
        return self.mark(path) if index is None else self.position(index)

    @cached_property
    def _line_starts(self) -> list[int]:
        return [0] + [m.end() for m in re.finditer("\n", self.text)]


class LoadError(RegisterError):
    """A file that cannot be read as a register document, with where it went wrong."""

    def __init__(self, mark: Mark, code: str, message: str):
        super().__init__(message)
        self.mark, self.code, self.message = mark, code, message

"""One loaded YAML file: its data and where each part of it was written (`Document`).

Made by `loader.parse`; every later stage reads positions from it for its messages, and
`rewriting.edit` finds the text of a scalar in it to rewrite that alone.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..model.positions import Path_
from ..storage.errors import RegisterError


class Mark(NamedTuple):
    """A 1-based position in a file, with the character offset for editors of the text.

    A named tuple, not a dataclass: the loader makes one per value, tens of thousands per run.
    """

    line: int
    col: int
    offset: int = 0


@dataclass
class Document:
    """One loaded YAML file: its data and where each part of it was written."""

    file: str
    text: str
    data: Any
    values: dict[Path_, int] = field(default_factory=dict)
    """Character offset of the start of every value (mapping, sequence or scalar) by path:
    an offset, made a `Mark` when a message asks (most values are never asked about)."""
    keys: dict[Path_, int] = field(default_factory=dict)
    """Character offset of the key that introduced each mapping value."""
    ends: dict[Path_, int] = field(default_factory=dict)
    """Character offset just past each scalar value, for byte-preserving edits."""
    styles: dict[Path_, str] = field(default_factory=dict)
    """Quoting style of each scalar: '' plain, "'", '"', '|' or '>'."""
    _starts: list[int] = field(default_factory=list, repr=False)
    _counted: int = field(default=0, repr=False, compare=False)
    """How many positions were counted in the text before `_starts` was made."""

    def mark(self, path: Path_) -> Mark:
        """The position of `path`, or of its nearest written ancestor."""
        while path and path not in self.values:
            path = path[:-1]
        return self.position(self.values[path]) if path in self.values else Mark(1, 1)

    def key_mark(self, path: Path_) -> Mark:
        """The position of the key introducing `path` (for unknown-field messages)."""
        return self.position(self.keys[path]) if path in self.keys else self.mark(path)

    def raw(self, path: Path_) -> tuple[int, int]:
        """The character span of the scalar at `path` as written, quotes included."""
        start = self.values[path]
        return start, self.ends.get(path, start)

    def find(self, path: Path_, token: str, occurrence: int = 0) -> int | None:
        """Character offset of the `occurrence`-th `token` inside the scalar at `path`.

        Tokens without spaces (IDs, `path:line`) appear verbatim in the written scalar
        whatever its quoting or folding, which lets edits and messages find them.
        """
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
        """The line and column of a character offset: the one way lines are counted here.

        Only `\\n` ends a line (`\\r\\n` too, as its `\\r` is the end of the line before), as
        editors, `grep -n` and GitHub count; libyaml also counts a lone `\\r`, U+0085, U+2028
        and U+2029, so its own line numbers are used only for a file without them.
        """
        if not self._starts and self._counted < _COUNTED:
            # Counted in the text, which is quicker than listing every line's start for a
            # file asked about once or twice (a bump asks that of each file it rewrites).
            self._counted += 1
            line = self.text.count("\n", 0, index) + 1
            return Mark(line, index - self.text.rfind("\n", 0, index), index)
        starts = self._line_starts()
        line = bisect.bisect_right(starts, index)
        return Mark(line, index - starts[line - 1] + 1, index)

    def token_mark(self, path: Path_, token: str, occurrence: int = 0) -> Mark:
        """Where a token inside a scalar was written, else where the scalar starts."""
        index = self.find(path, token, occurrence)
        return self.mark(path) if index is None else self.position(index)

    def _line_starts(self) -> list[int]:
        if not self._starts:
            self._starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        return self._starts


_COUNTED = 8
"""Positions counted in the text before a file's line starts are listed: a count scans the
text up to the offset, the list all of it once (some twenty counts' worth)."""


class LoadError(RegisterError):
    """A file that cannot be read as a register document, with where it went wrong."""

    def __init__(self, mark: Mark, code: str, message: str):
        super().__init__(message)
        self.mark, self.code, self.message = mark, code, message

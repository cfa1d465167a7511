"""A file's text at one commit, as verify reads it: lines, and quotes found among them."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ..citations.compare import Kind, comparable, find_quote, quote_form


@dataclass
class _Index:
    """A file's lines in one kind's `comparable` form, for quote searches."""

    joined: str
    """The lines that hold any text, joined by one space: a quote spanning a blank line
    matches here as it does in the cited lines (`comparable` of them joined)."""
    starts: list[int]
    """Where each of those lines starts in `joined`."""
    numbers: list[int]
    """The line number of each of those lines."""

    @classmethod
    def of(cls, lines: list[str], kind: Kind) -> _Index:
        pieces, starts, numbers, position = [], [], [], 0
        for number, line in enumerate(lines, 1):
            text = comparable(line, kind)
            if text:
                starts.append(position)
                numbers.append(number)
                pieces.append(text)
                position += len(text) + 1
        return cls(" ".join(pieces), starts, numbers)

    def line_of(self, offset: int) -> int:
        return self.numbers[bisect.bisect_right(self.starts, offset) - 1]


@dataclass
class FileText:
    """A file's lines at one commit, with an index per file kind for quote searches."""

    lines: list[str]
    _indexes: dict[Kind, _Index] = field(default_factory=dict)

    def find_nearest(self, quote: str, near: int, kind: Kind) -> tuple[int, int] | None:
        """The (first, last) lines of the occurrence of `quote` (as written) nearest to
        line `near`, found by the rule of `kind`."""
        index = self._indexes.get(kind)
        if index is None:
            index = self._indexes[kind] = _Index.of(self.lines, kind)
        found: list[tuple[int, int]] = []
        length = len(quote_form(quote, kind))
        offset = find_quote(index.joined, quote, kind)
        while offset >= 0:
            found.append((index.line_of(offset), index.line_of(offset + length - 1)))
            offset = find_quote(index.joined, quote, kind, offset + 1)
        return min(found, key=lambda span: abs(span[0] - near), default=None)

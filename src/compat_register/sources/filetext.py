"""A file's text at one commit, as verify reads it: lines, and quotes found among them."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ..citations.compare import (
    Kind,
    comparable,
    find_quote,
    omits_ticks,
    quote_form,
    without_ticks,
)


@dataclass
class _Index:
    """A file's lines in one kind's `comparable` form, for quote searches."""

    joined: str
    """The lines holding any text, joined by one space (a quote may span a blank line)."""
    starts: list[int]  # where each of those lines starts in `joined`
    numbers: list[int]  # and its line number

    @classmethod
    def of(cls, lines: list[str], kind: Kind, ticks: bool = True) -> _Index:
        """The index of `lines` by the rule of `kind`; without backticks unless `ticks`."""
        pieces, starts, numbers, position = [], [], [], 0
        for number, line in enumerate(lines, 1):
            text = comparable(line, kind) if ticks else without_ticks(comparable(line, kind))
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
    _indexes: dict[tuple[Kind, bool], _Index] = field(default_factory=dict)

    def find_nearest(self, quote: str, near: int, kind: Kind) -> tuple[int, int] | None:
        """The (first, last) lines of the occurrence of `quote` nearest line `near`, by the
        rule of `kind` (and without backticks when it may omit them: `omits_ticks`)."""
        found = self._found(quote, kind, True)
        if omits_ticks(quote, kind):
            found.extend(self._found(quote, kind, False))
        return min(found, key=lambda span: abs(span[0] - near), default=None)

    def _found(self, quote: str, kind: Kind, ticks: bool) -> list[tuple[int, int]]:
        """The (first, last) lines of every occurrence of `quote` in one index."""
        index = self._indexes.get((kind, ticks))
        if index is None:
            index = self._indexes[kind, ticks] = _Index.of(self.lines, kind, ticks)
        found: list[tuple[int, int]] = []
        length = len(quote_form(quote, kind))
        offset = find_quote(index.joined, quote, kind)
        while offset >= 0:
            found.append((index.line_of(offset), index.line_of(offset + length - 1)))
            offset = find_quote(index.joined, quote, kind, offset + 1)
        return found

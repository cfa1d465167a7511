"""A file's text at one commit, as verify reads it: lines, and quotes found among them."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from ..citations.syntax import normalise


@dataclass
class FileText:
    """A file's lines at one commit, with a normalised copy for quote searches."""

    lines: list[str]
    _joined: str = ""
    """The normalised lines that hold any text, joined by one space: a quote spanning a
    blank line matches here as it does in the cited lines (`normalise` of them joined)."""
    _starts: list[int] = field(default_factory=list)
    """Where each of those lines starts in `_joined`."""
    _numbers: list[int] = field(default_factory=list)
    """The line number of each of those lines."""
    _indexed: bool = False

    def find_nearest(self, quote: str, near: int) -> tuple[int, int] | None:
        """The (first, last) lines of the occurrence of `quote` nearest to line `near`."""
        self._index()
        found: list[tuple[int, int]] = []
        offset = self._joined.find(quote)
        while offset >= 0:
            first = self._numbers[bisect.bisect_right(self._starts, offset) - 1]
            last = self._numbers[bisect.bisect_right(self._starts, offset + len(quote) - 1) - 1]
            found.append((first, last))
            offset = self._joined.find(quote, offset + 1)
        return min(found, key=lambda span: abs(span[0] - near), default=None)

    def _index(self) -> None:
        if self._indexed:
            return
        pieces, position = [], 0
        for number, line in enumerate(self.lines, 1):
            text = normalise(line)
            if text:
                self._starts.append(position)
                self._numbers.append(number)
                pieces.append(text)
                position += len(text) + 1
        self._joined = " ".join(pieces)
        self._indexed = True

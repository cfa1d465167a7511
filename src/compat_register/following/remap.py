"""Where a cited line range went when its file changed: pure functions over diff hunks
(`diffs.Hunk`): carried (perhaps shifted), changed (edited, or lines inserted between), or
gone (every line deleted); `moves` reads what a changed or gone range became."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import accumulate, takewhile
from typing import NamedTuple

from ..sources.diffs import Hunk

KINDS = ("carried", "re-anchored", "changed", "gone")
"""What moving a pin did to a citation, from harmless to lost."""


class Mapped(NamedTuple):
    """A range after the move: its kind and its new lines (None when gone)."""

    kind: str
    lines: tuple[int, int] | None


def remap(start: int, end: int, hunks: Sequence[Hunk]) -> Mapped:
    """Map lines `start..end` of the old file through `hunks` to the new file."""
    return Remap(hunks).map(start, end)


class Remap:
    """One file's hunks (in git's order), indexed to map each range in O(log hunks)."""

    def __init__(self, hunks: Sequence[Hunk]) -> None:
        self.hunks = list(hunks)
        # A hunk lies above a line when its last old line (an insertion's: the line before)
        # is before it.
        self._last = [os if oc == 0 else os + oc - 1 for os, oc, _, _ in self.hunks]
        self._shift = list(accumulate((nc - oc for _, oc, _, nc in self.hunks), initial=0))

    def map(self, start: int, end: int) -> Mapped:
        # an insertion after the range's last line does not touch it
        if not any(oc or os < end for os, oc, _, _ in self._from(start, end)):
            shift = self._shift[bisect_left(self._last, start)]
            return Mapped("carried" if shift == 0 else "re-anchored", (start + shift, end + shift))
        first, last = self._new(start)[0], self._new(end)[1]
        if last < first:
            return Mapped("gone", None)
        return Mapped("changed", (first, last))

    def borders(self, start: int, end: int) -> list[Hunk]:
        """The hunks right above or right below old lines `start..end` (not inside them)."""
        found = []
        for i in range(bisect_left(self._last, start - 1), len(self.hunks)):
            hunk = self.hunks[i]
            os, oc, _, _ = hunk
            if os > end + 1:
                break
            if oc == 0 and start - 1 <= os <= end or oc and os <= end + 1:
                found.append(hunk)
        return found

    def same_offset(self, line: int) -> int | None:
        """The new line at old `line`'s offset in the hunk that replaced it, if any."""
        hunk = self._containing(line)
        if hunk is None or line - hunk[0] >= hunk[3]:
            return None
        return hunk[2] + line - hunk[0]

    def gap(self, line: int) -> tuple[int, int, int] | None:
        """For an old `line` a hunk deleted: the first and last old lines it deleted and the
        new line after them."""
        hunk = self._containing(line)
        if hunk is None:
            return None
        return hunk[0], hunk[0] + hunk[1] - 1, self._new(line)[0]

    def removes(self, start: int, end: int) -> bool:
        """Whether a hunk deleted or replaced any of old lines `start..end`."""
        return any(oc for _, oc, _, _ in self._from(start, end))

    def _from(self, start: int, end: int) -> Iterator[Hunk]:
        """The hunks not wholly above old line `start` that start by old line `end`."""
        hunks = (self.hunks[i] for i in range(bisect_left(self._last, start), len(self.hunks)))
        return takewhile(lambda hunk: hunk[0] <= end, hunks)

    def _containing(self, line: int) -> Hunk | None:
        i = bisect_left(self._last, line)
        if i < len(self.hunks):
            hunk = self.hunks[i]
            if hunk[1] and hunk[0] <= line:
                return hunk
        return None

    def _new(self, line: int) -> tuple[int, int]:
        """The first and last new lines put in an old line's place."""
        hunk = self._containing(line)
        if hunk is None:
            new = line + self._shift[bisect_left(self._last, line)]
            return new, new
        return (hunk[2], hunk[2] + hunk[3] - 1) if hunk[3] else (hunk[2] + 1, hunk[2])

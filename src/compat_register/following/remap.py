"""Where a cited line range went when its file changed: pure functions over diff hunks.

A hunk is what `git diff --unified=0` prints, `(old_start, old_count, new_start, new_count)`;
a side with count 0 starts at the line *before* the gap (0: before the first line). A range
no hunk touches is carried over (perhaps shifted); one whose lines were edited, or had lines
inserted between them, is changed; one whose every line was deleted with nothing in its
place is gone. A changed or gone block that reappears whole among the added lines was moved.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..citations.compare import Kind, comparable
from ..sources.diffs import Hunk

KINDS = ("carried", "re-anchored", "changed", "gone")
"""What moving a pin did to a citation, from harmless to lost."""


@dataclass(frozen=True)
class Mapped:
    """A range after the move: its kind and its new lines (None when gone)."""

    kind: str
    lines: tuple[int, int] | None


def remap(start: int, end: int, hunks: Sequence[Hunk]) -> Mapped:
    """Map lines `start..end` of the old file through `hunks` to the new file."""
    if not any(_touches(hunk, start, end) for hunk in hunks):
        shift = sum(nc - oc for os, oc, _, nc in hunks if _before(os, oc, start))
        lines = (start + shift, end + shift)
        return Mapped("carried" if shift == 0 else "re-anchored", lines)
    first, last = _low(start, hunks), _high(end, hunks)
    if last < first:
        return Mapped("gone", None)
    return Mapped("changed", (first, last))


def _before(old_start: int, old_count: int, line: int) -> bool:
    """Whether a hunk lies wholly above `line` (an insertion after line `line` does not)."""
    return (old_start if old_count == 0 else old_start + old_count - 1) < line


def _touches(hunk: Hunk, start: int, end: int) -> bool:
    os, oc, _, _ = hunk
    if oc == 0:  # an insertion after line `os`: inside the range unless after its last line
        return start <= os < end
    return os <= end and os + oc - 1 >= start


def _containing(line: int, hunks: Sequence[Hunk]) -> Hunk | None:
    return next((h for h in hunks if h[1] and h[0] <= line < h[0] + h[1]), None)


def _low(line: int, hunks: Sequence[Hunk]) -> int:
    """The new line where an old line's range may start: the first line put in its place."""
    hunk = _containing(line, hunks)
    if hunk is None:
        return line + sum(nc - oc for os, oc, _, nc in hunks if _before(os, oc, line))
    return hunk[2] if hunk[3] else hunk[2] + 1


def _high(line: int, hunks: Sequence[Hunk]) -> int:
    """The new line where an old line's range may end: the last line put in its place."""
    hunk = _containing(line, hunks)
    if hunk is None:
        return line + sum(nc - oc for os, oc, _, nc in hunks if _before(os, oc, line))
    return hunk[2] + hunk[3] - 1 if hunk[3] else hunk[2]


def find_moved(
    block: Sequence[str], new_lines: Sequence[str], hunks: Sequence[Hunk], kind: Kind
) -> tuple[int, int] | None:
    """Where `block` (the old cited lines) reappears whole inside one added run of lines,
    each line compared by the rule of `kind` (`compare.comparable`).

    Only added lines are searched, so an identical block that was there all along is not
    taken for the moved one; an empty block, or one found twice, is not placed at all.
    """
    wanted = [comparable(line, kind) for line in block]
    if not any(wanted):
        return None
    found: list[tuple[int, int]] = []
    for _, _, new_start, new_count in hunks:
        added = new_lines[new_start - 1 : new_start - 1 + new_count]
        added = [comparable(line, kind) for line in added]
        for offset in range(len(added) - len(wanted) + 1):
            if added[offset : offset + len(wanted)] == wanted:
                found.append((new_start + offset, new_start + offset + len(wanted) - 1))
    return found[0] if len(found) == 1 else None

"""`remap`: a cited line range through `git diff --unified=0` hunks (pure, no git)."""

from __future__ import annotations

import random

import pytest

from compat_register.following.remap import Mapped, remap


@pytest.mark.parametrize(
    ("start", "end", "hunks", "expected"),
    [
        (3, 5, [], Mapped("carried", (3, 5))),
        # three lines inserted above line 1
        (3, 5, [(0, 0, 1, 3)], Mapped("re-anchored", (6, 8))),
        # inserted right after the range, or right before it
        (3, 5, [(5, 0, 6, 2)], Mapped("carried", (3, 5))),
        (3, 5, [(2, 0, 3, 2)], Mapped("re-anchored", (5, 7))),
        # two lines deleted above, one replaced by three below
        (10, 10, [(2, 2, 1, 0), (20, 1, 19, 3)], Mapped("re-anchored", (8, 8))),
        # a line inserted inside the range: changed, and the range grows
        (3, 5, [(3, 0, 4, 1)], Mapped("changed", (3, 6))),
        # a cited line edited in place
        (4, 4, [(4, 1, 4, 1)], Mapped("changed", (4, 4))),
        (3, 5, [(0, 0, 1, 1), (4, 1, 5, 1)], Mapped("changed", (4, 6))),
        # the whole range deleted, with nothing in its place
        (3, 5, [(2, 5, 1, 0)], Mapped("gone", None)),
        (3, 5, [(3, 3, 2, 0)], Mapped("gone", None)),
        # part of the range deleted: changed, and the range shrinks
        (3, 5, [(4, 1, 3, 0)], Mapped("changed", (3, 4))),
        (3, 5, [(1, 3, 0, 0)], Mapped("changed", (1, 2))),
        # the range replaced by other lines
        (3, 5, [(3, 3, 3, 1)], Mapped("changed", (3, 3))),
    ],
)
def test_remap(
    start: int, end: int, hunks: list[tuple[int, int, int, int]], expected: Mapped
) -> None:
    assert remap(start, end, hunks) == expected


def _reference(start: int, end: int, hunks: list[tuple[int, int, int, int]]) -> Mapped:
    """The mapping written out hunk by hunk (as remap was before it was indexed)."""

    def before(os: int, oc: int, line: int) -> bool:
        return (os if oc == 0 else os + oc - 1) < line

    def touches(os: int, oc: int) -> bool:
        return start <= os < end if oc == 0 else os <= end and os + oc - 1 >= start

    def shifted(line: int) -> int:
        return line + sum(nc - oc for os, oc, _, nc in hunks if before(os, oc, line))

    def containing(line: int) -> tuple[int, int, int, int] | None:
        return next((h for h in hunks if h[1] and h[0] <= line < h[0] + h[1]), None)

    if not any(touches(os, oc) for os, oc, _, _ in hunks):
        lines = (shifted(start), shifted(end))
        return Mapped("carried" if lines == (start, end) else "re-anchored", lines)
    low, high = containing(start), containing(end)
    first = shifted(start) if low is None else (low[2] if low[3] else low[2] + 1)
    last = shifted(end) if high is None else (high[2] + high[3] - 1 if high[3] else high[2])
    return Mapped("gone", None) if last < first else Mapped("changed", (first, last))


def _random_hunks(rng: random.Random) -> list[tuple[int, int, int, int]]:
    hunks, old, new = [], 0, 0
    while old < 60:
        gap = rng.randrange(0, 6)
        old_count, new_count = rng.randrange(0, 4), rng.randrange(0, 4)
        if old_count == new_count == 0:
            continue
        old, new = old + gap, new + gap
        os = old if old_count == 0 else old + 1
        ns = new if new_count == 0 else new + 1
        hunks.append((os, old_count, ns, new_count))
        old, new = old + old_count, new + new_count
    return hunks


def test_indexed_remap_agrees_with_the_hunk_by_hunk_mapping() -> None:
    rng = random.Random(18)
    for _ in range(300):
        hunks = _random_hunks(rng)
        start = rng.randrange(1, 60)
        end = start + rng.randrange(0, 5)
        assert remap(start, end, hunks) == _reference(start, end, hunks), (start, end, hunks)

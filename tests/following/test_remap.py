"""`remap`: a cited line range through `git diff --unified=0` hunks (pure, no git)."""

from __future__ import annotations

import pytest

from compat_register.following.remap import Mapped, find_moved, remap


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


NEW = ["a", "func f() {", "\treturn 1", "}", "b", "func f() {", "  return 1", "}"]


def test_find_moved_searches_added_lines_only() -> None:
    block = ["func f() {", "\treturn 1", "}"]
    # lines 2-4 were there before (not added); 6-8 were added: the move went there
    assert find_moved(block, NEW, [(9, 3, 5, 4)], "code") == (6, 8)
    # both copies added: ambiguous, so no answer
    assert find_moved(block, NEW, [(0, 0, 1, 8)], "code") is None
    assert find_moved(block, NEW, [(9, 0, 8, 0)], "code") is None


def test_find_moved_never_places_blank_lines() -> None:
    assert find_moved(["", "  "], ["x", "", "  "], [(0, 0, 1, 3)], "code") is None

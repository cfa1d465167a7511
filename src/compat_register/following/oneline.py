"""No move puts two citations on one line they did not share before: at most one of them
went there, and when nothing tells which, both give it up. Within one file
(`one_line_rule`), and across files once every file took the step (`settle`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..model.notation import lines_text
from .moves import Decision, Lines, overlap
from .track import Track

Place = tuple[str, int, int]  # (path, first line, last line)


def one_line_rule(
    before: Sequence[Lines],
    after: Sequence[Lines | None],
    placed: Sequence[bool],
    scores: Sequence[float],
) -> list[int]:
    """Which citations of one file give up the place a move or best match gave them: of two
    newly sharing a line, the placed one, else the lower score, else both."""
    order = sorted(range(len(after)), key=lambda i: after[i] or (0, 0))
    losers: set[int] = set()
    for a_pos, a in enumerate(order):
        if after[a] is None or a in losers:
            continue
        for b in order[a_pos + 1 :]:
            lines_a, lines_b = after[a], after[b]
            if lines_b is None or b in losers:
                continue
            if lines_b[0] > lines_a[1]:  # type: ignore[index]
                break
            if overlap(before[a], before[b]) or not (placed[a] or placed[b]):
                continue
            lost = _losers(a, b, placed, scores)
            losers.update(lost)
            if a in lost:
                break
    return sorted(losers)


def _losers(a: int, b: int, placed: Sequence[bool], scores: Sequence[float]) -> tuple[int, ...]:
    if placed[a] != placed[b]:
        return (a,) if placed[a] else (b,)
    if scores[a] != scores[b]:
        return (a,) if scores[a] < scores[b] else (b,)
    return (a, b)  # nothing tells which of the two went there


class Crossing:
    """A track's lines found in another file (`found`), placed once the step is done, and
    what its own file said (`instead`, at `path`)."""

    __slots__ = ("track", "found", "instead", "path", "deleted", "before")

    def __init__(
        self, track: Track, found: Decision, instead: Decision, path: str, deleted: bool = False
    ) -> None:
        assert track.lines is not None and found.path is not None
        self.track, self.found, self.instead, self.path = track, found, instead, path
        self.deleted = deleted
        self.before = (track.path, *track.lines)


def settle(crossings: Sequence[Crossing], others: Sequence[Track], sha: str) -> None:
    """Place each crossing's track at step `sha`, bar those landing on lines another track
    (`others`) or crossing holds: those keep their own file's word, flagged."""
    moving = {c.track for c in crossings}  # a Track is equal only to itself
    staying = [(t.path, *t.lines) for t in others if t.lines is not None and t not in moving]
    moves = [(c.before, (c.found.path or "", *(c.found.lines or (0, 0)))) for c in crossings]
    losers = crossing_losers(moves, staying)
    for i, crossing in enumerate(crossings):
        found, track = crossing.found, crossing.track
        if i in losers:
            assert found.path is not None and found.lines is not None
            where = f"{found.path} ({lines_text(*found.lines)})"
            note = f"its text was added to {where}, where other cited lines went: not taken"
            found = crossing.instead.refused(note, ("ambiguous",), ((found.path, *found.lines),))
            track.file_deleted = crossing.deleted
        track.take(found, crossing.path, sha)


def crossing_losers(moves: Sequence[tuple[Place, Place]], staying: Sequence[Place]) -> set[int]:
    """Which of a step's moves into other files (`(before, after)`) give up their place: one
    landing on `staying` lines, both of two newly sharing a line."""
    held: dict[str, list[Place]] = {}
    for place in staying:
        held.setdefault(place[0], []).append(place)
    losers = {
        i for i, (_, to) in enumerate(moves) if any(_meet(to, p) for p in held.get(to[0], ()))
    }
    for i, (was_i, to_i) in enumerate(moves):
        for j in range(i + 1, len(moves)):
            was_j, to_j = moves[j]
            if _meet(to_i, to_j) and not _meet(was_i, was_j):
                losers.update((i, j))
    return losers


def _meet(a: Place, b: Place) -> bool:
    return a[0] == b[0] and overlap((a[1], a[2]), (b[1], b[2]))

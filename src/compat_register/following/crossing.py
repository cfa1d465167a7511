"""A step's moves into other files: held back until every file took the step, then placed,
or refused when they would put two citations on one line (`oneline.crossing_losers`).

Lines found in another file (a split file, a body moved into a new file) are placed by
their text alone, and two cited copies of one text (two functions' equal bodies) would be
placed on the one copy that went there. A refused move keeps what the track's own file
said of it, flagged `ambiguous`, with the place as a candidate.
"""

from __future__ import annotations

from collections.abc import Sequence

from .moves import Decision
from .oneline import crossing_losers
from .track import Track


class Crossing:
    """A track's lines found in another file in one step, not yet placed there: where they
    go (`found`), what the track's own file said (`instead`, with `path` its path after the
    step), and where they were."""

    __slots__ = ("track", "found", "instead", "path", "deleted", "before")

    def __init__(
        self, track: Track, found: Decision, instead: Decision, path: str, deleted: bool = False
    ) -> None:
        assert track.lines is not None and found.path is not None
        self.track, self.found, self.instead, self.path = track, found, instead, path
        self.deleted = deleted
        """Whether the track's own file was deleted in the step."""
        self.before = (track.path, *track.lines)


def settle(crossings: Sequence[Crossing], others: Sequence[Track], sha: str) -> None:
    """Place each crossing's track at step `sha`, bar those whose new lines a citation holds
    there after the step without such a move (`others` hold every other track), or another
    crossing took too: those take `refused`."""
    moving = {c.track for c in crossings}  # a Track is equal only to itself
    staying = [(t.path, *t.lines) for t in others if t.lines is not None and t not in moving]
    moves = [(c.before, (c.found.path or "", *(c.found.lines or (0, 0)))) for c in crossings]
    losers = crossing_losers(moves, staying)
    for i, crossing in enumerate(crossings):
        if i in losers:
            crossing.track.file_deleted = crossing.deleted
            crossing.track.take(refused(crossing), crossing.path, sha)
        else:
            crossing.track.take(crossing.found, crossing.path, sha)


def refused(crossing: Crossing) -> Decision:
    """What a track keeps when the place its lines were found at in another file is taken:
    its own file's word, flagged, the place a candidate."""
    found, instead = crossing.found, crossing.instead
    assert found.path is not None and found.lines is not None
    first, last = found.lines
    span = str(first) if first == last else f"{first}-{last}"
    note = f"its text was added to {found.path} ({span}), where other cited lines went: not taken"
    return Decision(instead.kind, instead.lines, "; ".join(filter(None, (instead.note, note))),
                    flags=tuple(dict.fromkeys((*instead.flags, "ambiguous"))),
                    candidates=(*instead.candidates, (found.path, *found.lines)))  # fmt: skip

"""Register prose as read once (`reading.segments`): its text, and the segments every later
stage acts on without scanning the text again; what no segment covers is plain text."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from .positions import Path_

SegmentKind = Literal["code", "link", "citation", "reference", "range", "pattern"]


class Segment(NamedTuple):
    """One part of a prose text that is not plain text, by its character span: `code`; a
    `link` (`url`, `inner`: its text's start and end, its destination's start); a `citation`
    (`first`: alias, `token`, `occurrence`); a `reference` or `range` (`first`, `last`); a
    links `pattern`'s match (`url`)."""

    kind: SegmentKind
    start: int
    end: int
    first: str = ""
    last: str = ""
    token: str = ""
    occurrence: int = 0
    url: str = ""
    inner: tuple[int, ...] = ()


class Prose(str):
    """A prose field's text (a `str`, so stages that read text read it as before), with its
    segments in order of their start and the file and scalar holding it. The segments are
    kept as plain tuples, which the collector stops tracking (tens of thousands of named
    tuples it would walk on every full pass), and made `Segment`s when read."""

    __slots__ = ("_spans", "own_line", "file", "field")
    _spans: tuple[tuple[Any, ...], ...]
    own_line: Prose | None
    """The text as read on a line of its own, when it opens with a fenced block there."""
    file: str
    field: Path_

    def __new__(
        cls,
        text: str,
        segments: tuple[Segment, ...] = (),
        own_line: Prose | None = None,
        file: str = "",
        field: Path_ = (),
    ) -> Prose:
        prose = super().__new__(cls, text)
        prose._spans = tuple(map(tuple, segments))
        prose.own_line, prose.file, prose.field = own_line, file, field
        return prose

    @property
    def segments(self) -> tuple[Segment, ...]:
        return tuple(map(Segment._make, self._spans))

    def of_kind(self, *kinds: SegmentKind) -> list[Segment]:
        return [Segment._make(span) for span in self._spans if span[0] in kinds]

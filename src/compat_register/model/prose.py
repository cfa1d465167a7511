"""Register prose as read once: its text, and the segments of it every later stage acts on.

`reading.segments` parses each prose field when its register is built; `checking` resolves
the references and ranges among its segments, the in-prose citations are built from its
citation segments, and the site renders the segments (`site.markdown.prose`) without
scanning the text again. What no segment covers is plain text.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .positions import Path_

SegmentKind = Literal["code", "link", "citation", "reference", "range", "pattern"]


class Segment(NamedTuple):
    """One part of a prose text that is not plain text, by its character span.

    - `code`: a code span, fenced block or indented block, as Python-Markdown reads it
      (`citations.mdcode`).
    - `link`: an inline link or an autolink to http(s) as written (`url`: its destination;
      `inner`: where its text starts and ends and its destination starts). Its text may
      hold references and citations of its own; the site decides whether it stays a link.
    - `citation`: `[ALIAS:]PATH:LINES` (`first`: the alias, `token`: `PATH:LINES`, and which
      `occurrence` of the token in the text it is, counted as `Document.find` counts it).
    - `reference`, `range`: an entry ID or `ID..ID` (`first`, `last`).
    - `pattern`: a match of one of sources.yaml's `links` patterns (`url`: where it links).

    A named tuple: a large set has tens of thousands.
    """

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
    """A prose field's text (it is that string), with its segments and where it is written.

    A `str` so that every stage that reads the text as text (export, history, the plain
    page) reads it as before; the stages that need its parts read `segments`.
    """

    segments: tuple[Segment, ...]
    """In order of their start; a `link`'s text may hold others."""
    own_line: Prose | None
    """The text as read on a line of its own, where it opens with a fenced block there (after
    `- **What.** ` a fence is no fence, so the site puts such a field on its own line)."""
    file: str
    field: Path_
    """The file and the scalar holding the text: with a citation segment's token and
    occurrence, the key of the citation built from it (`Citation.key`)."""

    def __new__(
        cls,
        text: str,
        segments: tuple[Segment, ...] = (),
        own_line: Prose | None = None,
        file: str = "",
        field: Path_ = (),
    ) -> Prose:
        prose = super().__new__(cls, text)
        prose.segments, prose.own_line, prose.file, prose.field = segments, own_line, file, field
        return prose

    def of_kind(self, *kinds: SegmentKind) -> list[Segment]:
        return [segment for segment in self.segments if segment.kind in kinds]

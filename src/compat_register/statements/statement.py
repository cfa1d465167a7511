"""A normative statement: one sentence of a specification file holding a BCP 14 keyword."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Statement:
    """A sentence holding a keyword, where it stands in its file at one commit."""

    path: str
    """The file's full path in its repository."""
    line: int
    end: int
    """Its first and last line (a lead-in ending in `:` takes the list after it)."""
    keyword: str
    """The first keyword in it (`MUST NOT`)."""
    text: str
    """Its plain text, spaced."""
    heading: str = ""
    """The heading it stands under; in a schema, the declaration its comment documents."""
    anchor: str = ""
    """That heading's anchor on the published page, without `#`."""
    context: str = ""
    """The lead-in sentence of each list it stands in (`MCP Clients that desire refresh
    tokens:`), outermost first: the subject its text may leave out, on other lines."""

    def overlaps(self, start: int, end: int) -> bool:
        """Whether lines `start`..`end` share a line with this statement."""
        return start <= self.end and self.line <= end

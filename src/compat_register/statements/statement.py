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
    """Its first and last line (1-based): a sentence may cross line breaks, and a lead-in
    ending in a colon takes the list that follows it (`Clients MUST:` then items)."""
    keyword: str
    """The first keyword in it, spaced as RFC 2119 writes it (`MUST NOT`)."""
    text: str
    """Its plain text: markup dropped (a link as its text, a code span as its content),
    each run of whitespace one space."""
    heading: str = ""
    """The heading it stands under ("" before the first); in a schema, the declaration
    its doc comment documents (`InitializeResult.protocolVersion`)."""
    anchor: str = ""
    """That heading's anchor on the published page (`#` not included)."""

    def overlaps(self, start: int, end: int) -> bool:
        """Whether lines `start`..`end` share a line with this statement."""
        return start <= self.end and self.line <= end

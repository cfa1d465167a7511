"""A citation as written and resolved, and the key that names it across stages (below
`registers`, `concepts` and `exclusions`, which all hold citations)."""

from __future__ import annotations

from typing import NamedTuple

from .notation import lines_text
from .positions import Path_, Where


class CitationKey(NamedTuple):
    """What names one citation whatever object holds it (never identity: a citation read
    again is the same one): its file, the scalar holding it, which occurrence of its token."""

    file: str
    field: Path_
    token: str
    occurrence: int


class Citation(NamedTuple):
    """One citation, listed under `sources:` or found in prose, as written (a named tuple: a
    frozen dataclass costs five times as much on tens of thousands)."""

    text: str
    """As written (a mapping form rendered compact)."""
    alias: str | None
    """The `ALIAS:` prefix or the mapping's `source`, if any."""
    path: str
    start: int
    end: int
    quote: str | None
    in_prose: bool
    register: str
    entry: str
    file: str
    """The register file it is written in, and where (`where`), 1-based: three plain
    fields, not a `Where` each, which the collector would walk on tens of thousands."""
    line: int
    col: int
    field: Path_
    """The scalar holding it in its document."""
    token: str
    """The `PATH:LINES` text inside that scalar that a fix rewrites."""
    occurrence: int = 0
    """Which occurrence of `token` in the scalar, as `Document.find` counts."""
    source: str | None = None
    """The resolved alias and full path in its repository; None when unresolved."""
    repo_path: str | None = None

    @property
    def where(self) -> Where:
        return Where(self.file, self.line, self.col)

    @property
    def lines_text(self) -> str:
        return lines_text(self.start, self.end)

    def resolved(self, source: str, repo_path: str) -> Citation:
        """This citation with its source known (`_replace`, without its cost)."""
        return Citation(*self[:15], source, repo_path)

    @property
    def key(self) -> CitationKey:
        """This citation's stable key (two in one field differ in token or occurrence)."""
        return CitationKey(self.file, self.field, self.token, self.occurrence)

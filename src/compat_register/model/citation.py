"""A citation as written and resolved, and the key that names it across stages.

Its own module, below `registers`, `concepts` and `exclusions`, which all hold citations.
"""

from __future__ import annotations

from typing import NamedTuple

from .notation import lines_text
from .positions import Path_, Where


class CitationKey(NamedTuple):
    """What names one citation whatever object holds it: its file, the scalar holding it,
    and which occurrence of its token. Stages key what they learn by it, never by identity,
    so a citation read again or copied is still the same citation."""

    file: str
    field: Path_
    token: str
    occurrence: int


class Citation(NamedTuple):
    """One citation, listed under `sources:` or found in prose, as written. Immutable
    (`resolved` gives a resolved copy); a named tuple, as a frozen dataclass's `__init__`
    costs five times as much on tens of thousands of citations."""

    text: str
    """The citation as written (the compact form; mapping forms are rendered compact)."""
    alias: str | None
    """The `ALIAS:` prefix or the mapping's `source`, if any."""
    path: str
    """The path as written (unprefixed paths are relative to their claim's `under`)."""
    start: int
    end: int
    quote: str | None
    in_prose: bool
    register: str
    entry: str
    where: Where
    field: Path_
    """Where the scalar holding the citation sits in its document (for `register fix`)."""
    token: str
    """The `PATH:LINES` text inside that scalar that a fix rewrites."""
    occurrence: int = 0
    """Which occurrence of `token` in the scalar this is, counted as plain text the way
    `Document.find` counts it (prose may repeat a citation, or hold `x.go:50` before it)."""
    source: str | None = None
    """Resolved alias, once claims are applied; None when unresolved."""
    repo_path: str | None = None
    """The full path in the source's repository, once resolved."""

    @property
    def lines_text(self) -> str:
        return lines_text(self.start, self.end)

    def resolved(self, source: str, repo_path: str) -> Citation:
        """This citation with its source known (`_replace`, without its cost)."""
        return Citation(*self[:13], source, repo_path)

    @property
    def key(self) -> CitationKey:
        """This citation's stable key (one per citation: a listed one is the only one in its
        field, and two in one prose field differ in token or in occurrence)."""
        return CitationKey(self.where.file, self.field, self.token, self.occurrence)

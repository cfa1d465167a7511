"""What a project covers of a specification (`coverage.scope` in sources.yaml): globs of
pages, each with an optional heading anchor; every other statement is out of scope, for
the one reason given. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from .claims import glob_matches


@dataclass(frozen=True)
class Scope:
    """The pages and headings a project covers, and why it leaves the rest out."""

    covers: tuple[str, ...]
    """`GLOB` (a page) or `GLOB#ANCHOR` (its statements under that heading; the anchor a
    glob too), of full paths in the source's repository."""
    reason: str

    def holds(self, path: str, anchor: str) -> bool:
        """Whether a statement of the page at `path`, under the heading `anchor`, is in scope."""
        return any(_matches(pattern, path, anchor) for pattern in self.covers)


def _matches(pattern: str, path: str, anchor: str) -> bool:
    page, _, heading = pattern.partition("#")
    return glob_matches(page, path) and (not heading or glob_matches(heading, anchor))

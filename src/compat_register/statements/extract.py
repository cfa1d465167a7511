"""Which reader a file's statements come from, by its kind."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from ..citations.compare import file_kind
from . import markdownpages, typescript
from .statement import Statement

_TYPESCRIPT = frozenset({".ts", ".mts", ".cts"})


def reader(path: str, markdown_globs: Sequence[str] = ()) -> str | None:
    """Which reader takes the file at `path`: `typescript` (a schema), `markdown`, or None."""
    if posixpath.splitext(path)[1].lower() in _TYPESCRIPT:
        return "typescript"
    return "markdown" if file_kind(path, markdown_globs) == "markdown" else None


def statements(
    path: str,
    text: str,
    markdown_globs: Sequence[str] = (),
    readings: markdownpages.Readings | None = None,
) -> list[Statement]:
    """The statements of one file, in line order; `readings`: one run's paragraphs read."""
    kind = reader(path, markdown_globs)
    if kind == "typescript":
        return typescript.statements(path, text, readings)
    return markdownpages.statements(path, text, readings=readings) if kind else []

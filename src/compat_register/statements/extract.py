"""Which reader a file's statements come from, by its kind."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from ..citations.compare import file_kind
from . import markdownpages, typescript
from .statement import Statement

TYPESCRIPT_SUFFIXES = frozenset({".ts", ".mts", ".cts"})


def readable(path: str, markdown_globs: Sequence[str] = ()) -> bool:
    """Whether the file at `path` is a Markdown page or a TypeScript schema."""
    return _suffix(path) in TYPESCRIPT_SUFFIXES or file_kind(path, markdown_globs) == "markdown"


def statements(
    path: str,
    text: str,
    markdown_globs: Sequence[str] = (),
    readings: markdownpages.Readings | None = None,
) -> list[Statement]:
    """The statements of one file, in line order; `readings`: one run's paragraphs read."""
    if _suffix(path) in TYPESCRIPT_SUFFIXES:
        return typescript.statements(path, text, readings)
    if file_kind(path, markdown_globs) == "markdown":
        return markdownpages.statements(path, text, readings=readings)
    return []


def _suffix(path: str) -> str:
    return posixpath.splitext(path)[1].lower()

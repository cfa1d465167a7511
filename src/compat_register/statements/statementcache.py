"""Each file's statements kept by blob id and reader under `.register/cache/` (parsing
costs thirty times reading from git); a cache not of `SHAPE` is started afresh."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import astuple
from pathlib import Path
from typing import Any

from ..storage import makers, shape
from .markdownpages import Item
from .statement import Statement

VERSION = 2
"""Raised whenever a reader's rule changes: an older cache is ignored."""
MADE_BY = makers.made_by(VERSION, "compat-register", "markdown-it-py", "mdit-py-plugins")
"""The key of the whole file: its format, and the tool and Markdown parser that read."""

_INT, _TEXT = {"type": "integer"}, {"type": "string"}


def _row(*items: dict[str, str]) -> dict[str, Any]:
    return {"type": "array", "items": list(items), "minItems": len(items), "maxItems": len(items)}


_ROW = {"anyOf": [_row(_INT, _INT, *[_TEXT] * 5), _row(_INT, _INT, _TEXT, _TEXT)]}
SHAPE = shape.checker(
    shape.record({"made_by": _TEXT, "files": shape.strings({"type": "array", "items": _ROW})})
)
"""What `StatementCache.save` writes: a statement's row or a changelog item's."""


def key(reader: str, blob: str) -> str:
    """The cache key of a blob as read by `reader` (`markdown`, `typescript`, `changelog`)."""
    return f"{reader}:{blob}"


class StatementCache(shape.JsonCache):
    """Statements by text hash, read once and written once."""

    def __init__(self, path: Path | None) -> None:
        super().__init__(path, MADE_BY, SHAPE, ["files"], "the statements cache")
        self.files: dict[str, list[list[Any]]] = self.data["files"]

    def get(self, key: str, path: str, make: Callable[..., Any] = Statement) -> list[Any] | None:
        """The statements (or, with `make=Item`, changelog items) kept for `key`, at `path`."""
        rows = self.files.get(key)
        return None if rows is None else [make(path, *row) for row in rows]

    def put(self, key: str, values: Sequence[Statement | Item]) -> None:
        self.files[key] = [list(astuple(value))[1:] for value in values]  # all but the path

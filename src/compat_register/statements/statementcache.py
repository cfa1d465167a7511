"""What each file holds, kept between runs: one JSON file under `.register/cache/`.

Parsing a page costs some thirty times reading it from git, and a file at a pin never
changes, so its statements are kept by blob id (and reader). A cache that does not read,
or is not of `SHAPE`, is started afresh (`storage.shape`); one that cannot be written
costs the next run time, never the run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..storage import shape
from .changelog import Item
from .statement import Statement

VERSION = 1
"""Raised whenever what a file's statements are changes (a reader's rule): an older cache
is ignored."""
MADE_BY = shape.made_by(VERSION, "compat-register", "markdown-it-py", "mdit-py-plugins")
"""The key of the whole file: its format, and the tool and Markdown parser that read."""

_INT, _TEXT = {"type": "integer"}, {"type": "string"}
_ROW = {
    "anyOf": [
        {
            "type": "array",
            "items": [_INT, _INT, _TEXT, _TEXT, _TEXT, _TEXT],
            "minItems": 6,
            "maxItems": 6,
        },
        {"type": "array", "items": [_INT, _INT, _TEXT, _TEXT], "minItems": 4, "maxItems": 4},
    ]
}
SHAPE = shape.checker(
    shape.record({"made_by": _TEXT, "files": shape.strings({"type": "array", "items": _ROW})})
)
"""What `StatementCache.save` writes: a statement's row or a changelog item's."""


def key(reader: str, blob: str) -> str:
    """The cache key of a file (its blob id) as read by `reader` (`markdown`,
    `typescript`, `changelog`)."""
    return f"{reader}:{blob}"


class StatementCache:
    """Statements by text hash, read once and written once."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.files: dict[str, list[list[Any]]] = {}
        self.dirty = False
        found = shape.read(path, "made_by", MADE_BY, SHAPE) if path else shape.Cached(None)
        self.dropped = found.dropped
        """Why the file there was not used (one line naming it), None when it was."""
        if found.data is not None:
            self.files = found.data["files"]

    def get(self, key: str, path: str) -> list[Statement] | None:
        rows = self.files.get(key)
        return None if rows is None else [Statement(path, *row) for row in rows]

    def put(self, key: str, statements: list[Statement]) -> None:
        self.files[key] = [
            [s.line, s.end, s.keyword, s.text, s.heading, s.anchor] for s in statements
        ]
        self.dirty = True

    def items(self, key: str, path: str) -> list[Item] | None:
        rows = self.files.get(key)
        return None if rows is None else [Item(path, *row) for row in rows]

    def put_items(self, key: str, items: list[Item]) -> None:
        self.files[key] = [[i.line, i.end, i.text, i.heading] for i in items]
        self.dirty = True

    def save(self) -> str | None:
        """Write the cache if it gained anything; a message when that failed."""
        if self.path is None or not self.dirty:
            return None
        data = {"made_by": MADE_BY, "files": self.files}
        failed = shape.write(self.path, data, "the statements cache")
        if failed is None:
            self.dirty = False
        return failed

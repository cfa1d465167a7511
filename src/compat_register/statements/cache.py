"""What each file holds, kept between runs: one JSON file under `.register/cache/`.

Reading a page's statements means parsing it as Markdown, which costs some thirty times
reading it from git; a file at a pin never changes, so its statements are kept by its
blob id (and the reader that read it): a run whose files are all known reads none of
them. A cache that does not read (missing, damaged, from another version) is started
afresh; one that cannot be written costs the next run time, never the run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..storage.atomic import write_all
from ..storage.regular import MAX_BYTES, read_bytes
from .changelog import Item
from .statement import Statement

VERSION = 1
"""Raised whenever what a file's statements are changes (a reader's rule): an older cache
is ignored."""


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
        data = _read(path) if path is not None else None
        if data is not None:
            self.files = data

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
        text = json.dumps({"version": VERSION, "files": self.files}, ensure_ascii=False)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_all([(self.path, text.encode("utf-8"))])
        except OSError as err:
            return f"cannot write {self.path}: {err.strerror or err}"
        self.dirty = False
        return None


def _read(path: Path) -> dict[str, list[list[Any]]] | None:
    try:
        data = json.loads(read_bytes(path, MAX_BYTES))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    files = data.get("files")
    return files if isinstance(files, dict) else None

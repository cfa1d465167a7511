"""The history cache, one JSON file: each diff by its two blob ids and each register blob's
state counts, so a rebuild reads only the blobs of commits it has not seen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..storage import makers, shape

VERSION = 3
"""Raised whenever what a summary or a diff holds changes: an older cache is ignored."""
MADE_BY = makers.made_by(VERSION, "compat-register", "PyYAML")

_TEXT = {"type": "string"}


def _list_of(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


_PROBLEM = shape.record(
    {name: _TEXT for name in ("side", "code", "message")}
    | {"line": {"type": "integer"}, "col": {"type": "integer"}}
)
_FIELDS = shape.strings({"anyOf": [{"enum": ["changed"]}, shape.record({"from": {}, "to": {}})]})
_CITATIONS = {"added": _list_of(_TEXT), "removed": _list_of(_TEXT)} | {
    "moved": _list_of(shape.record({"from": _TEXT, "to": _TEXT}))
}
_DIFF = shape.record(
    {
        "registers": _list_of(
            shape.record(
                {"register": _TEXT, "change": _TEXT},
                {"fields": _FIELDS, "problems": _list_of(_PROBLEM)},
            )
        ),
        "entries": _list_of(
            shape.record(
                {name: _TEXT for name in ("register", "id", "change", "title")}
                | {"fields": _FIELDS, "citations": shape.record(_CITATIONS)}
            )
        ),
        "sources": _list_of(
            shape.record(
                {"alias": _TEXT, "change": _TEXT}
                | {"from": shape.nullable(_TEXT), "to": shape.nullable(_TEXT)}
            )
        ),
        "source_problems": _list_of(_PROBLEM),
    }
)
SHAPE = shape.checker(
    shape.record(
        {
            "made_by": _TEXT,
            "diffs": shape.strings(_DIFF),
            "counts": shape.strings(
                shape.nullable(shape.strings({"type": "integer", "minimum": 0}))
            ),
        }
    )
)
"""What `HistoryCache.save` writes: anything else is not used."""


class HistoryCache:
    """Diffs by `NAME:OLD..NEW` and state counts by blob id (None: it does not load), read
    once; `dropped` says why the file was not used."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        found = shape.read(path, "made_by", MADE_BY, SHAPE) if path else shape.Cached(None)
        self.dropped = found.dropped
        data = found.data or {"diffs": {}, "counts": {}}
        self.diffs: dict[str, dict[str, Any]] = data["diffs"]
        self.counts: dict[str, dict[str, int] | None] = data["counts"]
        self._saved = self._size()

    def _size(self) -> tuple[int, int]:
        return len(self.diffs), len(self.counts)  # entries are only ever added

    def save(self) -> str | None:
        """Write the cache if it gained anything; a message when that failed."""
        if self.path is None or self._size() == self._saved:
            return None
        data = {"made_by": MADE_BY, "diffs": self.diffs, "counts": self.counts}
        failed = shape.write(self.path, data, "the history cache")
        if failed is None:
            self._saved = self._size()
        return failed

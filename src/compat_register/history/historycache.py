"""The history cache, one JSON file keyed by blob ids: the diff of each pair of blobs a
commit changed a file between, and each register blob's state counts, so a rebuild reads
only the blobs of commits it has not seen (`storage.shape` reads and writes it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..storage import shape

VERSION = 3
"""Raised whenever what a summary or a diff holds changes: an older cache is ignored."""
MADE_BY = shape.made_by(VERSION, "compat-register", "PyYAML")
"""The key of the whole file: its format, and the tool and YAML reader that made it."""

_TEXT = {"type": "string"}
_PROBLEM = shape.record(
    {name: _TEXT for name in ("side", "code", "message")}
    | {"line": {"type": "integer"}, "col": {"type": "integer"}}
)
_FIELDS = shape.strings({"anyOf": [{"enum": ["changed"]}, shape.record({"from": {}, "to": {}})]})
_LIST = {"type": "array", "items": _TEXT}
_DIFF = shape.record(
    {
        "registers": {
            "type": "array",
            "items": shape.record(
                {"register": _TEXT, "change": _TEXT},
                {"fields": _FIELDS, "problems": {"type": "array", "items": _PROBLEM}},
            ),
        },
        "entries": {
            "type": "array",
            "items": shape.record(
                {name: _TEXT for name in ("register", "id", "change", "title")}
                | {
                    "fields": _FIELDS,
                    "citations": shape.record(
                        {
                            "added": _LIST,
                            "removed": _LIST,
                            "moved": {
                                "type": "array",
                                "items": shape.record({"from": _TEXT, "to": _TEXT}),
                            },
                        }
                    ),
                }
            ),
        },
        "sources": {
            "type": "array",
            "items": shape.record(
                {"alias": _TEXT, "change": _TEXT}
                | {"from": shape.nullable(_TEXT), "to": shape.nullable(_TEXT)}
            ),
        },
        "source_problems": {"type": "array", "items": _PROBLEM},
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
    """Diffs by `NAME:OLD..NEW` and state counts by blob id, read once and written once."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.diffs: dict[str, dict[str, Any]] = {}
        self.counts: dict[str, dict[str, int] | None] = {}
        """None for a blob that does not load."""
        self.dirty = False
        found = shape.read(path, "made_by", MADE_BY, SHAPE) if path else shape.Cached(None)
        self.dropped = found.dropped
        """Why the file there was not used (one line naming it), None when it was."""
        if found.data is not None:
            self.diffs, self.counts = found.data["diffs"], found.data["counts"]

    def add_diff(self, key: str, data: dict[str, Any]) -> None:
        self.diffs[key] = data
        self.dirty = True

    def add_counts(self, blob: str, counts: dict[str, int] | None) -> None:
        self.counts[blob] = counts
        self.dirty = True

    def save(self) -> str | None:
        """Write the cache if it gained anything; a message when that failed."""
        if self.path is None or not self.dirty:
            return None
        data = {"made_by": MADE_BY, "diffs": self.diffs, "counts": self.counts}
        failed = shape.write(self.path, data, "the history cache")
        if failed is None:
            self.dirty = False
        return failed

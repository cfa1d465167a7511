"""The history cache: one JSON file under `.register/cache/`, keyed by blob ids.

It holds, for each pair of blobs a commit changed a file between, the diff of that pair,
and for each register blob its state counts. A rebuild then asks git only for the log and
reads the blobs of the commits it has not seen. A cache that does not read (missing,
damaged, from another version) is started afresh; one that cannot be written costs the
next build time, never the build.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..storage import jsoncache

VERSION = 3
"""Raised whenever what a summary or a diff holds changes: an older cache is ignored."""


class HistoryCache:
    """Diffs by `NAME:OLD..NEW` and state counts by blob id, read once and written once."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.diffs: dict[str, dict[str, Any]] = {}
        self.counts: dict[str, dict[str, int] | None] = {}
        """None for a blob that does not load."""
        self.dirty = False
        data = _read(path) if path is not None else None
        if data is not None:
            self.diffs, self.counts = data["diffs"], data["counts"]

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
        data = {"version": VERSION, "diffs": self.diffs, "counts": self.counts}
        failed = jsoncache.write(self.path, data, "the history cache")
        if failed is None:
            self.dirty = False
        return failed


def _read(path: Path) -> dict[str, Any] | None:
    data = jsoncache.read(path, "version", VERSION)
    if data is None:
        return None
    if not isinstance(data.get("diffs"), dict) or not isinstance(data.get("counts"), dict):
        return None
    return data

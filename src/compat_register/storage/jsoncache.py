"""A cache kept as one JSON file: read when it is whole and of this version, else ignored.

A cache that does not read (missing, damaged, written by another version or under other
settings) is started afresh; one that cannot be written costs the next run time, never the
run: `write` gives a message instead of raising.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .atomic import write_all
from .regular import MAX_BYTES, read_bytes


def read(path: Path, key: str, expected: Any) -> dict[str, Any] | None:
    """The JSON object at `path` when it reads and its `key` holds `expected` (the version
    or settings it was written under); None otherwise."""
    try:
        data = json.loads(read_bytes(path, MAX_BYTES))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get(key) != expected:
        return None
    return data


def write(path: Path, data: dict[str, Any], what: str) -> str | None:
    """Store `data` at `path` as compact JSON, whole or not at all (the folder made when
    missing); on failure, a message naming `what` (`the history cache`)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_all([(path, text.encode("utf-8"))])
    except OSError as err:
        return f"cannot write {what} {path}: {err.strerror or err}"
    return None

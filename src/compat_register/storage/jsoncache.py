"""A cache as one JSON file, used only when whole, of this version and makers (else made
anew silently) and of its writer's shape (else dropped with a notice); never via a link."""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

from . import shape
from .atomic import write_all
from .regular import MAX_BYTES, read_bytes


class Cached(NamedTuple):
    """A cache file's data when usable, else None; `dropped`: why a file there is not used."""

    data: dict[str, Any] | None
    dropped: str | None = None


def read(path: Path, key: str, expected: Any, valid: shape.Check) -> Cached:
    """The JSON object at `path` when it reads, its `key` holds `expected` (`made_by`) and
    it passes `valid`."""
    try:
        data = shape.parse(read_bytes(path, MAX_BYTES, follow=False))
    except FileNotFoundError:
        return Cached(None)
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        return Cached(None, f"not using {path} ({reason}): it is made anew")
    if isinstance(data, dict) and data.get(key) != expected:
        return Cached(None)
    if not valid(data):
        return Cached(None, f"not using {path} (not the shape this tool writes): it is made anew")
    return Cached(data)


def made_by(version: int, *distributions: str) -> str:
    """A cache's format `version` and that of each distribution whose output it keeps."""
    return " ".join([str(version), *(f"{name}={_version(name)}" for name in distributions)])


def write(path: Path, data: dict[str, Any], what: str) -> str | None:
    """Store `data` at `path` as compact JSON, whole or not at all; on failure, a message
    naming `what` (`the history cache`)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_all([(path, text.encode("utf-8"))])
    except (OSError, UnicodeError) as err:  # UnicodeError: a lone surrogate in a value
        return f"cannot write {what} {path}: {getattr(err, 'strerror', None) or err}"
    return None


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "unknown"

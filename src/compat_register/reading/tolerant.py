"""A loaded value read as the type its field should hold, else as empty.

Building is tolerant (`registerfile`): the schema has already reported a field of the wrong type,
so reading it as empty lets one run report every problem in every file instead of stopping
at the first. Pure.
"""

from __future__ import annotations

from typing import Any

from ..model.positions import Path_
from ..model.registers import Where
from .document import Document


def as_text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def as_opt_text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def key_where_of(doc: Document, path: Path_) -> Where:
    """Where the key of the value at `path` was written."""
    mark = doc.key_mark(path)
    return Where(doc.file, mark.line, mark.col)


def where_of(doc: Document, path: Path_) -> Where:
    """Where the value at `path` was written."""
    mark = doc.mark(path)
    return Where(doc.file, mark.line, mark.col)


def value_at(data: Any, path: Path_) -> Any:
    """The value at `path` of loaded data; None where the path leads nowhere."""
    for part in path:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data

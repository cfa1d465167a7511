"""A loaded value read as the type its field should hold, else as empty: the schema has
reported a wrong type already, so one run reports every problem in every file."""

from __future__ import annotations

from typing import Any

from ..model.positions import Path_


def as_text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def as_opt_text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


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

"""JSON read back from `.register/` (anyone may have written it), used only when it has its
writer's shape (a JSON Schema, compiled once by fastjsonschema); a cache as one JSON file,
used only when whole and of this version and makers, never read through a link."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import fastjsonschema

from .atomic import write_all
from .regular import MAX_BYTES, read_bytes

Check = Callable[[Any], bool]


def checker(schema: dict[str, Any]) -> Check:
    """A yes/no check against `schema` (draft 7), compiled at its first use."""
    draft = {"$schema": "http://json-schema.org/draft-07/schema#", **schema}
    compiled = functools.cache(lambda: fastjsonschema.compile(draft, detailed_exceptions=False))

    def check(data: Any) -> bool:
        try:
            compiled()(data)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    return check


def strings(values: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object of string keys whose values are `values` (any when None)."""
    return {"type": "object", "additionalProperties": values or {}}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [{"type": "null"}, schema]}


def record(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object with these keys (the `required` ones present), and no others."""
    return {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": sorted(required),
        "additionalProperties": False,
    }


def parse(raw: bytes) -> Any:
    """JSON text -> data; ValueError for what is not JSON (not UTF-8, a number of over 4,300
    digits, nesting deeper than Python's parser goes)."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("nested too deeply") from None


class Cached(NamedTuple):
    """A cache file's data when usable, else None; `dropped`: why a file there is not used."""

    data: dict[str, Any] | None
    dropped: str | None = None


def read(path: Path, key: str, expected: Any, valid: Check) -> Cached:
    """The JSON object at `path` when it reads, its `key` holds `expected` (`made_by`) and
    it passes `valid`."""
    try:
        data = parse(read_bytes(path, MAX_BYTES, follow=False))
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

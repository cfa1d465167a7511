"""JSON read back from `.register/` (anyone may have written it), used only when it has its
writer's shape (a JSON Schema, compiled once by fastjsonschema); a cache as one JSON file,
used only when whole and of this version and makers, never read through a link."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

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


def read(path: Path, key: str, expected: Any, valid: Check) -> tuple[Any, str | None]:
    """The JSON object at `path` when it reads, its `key` holds `expected` (`made_by`) and
    it passes `valid`, else None; and why a file there is not used (None: no word)."""
    try:
        data = parse(read_bytes(path, MAX_BYTES, follow=False))
    except FileNotFoundError:
        return None, None
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        return None, f"not using {path} ({reason}): it is made anew"
    if isinstance(data, dict) and data.get(key) != expected:
        return None, None
    if not valid(data):
        return None, f"not using {path} (not the shape this tool writes): it is made anew"
    return data, None


class JsonCache:
    """One JSON object kept at `path` (none when None): read once, used only as `read` allows,
    else begun with each of `fields` empty; `save` writes it back whole when `data` changed,
    or says why it cannot (naming `what`, `the history cache`)."""

    dropped: str | None
    """Why a file at `path` was not used (one line naming it), None when it was or none is."""

    def __init__(
        self,
        path: Path | None,
        made_by: str,
        valid: Check,
        fields: Sequence[str],
        what: str,
        key: str = "made_by",
    ) -> None:
        self.path = path
        self.head = {key: made_by}
        self.what = what
        found, self.dropped = read(path, key, made_by, valid) if path else (None, None)
        self.data: dict[str, Any] = {field: found[field] if found else {} for field in fields}
        # Copied one level deep: a cache's entries are added or replaced, never changed in place.
        self._read = {field: dict(value) for field, value in self.data.items()}

    def save(self) -> str | None:
        if self.path is None or self.data == self._read:
            return None
        text = json.dumps(self.head | self.data, ensure_ascii=False, separators=(",", ":"))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_all([(self.path, text.encode("utf-8"))])
        except (OSError, UnicodeError) as err:  # UnicodeError: a lone surrogate in a value
            return f"cannot write {self.what} {self.path}: {getattr(err, 'strerror', None) or err}"
        return None

"""Whether JSON read back from `.register/` has the shape its writer gives it.

What the tool reads back from its own folder may have been written by anyone (a pull
request commits into it, a CI cache restore adds to it), so each reader states the shape
of what it wrote as a JSON Schema, and data of any other shape is dropped, never used.
fastjsonschema compiles the schema to Python once: a yes/no check, fast on large caches.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import fastjsonschema

Check = Callable[[Any], bool]


def checker(schema: dict[str, Any]) -> Check:
    """A yes/no check of data against `schema` (draft 7), compiled at its first use (a
    command that reads no cache pays nothing)."""
    compiled: list[Callable[[Any], Any]] = []

    def check(data: Any) -> bool:
        if not compiled:
            draft = {"$schema": "http://json-schema.org/draft-07/schema#", **schema}
            compiled.append(fastjsonschema.compile(draft, detailed_exceptions=False))
        try:
            compiled[0](data)
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
    """JSON text -> data; ValueError for text that is not JSON (or not UTF-8), for numbers
    of over 4,300 digits, and for nesting deeper than Python's parser goes."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("nested too deeply") from None

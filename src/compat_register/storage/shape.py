"""Whether JSON read back from `.register/` (anyone may have written it) has its writer's
shape: a JSON Schema per reader, compiled once by fastjsonschema."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import fastjsonschema

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

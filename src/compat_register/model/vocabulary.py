"""The register's words, read from the packaged schema (`schema/register.schema.json`, their
one home), and what the schema cannot say: a state's word on a plain page, which states are
open, evidenced, noted, charted."""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, Literal

from .positions import Path_

REGISTER_SCHEMA = "register.schema.json"
SOURCES_SCHEMA = "sources.schema.json"


@cache
def packaged_schema(name: str) -> dict[str, Any]:
    """One of the shipped schemas, parsed (shared: never change what it returns). Read beside
    the package's code: importlib.resources would load tempfile and zipfile for it."""
    text = (Path(__file__).parent.parent / "schema" / name).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


_SCHEMA = packaged_schema(REGISTER_SCHEMA)
_DEFS: dict[str, Any] = _SCHEMA["$defs"]

RatedField = Literal["status", "value", "effort"]
RATED: dict[RatedField, str] = {"status": "state", "value": "level", "effort": "size"}
"""Each rated field -> the YAML key of its keyword: `status.state`, `value.level`, ..."""


def _enum(field: RatedField) -> tuple[str, ...]:
    return tuple(_DEFS[field]["properties"][RATED[field]]["enum"])


STATES = _enum("status")
"""Every state, in the schema's order: the overview's and the site's badge rank."""
LEVELS = _enum("value")
"""Every value level, highest first: the priority order."""
SIZES = _enum("effort")
"""Every effort size, smallest first: the priority order among equal values."""
REGISTER_STATUSES: tuple[str, ...] = tuple(_SCHEMA["properties"]["status"]["enum"])

OPEN = ("missing", "partial")
"""The states whose entries are work still to do (the priorities page)."""
EVIDENCED = ("done", "partial")
"""The states that claim something of the subject, and so must cite it."""
NOTED = ("partial", "n/a")
"""The states that say too little alone: their status needs a note (a warning)."""
COUNTED_WHEN_USED = ("unknown",)
"""The states a count lists only when some entry has them."""
CHARTED = ("done", "partial", "missing")
"""The states the Changes page charts over time, in the chart's order."""


def counted(used: Iterable[str]) -> tuple[str, ...]:
    """The states a count of entries whose states are `used` lists, in `STATES` order."""
    seen = set(used)
    return tuple(s for s in STATES if s not in COUNTED_WHEN_USED or s in seen)


STATE_WORDS = {s: "N/A" if s == "n/a" else s.capitalize() for s in STATES}
"""Each state as the leading word of a plain page's subject bullet (`mcpx @ 05c78b2.
Partial. ...`): what `site.plain` writes and `register import` reads back."""
PAGE_STATES = {word: state for state, word in STATE_WORDS.items()}


def state_word(key: str) -> str:
    """How a page writes the state `key`; a word outside `STATES` as it is."""
    return STATE_WORDS.get(key, key)


def _prose_paths() -> tuple[Path_, ...]:
    """An entry's prose fields, as paths in its YAML mapping, in the schema's order: each
    property that is `prose`, and the prose properties of each rated field (their notes)."""
    prose = "#/$defs/prose"
    found: list[Path_] = []
    for name, spec in _DEFS["entry"]["properties"].items():
        if spec.get("$ref") == prose:
            found.append((name,))
        elif name in RATED:
            props = _DEFS[name]["properties"].items()
            found += [(name, key) for key, sub in props if sub.get("$ref") == prose]
    return tuple(found)


PROSE: tuple[Path_, ...] = _prose_paths()
"""An entry's prose fields besides each note's `text`, by their path in the YAML entry:
`("what",)`, `("status", "note")`, ... Titles are not prose."""

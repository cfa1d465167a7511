"""The register's words: states, value levels, effort sizes, register statuses, as
`Literal` types, so that mypy checks every use; the packaged schema's enums
(`schema/register.schema.json`) are held equal to them by tests/model/test_vocabulary.py.
Which fields are prose is read from the schema. Beside the words, what the schema cannot
say: how a state is written on a plain page, which states are open, evidenced, charted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import Any, Literal, get_args

from .positions import Path_

REGISTER_SCHEMA = "register.schema.json"
SOURCES_SCHEMA = "sources.schema.json"
"""The packaged schemas' file names, under `compat_register/schema/`."""


@cache
def packaged_schema(name: str) -> dict[str, Any]:
    """One of the shipped schemas, parsed (shared: never change what it returns)."""
    text = resources.files("compat_register").joinpath("schema").joinpath(name).read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


_DEFS: dict[str, Any] = packaged_schema(REGISTER_SCHEMA)["$defs"]
_ENTRY: dict[str, Any] = _DEFS["entry"]["properties"]

State = Literal["done", "partial", "missing", "n/a", "unknown"]
"""An entry's state: what its register's subject does about it, at its pinned commit;
`unknown` when nobody has assessed it (apart from `missing`, a gap, and `n/a`, which does
not apply)."""
Level = Literal["high", "med", "low", "none"]
"""An entry's value level, highest first."""
Size = Literal["S", "M", "L", "XL"]
"""An entry's effort size, smallest first."""
RegisterStatus = Literal["draft", "standard", "retired"]
"""A register's own status (its header's `status:`)."""

RatedField = Literal["status", "value", "effort"]
"""An entry's rated fields: a keyword (its `RATED` key) and an optional note."""

RATED: dict[RatedField, str] = {"status": "state", "value": "level", "effort": "size"}
"""Each rated field -> the YAML key of its keyword: `status.state`, `value.level`,
`effort.size`."""

STATES: tuple[State, ...] = get_args(State)
"""Every state, in order: the overview's and the site's badge rank."""
LEVELS: tuple[Level, ...] = get_args(Level)
"""Every value level, highest first: the priority order."""
SIZES: tuple[Size, ...] = get_args(Size)
"""Every effort size, smallest first: the priority order among equal values."""
REGISTER_STATUSES: tuple[RegisterStatus, ...] = get_args(RegisterStatus)

OPEN: tuple[State, ...] = ("missing", "partial")
"""The states whose entries are work still to do (the priorities page)."""
EVIDENCED: tuple[State, ...] = ("done", "partial")
"""The states that claim something of the subject, and so must cite it (the evidence rule)."""
NOTED: tuple[State, ...] = ("partial", "n/a")
"""The states that say too little alone: what is partial, why it does not apply. Their
status needs a note (the note rule, a warning)."""
COUNTED_WHEN_USED: tuple[State, ...] = ("unknown",)
"""The states a count lists only when some entry has them: a set that never says `unknown`
keeps the counts, columns and bars it always had."""


def counted(used: Iterable[str]) -> tuple[State, ...]:
    """The states a count of entries whose states are `used` lists, in `STATES` order."""
    seen = set(used)
    return tuple(s for s in STATES if s not in COUNTED_WHEN_USED or s in seen)


CHARTED: tuple[State, ...] = ("done", "partial", "missing")
"""The states the Changes page charts over time, in the chart's order."""

STATE_WORDS: dict[State, str] = {
    "done": "Done",
    "partial": "Partial",
    "missing": "Missing",
    "n/a": "N/A",
    "unknown": "Unknown",
}
"""Each state as the leading word of a plain page's subject bullet (`mcpx @ 05c78b2.
Partial. ...`): what `site.plain` writes and `register import` reads back."""

PAGE_STATES: dict[str, State] = {word: state for state, word in STATE_WORDS.items()}
"""A plain page's state word -> its state."""


def state_word(key: str) -> str:
    """How a page writes the state `key`; a word outside `STATES` as it is (`register
    check` reports it)."""
    return next((word for state, word in STATE_WORDS.items() if state == key), key)


def _prose_paths() -> tuple[Path_, ...]:
    """An entry's prose fields, as paths in its YAML mapping, in the schema's order: each
    property that is `prose`, and the prose properties of each rated field (their notes)."""
    prose = "#/$defs/prose"
    found: list[Path_] = []
    for name, spec in _ENTRY.items():
        if spec.get("$ref") == prose:
            found.append((name,))
        elif name in RATED:
            props = _DEFS[name]["properties"].items()
            found += [(name, key) for key, sub in props if sub.get("$ref") == prose]
    return tuple(found)


PROSE: tuple[Path_, ...] = _prose_paths()
"""An entry's prose fields besides each note's `text` (`("notes", N, "text")`), by their
path in the YAML entry: `("what",)`, `("status", "note")`, ... Titles are not prose."""

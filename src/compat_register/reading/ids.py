"""Entry IDs and prefixes compiled from the register schema's patterns, so an editor checking
against the schema and `register check` agree on what an ID is."""

from __future__ import annotations

import re

from . import schema

_REGISTER = schema.load_schema(schema.REGISTER)
_ID_BODY = schema.python_pattern(_REGISTER["$defs"]["entry"]["properties"]["id"]["pattern"])
_PREFIX_BODY = schema.python_pattern(_REGISTER["properties"]["prefix"]["pattern"])

ID = re.compile(_ID_BODY)
"""A whole entry ID: `META-07`."""
PREFIX = re.compile(_PREFIX_BODY)
"""A whole register prefix: `META`."""

_IN_TEXT = _ID_BODY.removeprefix("^").removesuffix(r"\Z").removesuffix("$")
_SPLIT = re.fullmatch(r"(\[[^\]]+\])(.*)", _IN_TEXT)
assert _SPLIT is not None, "the schema's ID pattern starts with a character class"
_LEAD, _REST = _SPLIT.groups()
# Whole words, where a word is letters, digits and '-': `GOMETA-04` is not META-04, but
# `_META-04_` (emphasis) is. The ID's first character class leads, the look behind at the
# one before it: `re` then skips to that class, twice as fast as trying every position.
REFERENCE = re.compile(
    rf"(?P<first>{_LEAD}(?<![A-Za-z0-9-].){_REST})(?:\.\.(?P<last>{_IN_TEXT}))?(?![A-Za-z0-9-])"
)
"""An ID or an ID range (`META-01..META-03`) in prose."""


def prefix_of(entry_id: str) -> str:
    return entry_id.rsplit("-", 1)[0]


Number = tuple[int, str]
"""An ID's number as a key that orders as the number does: (digit count, digits)."""


def number_of(entry_id: str) -> Number:
    """The number of an ID, to compare (`META-007` is `META-7`): digits, not an `int`, which
    Python refuses past 4,300 digits."""
    digits = entry_id.rsplit("-", 1)[1].lstrip("0") or "0"
    return len(digits), digits

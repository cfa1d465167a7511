"""The cheap read-back of a token rewrite: what the new text reads as, shown from the old parse.

When each swapped token is a run of `_TOKEN` characters (nothing YAML's scanner reads inside a
scalar), (1) YAML reads the new text as the old but for those scalars' values, (2) each is the
old value with the same swap, typed as the loader types it, and (3) the edited parts'
citations, read from their new values, read as planned. When a step cannot be shown,
`proves` says False and `edit` parses the file again: never weaker (tests/rewriting).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from ..model.diagnostic import Diagnostic
from ..model.notation import MAX_DIGITS
from ..model.positions import Path_
from ..model.registers import Citation
from ..reading import registerfile
from ..reading.loader import Document
from ..reading.schema import integer_keys

Reading = tuple[str | None, str, int, int]
"""What a citation reads as: (alias as written, path as written, start, end)."""

Swap = tuple[int, str, str]
"""(character offset in the old text, old token, new token)."""

_TOKEN = re.compile(r"[A-Za-z0-9_./+@~-]+(?::[A-Za-z0-9_./+@~-]+)*")
_PLAIN_START = re.compile(r"[A-Za-z0-9_./]")
_LINE_NUMBER = re.compile(f"[1-9][0-9]{{0,{MAX_DIGITS - 1}}}")
_NOT_TEXT = re.compile(r"[-+]?[0-9]*|~|null|Null|NULL|true|True|TRUE|false|False|FALSE")
"""A superset of the plain values the loader reads as other than text."""


def proves(
    doc: Document,
    slug: str,
    swaps: Iterable[Swap],
    fields: Iterable[Path_],
    citations: Sequence[Citation],
    expected: Sequence[Reading | None],
) -> bool:
    """Whether `doc`'s text with `swaps` made is shown to read as planned: its `citations`
    (in file order) as `expected` (None: as before). False: not shown, never "refused"."""
    by_scalar: dict[Path_, list[Swap]] = {}
    candidates = list(fields)
    for swap in swaps:
        path = _scalar_at(doc, candidates, swap)
        if path is None or not _local(doc, path, swap):
            return False
        by_scalar.setdefault(path, []).append(swap)
    values: dict[Path_, str | int] = {}
    for path, made in by_scalar.items():
        if (value := _new_value(doc, path, sorted(made))) is None:
            return False
        values[path] = value
    return _readings_hold(doc, slug, values, citations, expected)


def _scalar_at(doc: Document, fields: list[Path_], swap: Swap) -> Path_ | None:
    """The edited scalar whose written span holds the swap's old token."""
    offset, old, _ = swap
    for path in fields:
        if path in doc.styles:
            start, end = doc.raw(path)
            if start <= offset and offset + len(old) <= end:
                return path
    return None


def _content(doc: Document, path: Path_) -> tuple[int, int] | None:
    """The span of a scalar's content as written (inside quotes, below a block scalar's
    header); None for a tagged scalar."""
    start, end = doc.raw(path)
    style = doc.styles[path]
    first = doc.text[start : start + 1]
    if first == "!":
        return None  # a tag (`!!str`) before the value: not shown here
    if style in ("'", '"'):
        return (start + 1, end - 1) if first == style else None
    if style in ("|", ">"):
        body = doc.text.find("\n", start, end)
        return None if body < 0 or first != style else (body + 1, end)
    return start, end


def _local(doc: Document, path: Path_, swap: Swap) -> bool:
    """Step 1 of the module's proof for one swap."""
    offset, old, new = swap
    content = _content(doc, path)
    if content is None or not (_TOKEN.fullmatch(old) and _TOKEN.fullmatch(new)):
        return False
    begin, end = content
    if offset < begin or offset + len(old) > end or doc.text[offset : offset + len(old)] != old:
        return False
    if offset == 0 or doc.text[offset - 1] in "\r\n":
        return False
    style = doc.styles[path]
    if style == '"' and "\\" in doc.text[begin:end]:
        return False
    return not (style == "" and offset == begin and not _PLAIN_START.match(new))


def _new_value(doc: Document, path: Path_, swaps: list[Swap]) -> str | int | None:
    """Step 2: the scalar's new value as the loader would read it, or None."""
    value = _value(doc.data, path)
    content = _content(doc, path)
    if content is None:
        return None
    begin, end = content
    plain = doc.styles[path] == ""
    if isinstance(value, int) and plain and _LINE_NUMBER.fullmatch(doc.text[begin:end]):
        value = doc.text[begin:end]  # `lines: 12`, read as a number: its text as written
    if not isinstance(value, str):
        return None
    pieces, position, last_end = [], 0, begin
    for offset, old, new in swaps:
        if offset < last_end:
            return None  # overlapping swaps
        written = _occurrences(doc.text, old, begin, end)
        read = _occurrences(value, old, 0, len(value))
        if len(written) != len(read):
            return None
        at = read[written.index(offset)]
        if at < position:
            return None
        pieces += [value[position:at], new]
        position, last_end = at + len(old), offset + len(old)
    pieces.append(value[position:])
    return _as_loaded("".join(pieces), path) if plain else "".join(pieces)


def _as_loaded(text: str, path: Path_) -> str | int | None:
    """A plain scalar's text as the loader reads it: a line number under an integer key is
    a number; other non-text (null, a boolean, a signed or zero number): None."""
    key = path[-1] if path else None
    if key in integer_keys() and "_meta" not in path and _LINE_NUMBER.fullmatch(text):
        return int(text)
    return None if _NOT_TEXT.fullmatch(text) else text


def _occurrences(text: str, token: str, begin: int, end: int) -> list[int]:
    """Every offset of `token` in text[begin:end], overlapping ones too (as Document.find)."""
    found, at = [], text.find(token, begin, end)
    while at >= 0:
        found.append(at)
        at = text.find(token, at + 1, end)
    return found


def _value(data: Any, path: Path_) -> Any:
    for part in path:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return None
    return data


def _replaced(data: Any, path: Path_, value: str | int) -> Any:
    """A copy of `data` with the value at `path` replaced (copies along the path only)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        return {**data, head: _replaced(data[head], rest, value)}
    copy = list(data)
    copy[head] = _replaced(copy[head], rest, value)  # type: ignore[index]
    return copy


def _readings_hold(
    doc: Document,
    slug: str,
    values: dict[Path_, str | int],
    citations: Sequence[Citation],
    expected: Sequence[Reading | None],
) -> bool:
    """Step 3: the citations of each edited part, read out of its new value, as expected."""
    parts: dict[Path_, list[tuple[Path_, str | int]]] = {}
    for path, value in values.items():
        part = _part(path)
        if part is None:
            return False
        parts.setdefault(part, []).append((path[len(part) :], value))
    wanted: dict[Path_, list[Reading]] = {part: [] for part in parts}
    if len(citations) != len(expected):
        return False
    for i in _to_look_at(citations, expected, parts):
        citation, want = citations[i], expected[i]
        part = _part(citation.field)
        now = reading(citation)
        if part in wanted:
            wanted[part].append(now if want is None else want)
        elif want is not None and want != now:
            return False  # planned to move, yet nothing of its part was rewritten
    for part, edited in parts.items():
        data = _value(doc.data, part)
        for inner, value in edited:
            data = _replaced(data, inner, value)
        out: list[Diagnostic] = []
        found = registerfile.part_citations(doc, slug, part, data, out)
        if out or [reading(c) for c in found] != wanted[part]:
            return False
    return True


def _to_look_at(
    citations: Sequence[Citation], expected: Sequence[Reading | None], parts: Collection[Path_]
) -> list[int]:
    """The indices of the citations step 3 looks at: those planned to move and those of an
    edited prose part, found by bisection (one missed fails the proof, never passes it)."""
    look = {i for i, want in enumerate(expected) if want is not None}
    items = [part for part in parts if len(part) == 4 and part[2] == "sources"]
    prose = {part[1] if part[0] == "entries" else _SUMMARY for part in parts if part not in items}
    for head in prose:
        low = bisect_left(citations, head, key=_head)
        look.update(range(low, bisect_right(citations, head, low, key=_head)))
    return sorted(look)


_SUMMARY = -1
"""The summary's place in the file order of citations, before every entry's (`_head`)."""


def _head(citation: Citation) -> int:
    """The index of the entry a citation is written in, or `_SUMMARY`."""
    field = citation.field
    return field[1] if field[0] == "entries" and isinstance(field[1], int) else _SUMMARY


def _part(path: Path_) -> Path_ | None:
    """The part whose citations a value at `path` is read into: the summary, an entry's
    `sources` item, or a prose field."""
    if path[:1] == ("summary",):
        return ("summary",)
    if len(path) < 3 or path[0] != "entries" or not isinstance(path[1], int):
        return None
    return path[:4] if path[2] == "sources" and len(path) >= 4 else path


def reading(citation: Citation) -> Reading:
    """What a citation reads as, the one thing a read-back compares."""
    return citation.alias, citation.path, citation.start, citation.end

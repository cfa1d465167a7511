"""Which parts of Markdown prose are not prose (code, link destinations, autolinks, link
definitions, bare URLs), so scanners skip what touches them: `[doc](https://x/META-99)`
mentions no META-99."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeVar

from ..model.patterns import Regex, Spanned
from ..model.positions import Path_
from ..model.registers import PROSE_FIELDS
from .mdcode import code_ranges

Span = tuple[int, int]
S = TypeVar("S", bound=Spanned)


_LINK_TARGET = re.compile(
    r"\]\((?P<target>\s*(?:<[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\s*)\)?"
)
"""`[text](destination "title")`: the part in parentheses (all of it up to a missing `)`)."""
_NOT_PROSE = re.compile(
    r"^[ ]{0,3}\[[^\]\n]+\]:.*"  # link reference definition
    r"|<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>"  # autolink
    r"|<[^\s<>@]+@[^\s<>]+>"  # email autolink
    r"|(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*://[^\s<>]*",  # bare URL
    re.MULTILINE,
)


def prose_fields(entry: Mapping[str, Any]) -> list[tuple[Path_, str]]:
    """(path relative to the entry, text) of each of an entry's prose fields holding text."""
    found: list[tuple[Path_, str]] = []
    for path in PROSE_FIELDS:
        value: Any = entry
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        if isinstance(value, str):
            found.append((path, value))
    notes = entry.get("notes")
    for number, note in enumerate(notes if isinstance(notes, list) else []):
        if isinstance(note, Mapping) and isinstance(note.get("text"), str):
            found.append((("notes", number, "text"), note["text"]))
    return found


def non_prose_ranges(text: str, code: list[Span] | None = None) -> list[Span]:
    """Sorted, disjoint ranges of `text` that are not prose (`code`: its code, when known)."""
    code = code_ranges(text) if code is None else code
    found = list(code)
    for match in _LINK_TARGET.finditer(text):
        if not overlaps((match.start(), match.start() + 2), code):
            found.append(match.span("target"))
    if "]:" in text or "<" in text or "://" in text:  # what every match holds; most hold none
        found.extend(m.span() for m in _NOT_PROSE.finditer(text) if not overlaps(m.span(), code))
    return merge(found)


def merge(ranges: Iterable[Span]) -> list[Span]:
    """The same characters as sorted, disjoint ranges (as `overlaps` needs them)."""
    merged: list[Span] = []
    for start, end in sorted(ranges):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def overlaps(span: Span, ranges: Sequence[Span]) -> bool:
    """Whether `span` shares a character with one of `ranges` (sorted and disjoint)."""
    index = bisect.bisect_left(ranges, (span[1],))
    return index > 0 and ranges[index - 1][1] > span[0]


def outside(pattern: Regex[S], text: str, ranges: Sequence[Span]) -> Iterator[S]:
    """Matches of `pattern` (`re` or RE2) in `text` touching none of `ranges` (sorted)."""
    for match in pattern.finditer(text):
        if not overlaps(match.span(), ranges):
            yield match


def occurrences_before(text: str, token: str, start: int) -> int:
    """How many times `token` occurs in `text` before `start`, as `Document.find` counts."""
    return bisect.bisect_left(_offsets(text, token), start)


@lru_cache(maxsize=1024)
def _offsets(text: str, token: str) -> tuple[int, ...]:
    found, offset = [], text.find(token)
    while offset >= 0:
        found.append(offset)
        offset = text.find(token, offset + 1)
    return tuple(found)

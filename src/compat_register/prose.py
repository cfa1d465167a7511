"""Markdown prose as text to scan: where code is, so nothing inside it is linked or checked."""

from __future__ import annotations

import re
from collections.abc import Iterator

_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})", re.MULTILINE)
_CODE_SPAN = re.compile(r"(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)

PROSE_FIELDS: tuple[tuple[str, ...], ...] = (
    ("what",),
    ("where",),
    ("status", "note"),
    ("value", "note"),
    ("effort", "note"),
    ("risk",),
    ("detail",),
)
"""Entry fields scanned for references and in-prose citations (titles are not)."""


def code_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of fenced code blocks and inline code spans in Markdown `text`."""
    ranges = _fenced_ranges(text)
    for match in _CODE_SPAN.finditer(text):
        if not _inside(match.start(), ranges):
            ranges.append(match.span())
    return sorted(ranges)


def _fenced_ranges(text: str) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    pos = 0
    while opening := _FENCE.search(text, pos):
        fence = opening.group(1)
        closing = re.compile(rf"^[ ]{{0,3}}{fence[0]}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        end_match = closing.search(text, opening.end())
        end = end_match.end() if end_match else len(text)
        ranges.append((opening.start(), end))
        pos = end
    return ranges


def _inside(offset: int, ranges: list[tuple[int, int]]) -> bool:
    return any(start <= offset < end for start, end in ranges)


def occurrences_before(text: str, token: str, start: int) -> int:
    """How many times `token` occurs in `text` before offset `start`, counted as plain text.

    This is how `Document.find` counts a token in the written scalar, so a token found by a
    scanner (whole words, outside code) is then found again at the same place in the file.
    """
    count, offset = 0, text.find(token)
    while 0 <= offset < start:
        count, offset = count + 1, text.find(token, offset + 1)
    return count


def outside_code(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """Matches of `pattern` in `text` that do not start inside code."""
    if "`" not in text and "~~~" not in text:
        yield from pattern.finditer(text)
        return
    ranges = code_ranges(text)
    for match in pattern.finditer(text):
        if not _inside(match.start(), ranges):
            yield match

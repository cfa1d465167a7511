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


def outside_code(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """Matches of `pattern` in `text` that do not start inside code."""
    if "`" not in text and "~~~" not in text:
        yield from pattern.finditer(text)
        return
    ranges = code_ranges(text)
    for match in pattern.finditer(text):
        if not _inside(match.start(), ranges):
            yield match

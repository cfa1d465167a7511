"""How line ranges are written, shared by every stage that reads or writes them."""

from __future__ import annotations

MAX_DIGITS = 9
"""Most digits in an integer field and a cited line number: a billion is past any line."""


def lines_text(start: int, end: int) -> str:
    """A line range as citations write it: `421`, or `658-665`."""
    return str(start) if start == end else f"{start}-{end}"

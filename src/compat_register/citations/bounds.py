"""The work one prose field may cost, checked before Markdown sees it (pure): Python-Markdown
searches the rest of a field for each `[`'s close, so nested or unclosed brackets cost the
square of its length (40 KB: 212 s). Over a bound: an error, and not converted."""

from __future__ import annotations

MAX_CHARS = 20_000
"""The longest prose field, in characters (the longest in this project's registers: 527)."""
MAX_BRACKETS = 100
"""The most `[` in one field (a link, an image, a footnote each take one)."""
MAX_DEPTH = 8
"""The deepest nesting of brackets in one field (a link in an image in a link is 3)."""


def over_bounds(text: str) -> str | None:
    """Why `text` is more work than one prose field may cost, or None when it is not."""
    if len(text) > MAX_CHARS:
        length = f"this field is {len(text):,} characters long"
        return f"{length}, over the {MAX_CHARS:,} one field may hold: split it"
    brackets = text.count("[")
    if brackets > MAX_BRACKETS:
        return (
            f"this field holds {brackets} '[', over the {MAX_BRACKETS} one field may hold "
            "(Markdown's cost grows with their square): split it, or write them as code"
        )
    # Brackets nest no deeper than there are of them: most fields are not walked.
    if brackets > MAX_DEPTH and (depth := nesting(text)) > MAX_DEPTH:
        return f"brackets nest {depth} deep in this field, over the {MAX_DEPTH} allowed"
    return None


def nesting(text: str) -> int:
    """The deepest nesting of `[...]` in `text` (an unclosed `[` counts as open)."""
    depth = deepest = 0
    for char in text:
        if char == "[":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "]" and depth:
            depth -= 1
    return deepest

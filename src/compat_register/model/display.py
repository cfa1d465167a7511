"""How a value from a pull request is shown on a channel that would otherwise obey what it
holds (a line feed, an escape sequence, a bidi control): each control made a visible escape."""

from __future__ import annotations

import re

BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""The Unicode bidirectional formatting characters (Trojan Source, CVE-2021-42574)."""

_NAMED = {"\n": "\\n", "\r": "\\r"}
_CONTROL = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{BIDI}]")
_CONTROL_BUT_LF = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI}]")
_JSON_UNSAFE = re.compile(f"[\x7f-\x9f{BIDI}]")


def _escaped(match: re.Match[str]) -> str:
    char = match[0]
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def line(text: str) -> str:
    """`text` as one terminal line: control characters and bidi controls escaped."""
    return _CONTROL.sub(_escaped, text)


def lines(text: str) -> str:
    """`text` as terminal lines: as `line`, the line feeds kept."""
    return _CONTROL_BUT_LF.sub(_escaped, text)


def json_text(text: str) -> str:
    """JSON text (`json.dumps(..., ensure_ascii=False)`) with the C1 and bidi controls it
    left raw written as `\\uXXXX`."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def shortened(text: str, most: int) -> str:
    """`text` cut to at most `most` characters, an ellipsis marking the cut."""
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"

"""Sentences and their BCP 14 keywords, pure, on plain text with lines; hand-cut, as NLTK's
punkt would be a 2 MB model for one rule (`.`, `!` or `?`, a space, a capital)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

KEYWORDS = (
    "MUST NOT",
    "MUST",
    "REQUIRED",
    "SHALL NOT",
    "SHALL",
    "SHOULD NOT",
    "SHOULD",
    "NOT RECOMMENDED",
    "RECOMMENDED",
    "MAY",
    "OPTIONAL",
)
"""RFC 2119's keywords, as RFC 8174 counts them: in capitals only; longer forms first."""

_KEYWORD = re.compile(
    r"(?<![\w-])(" + "|".join(k.replace(" ", r"\s+") for k in KEYWORDS) + r")(?![\w-])"
)
_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s)")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|Dr|Mr|Ms|No)|\b[A-Z])\.\Z")
_BOILERPLATE = re.compile(r"\bkey\s*words\b.*\b(?:BCP\s*14|RFC\s*2119|RFC\s*8174)\b", re.I | re.S)
_WORDS = ("MUST", "REQUIRED", "SHALL", "SHOULD", "RECOMMENDED", "MAY", "OPTIONAL")
"""Each keyword holds one of these (`MUST NOT` holds `MUST`, `NOT RECOMMENDED` `RECOMMENDED`)."""
_PREFIXES = sorted({w[:n] for w in _WORDS for n in range(1, len(w))}, key=len, reverse=True)
_DROPPED = r"[*_~\[\]!<&`{\\]"
"""What opens markup the reading drops between two letters (emphasis, link, HTML, code...)."""
_MAY_HOLD = re.compile(
    "&#|(?=[MROS])(?:" + "|".join(_WORDS) + "|(?:" + "|".join(_PREFIXES) + ")" + _DROPPED + ")"
)
"""The lookahead first: most places hold none of the four letters (five times faster)."""


@dataclass(frozen=True)
class Piece:
    """Plain text on one source line; `code` when it is a code span (no keyword there)."""

    text: str
    line: int
    code: bool = False


@dataclass(frozen=True)
class Sentence:
    """A sentence holding a keyword: its first and last line, first keyword, text."""

    line: int
    end: int
    keyword: str
    text: str


def sentences(pieces: Sequence[Piece]) -> Iterator[Sentence]:
    """Each sentence of a paragraph holding a keyword outside code, but BCP 14's boilerplate."""
    chars, lines, code = _flatten(pieces)
    for start, stop in _spans(chars, code):
        keyword = first_keyword(chars, code, start, stop)
        text = " ".join(chars[start:stop].split())
        if keyword is None or boilerplate(text):
            continue
        yield Sentence(lines[start], lines[stop - 1], keyword, text)


def last_sentence(pieces: Sequence[Piece]) -> str:
    """A paragraph's last sentence, keyword or not, spaced."""
    chars, _, code = _flatten(pieces)
    spans = list(_spans(chars, code))
    return " ".join(chars[spans[-1][0] : spans[-1][1]].split()) if spans else ""


def may_hold_keyword(source: str) -> bool:
    """Whether the plain text read from `source` can hold a keyword, so it need be parsed:
    a keyword split by markup shows a prefix then `_DROPPED` (`MU**ST**`); never missed."""
    return _MAY_HOLD.search(source) is not None


def boilerplate(text: str) -> bool:
    """Whether a sentence is the BCP 14 key-words sentence (RFC 8174, section 2)."""
    return bool(_BOILERPLATE.search(text))


def first_keyword(text: str, code: Sequence[bool], start: int, stop: int) -> str | None:
    """The first keyword in `text[start:stop]` outside code, spaced as RFC 2119 writes it."""
    for match in _KEYWORD.finditer(text, start, stop):
        if not any(code[match.start() : match.end()]):
            return " ".join(match[1].split())
    return None


def _flatten(pieces: Sequence[Piece]) -> tuple[str, list[int], list[bool]]:
    """The paragraph as one string, with each character's line and code flag."""
    chars: list[str] = []
    lines: list[int] = []
    code: list[bool] = []
    for piece in pieces:
        chars.append(piece.text)
        lines.extend([piece.line] * len(piece.text))
        code.extend([piece.code] * len(piece.text))
    return "".join(chars), lines, code


def _spans(text: str, code: Sequence[bool]) -> Iterator[tuple[int, int]]:
    """(start, stop) of each sentence, blanks at either edge left out."""
    start = 0
    for match in _END.finditer(text):
        stop = match.end()
        if code[match.start()] or _ABBREVIATION.search(text, 0, match.start() + 1):
            continue
        following = text[stop:].lstrip()
        if following and following[0].islower():
            continue  # "e.g. the client", "version 1.0 or later": not a sentence's end
        yield from _trimmed(text, start, stop)
        start = stop
    yield from _trimmed(text, start, len(text))


def _trimmed(text: str, start: int, stop: int) -> Iterator[tuple[int, int]]:
    span = text[start:stop]
    if stripped := span.strip():
        start += len(span) - len(span.lstrip())
        yield start, start + len(stripped)

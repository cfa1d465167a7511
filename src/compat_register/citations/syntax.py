"""Citations as text, pure: the compact form, in-prose tokens and quotes parsed."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from ..model.notation import MAX_DIGITS, lines_text
from ..storage.errors import RegisterError
from .compare import empty_quote
from .nonprose import non_prose_ranges, overlaps

OPEN_QUOTES = {"“": "”", '"': '"'}

_COMPACT = re.compile(
    r"(?:(?P<alias>[A-Za-z][A-Za-z0-9_-]*):(?=[^\s:]))?"
    r"(?P<token>(?P<path>[^\s:]+):(?P<start>[0-9]+)(?:-(?P<end>[0-9]+))?)"
    r"(?:\s+(?P<rest>.*))?\Z",
    re.DOTALL,
)

# `[ALIAS:]PATH:LINE[-END]`, not inside a word, path or address, nor touching a backtick or
# after a backslash (as a code span its backticks would pair differently).
PROSE_CITATION = re.compile(
    r"(?<![\w/.:@`\\-])"
    r"(?:(?P<alias>[A-Za-z][A-Za-z0-9_-]*):)?"
    r"(?P<path>[A-Za-z0-9_.][\w.\-/]*):(?P<start>[0-9]+)(?:-(?P<end>[0-9]+))?"
    r"(?![\w`-])"
)
_CITED_LINE = re.compile(r":[0-9]")
"""What every `PROSE_CITATION` match holds: the `:` before its first line number."""
_TOKEN_BEHIND = re.compile(r"[\w./:-]*")
"""A citation's characters, matched in the reversed text from a `:` back to its start."""
_LINES = re.compile(r"(?P<start>[0-9]+)(?:-(?P<end>[0-9]+))?\Z")
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]*\Z")
_HOST_SUFFIX = re.compile(r"\.(?:com|org|net|io|dev)\Z", re.IGNORECASE)


class CitationSyntaxError(RegisterError, ValueError):
    """A compact citation that cannot be read; the message says how to write it."""


class Parsed(NamedTuple):
    """The parts of a citation as written, before its source is known."""

    alias: str | None
    path: str
    start: int
    end: int
    quote: str | None
    token: str = ""
    """`PATH:LINES` exactly as written, which `register fix` rewrites."""

    @property
    def lines_text(self) -> str:
        return lines_text(self.start, self.end)


def parse_compact(text: str) -> Parsed:
    """Parse `[ALIAS:]PATH:LINE[-END] [QUOTE]`; raises `CitationSyntaxError`."""
    match = _COMPACT.match(text.strip())
    if not match:
        raise CitationSyntaxError(
            f"malformed citation '{text}': expected [ALIAS:]PATH:LINE[-END] [“QUOTE”]"
        )
    start, end = _range(match["start"], match["end"], text)
    quote = parse_quote(match["rest"]) if match["rest"] else None
    return Parsed(match["alias"], match["path"], start, end, quote, match["token"])


def parse_prose(alias: str | None, token: str, written: str) -> Parsed:
    """The citation of an in-prose match `written`, from its alias and `PATH:LINES` token."""
    path, _, lines = token.rpartition(":")
    first, _, last = lines.partition("-")
    start, end = _range(first, last or None, written)
    return Parsed(alias, path, start, end, None, token)


def prose_citations(
    text: str, skip: Sequence[tuple[int, int]] | None = None
) -> Iterator[re.Match[str]]:
    """The in-prose citations of Markdown `text` outside `skip` (default: what is not prose)."""
    if ":" not in text:
        return iter(())  # every citation holds PATH:LINE; many fields (a risk, a note) hold no ':'
    skip = non_prose_ranges(text) if skip is None else skip
    matches = _citation_matches(text)
    return (m for m in matches if is_citation_path(m["path"]) and not overlaps(m.span(), skip))


def _citation_matches(text: str) -> Iterator[re.Match[str]]:
    """`PROSE_CITATION.finditer(text)` ten times faster: a match can start only where a
    run of `_TOKEN_BEHIND` characters starts, so only the runs holding `:DIGIT` are tried."""
    reverse, tried = "", -1
    for colon in _CITED_LINE.finditer(text):
        reverse = reverse or text[::-1]
        behind = len(text) - colon.start()  # where the character before the `:` is in reverse
        run = _TOKEN_BEHIND.match(reverse, behind)
        assert run is not None  # a `*` pattern matches anywhere, if only the empty string
        start = colon.start() - (run.end() - behind)
        if start != tried:
            tried = start
            if match := PROSE_CITATION.match(text, start):
                yield match


def parse_lines(value: int | str) -> tuple[int, int]:
    """The mapping form's `lines`: 421 or "658-665"."""
    text = str(value)
    if (match := _LINES.match(text)) is None:
        raise CitationSyntaxError(f"malformed lines '{text}': expected LINE or LINE-END")
    return _range(match["start"], match["end"], text)


def _range(first: str, last: str | None, text: str) -> tuple[int, int]:
    for digits in (first, last or ""):
        if len(digits) > MAX_DIGITS:
            raise CitationSyntaxError(
                f"number too large: a line number has at most {MAX_DIGITS} digits, "
                f"not {len(digits)}"
            )
    start, end = int(first), int(last or first)
    if start < 1:
        raise CitationSyntaxError(f"line numbers start at 1 in '{text}'")
    if end < start:
        raise CitationSyntaxError(f"reversed line range {start}-{end} in '{text}'")
    return start, end


def parse_quote(rest: str) -> str:
    """The text between “curly” or "straight" quotes after the location."""
    rest = rest.strip()
    opener = rest[:1]
    if opener not in OPEN_QUOTES:
        raise CitationSyntaxError(
            f"unexpected text after the location: '{rest}' (a quote goes in “curly” "
            'or "straight" quotes)'
        )
    closer = OPEN_QUOTES[opener]
    if len(rest) < 2 or not rest.endswith(closer):
        raise CitationSyntaxError(
            f"quote opens with {opener} but never closes: YAML ends a plain value at ' #' "
            "(a comment); write the whole citation in single quotes"
        )
    if empty_quote(quote := rest[1:-1]):
        raise CitationSyntaxError("empty quote: quote the cited text, or leave the quote out")
    return quote


def is_citation_path(path: str) -> bool:
    """Whether an in-prose `PATH:LINE` is a citation: PATH holds a '/' or ends in a file
    extension (`schema.ts:21`; not `4.5:1` nor `api.example.com:443`)."""
    return "/" in path or (bool(_EXTENSION.search(path)) and not _HOST_SUFFIX.search(path))

"""Citations as text: parsing the compact form and in-prose tokens, claims, and quotes.

Pure functions only: nothing here reads a file or talks to git (verify.py does).
"""

from __future__ import annotations

import bisect
import fnmatch
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ..reading.loader import MAX_DIGITS
from .prose import non_prose_ranges, outside

OPEN_QUOTES = {"“": "”", '"': '"'}

_COMPACT = re.compile(
    r"(?:(?P<alias>[A-Za-z][A-Za-z0-9_-]*):(?=[^\s:]))?"
    r"(?P<path>[^\s:]+):(?P<start>[0-9]+)(?:-(?P<end>[0-9]+))?"
    r"(?:\s+(?P<rest>.*))?\Z",
    re.DOTALL,
)

# In prose a citation is `[ALIAS:]PATH:LINE[-END]` whose PATH is a file (`is_citation_path`),
# not inside a word, a path, or an address (`user@host.example.com:22`), and not touching a
# backtick or after a backslash: rendered as a code span, its backticks would join that run
# or be escaped, and pair differently.
PROSE_CITATION = re.compile(
    r"(?<![\w/.:@`\\-])"
    r"(?:(?P<alias>[A-Za-z][A-Za-z0-9_-]*):)?"
    r"(?P<path>[A-Za-z0-9_.][\w.\-/]*):(?P<start>[0-9]+)(?:-(?P<end>[0-9]+))?"
    r"(?![\w`-])"
)
_LINES = re.compile(r"(?P<start>[0-9]+)(?:-(?P<end>[0-9]+))?\Z")
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]*\Z")
_HOST_SUFFIX = re.compile(r"\.(?:com|org|net|io|dev)\Z", re.IGNORECASE)


class CitationSyntaxError(ValueError):
    """A compact citation that cannot be read; the message says how to write it."""


@dataclass(frozen=True)
class Parsed:
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
        return str(self.start) if self.start == self.end else f"{self.start}-{self.end}"


def parse_compact(text: str) -> Parsed:
    """Parse `[ALIAS:]PATH:LINE[-END] [QUOTE]`; raises `CitationSyntaxError`."""
    match = _COMPACT.match(text.strip())
    if not match:
        raise CitationSyntaxError(
            f"malformed citation '{text}': expected [ALIAS:]PATH:LINE[-END] [“QUOTE”]"
        )
    start, end = _range(match["start"], match["end"], text)
    quote = parse_quote(match["rest"]) if match["rest"] else None
    token = match.string[
        match.start("path") : match.end("end") if match["end"] else match.end("start")
    ]
    return Parsed(match["alias"], match["path"], start, end, quote, token)


def parse_prose(match: re.Match[str]) -> Parsed:
    """The citation of a `PROSE_CITATION` match; raises `CitationSyntaxError`."""
    start, end = _range(match["start"], match["end"], match.group(0))
    token = match.string[match.start("path") : match.end()]
    return Parsed(match["alias"], match["path"], start, end, None, token)


def prose_citations(
    text: str, skip: Sequence[tuple[int, int]] | None = None
) -> Iterator[re.Match[str]]:
    """The in-prose citations of Markdown `text`: `PROSE_CITATION` matches whose path is a
    file, outside code, link destinations and URLs (`skip`: `non_prose_ranges(text)`)."""
    for match in outside(PROSE_CITATION, text, non_prose_ranges(text) if skip is None else skip):
        if is_citation_path(match["path"]):
            yield match


def parse_lines(value: int | str) -> tuple[int, int]:
    """The mapping form's `lines`: 421 or "658-665"."""
    text = str(value)
    match = _LINES.match(text)
    if match is None:
        raise CitationSyntaxError(f"malformed lines '{text}': expected LINE or LINE-END")
    return _range(match["start"], match["end"], text)


def _range(first: str, last: str | None, text: str) -> tuple[int, int]:
    start = _line_number(first)
    end = _line_number(last) if last else start
    _check_range(start, end, text)
    return start, end


def _line_number(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise CitationSyntaxError(
            f"number too large: a line number has at most {MAX_DIGITS} digits, not {len(digits)}"
        )
    return int(digits)


def _check_range(start: int, end: int, text: str) -> None:
    if start < 1:
        raise CitationSyntaxError(f"line numbers start at 1 in '{text}'")
    if end < start:
        raise CitationSyntaxError(f"reversed line range {start}-{end} in '{text}'")


_ALNUM = re.compile(r"[^\W_]")


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
    quote = rest[1:-1]
    if not _ALNUM.search(quote) and not normalise_quote(quote):
        # `“...”` or `“**”` is no text at all once normalised, and would match any line.
        # (A quote holding a letter or digit never normalises to nothing: skip the work.)
        raise CitationSyntaxError("empty quote: quote the cited text, or leave the quote out")
    return quote


def is_citation_path(path: str) -> bool:
    """Whether an in-prose `PATH:LINE` token is a citation: PATH holds a '/', or ends in a
    file extension that starts with a letter and is not a host's (`schema.ts:21` is one;
    `4.5:1` and `api.example.com:443` are not)."""
    if "/" in path:
        return True
    return _EXTENSION.search(path) is not None and _HOST_SUFFIX.search(path) is None


@dataclass(frozen=True)
class Claim:
    """An unprefixed path pattern a source owns; `under` is prepended to the path."""

    glob: str
    under: str = ""


class Claims(dict[str, tuple[Claim, ...]]):
    """Every source's claims (alias -> claims), with each glob compiled once."""

    def __init__(self, claims: Mapping[str, Sequence[Claim]]):
        super().__init__((alias, tuple(patterns)) for alias, patterns in claims.items())
        self.compiled: list[tuple[str, list[tuple[re.Pattern[str], str]]]] = [
            (alias, [(_glob_regex(claim.glob), claim.under) for claim in patterns])
            for alias, patterns in self.items()
        ]


def claimants(path: str, claims: Mapping[str, Sequence[Claim]]) -> list[tuple[str, str]]:
    """(alias, full path in the repository) for every source whose claims match `path`.

    Pass `Sources.claims()`, a `Claims` built once per run; a plain mapping is compiled here.
    """
    compiled = claims if isinstance(claims, Claims) else Claims(claims)
    found = []
    for alias, patterns in compiled.compiled:
        under = next((under for regex, under in patterns if regex.match(path)), None)
        if under is not None:
            found.append((alias, under + path))
    return found


@lru_cache(maxsize=4096)
def _glob_regex(glob: str) -> re.Pattern[str]:
    # '**' crosses directories, '*' and '?' do not: the usual gitignore-style reading. So
    # `a/**/b.go` is a/b.go or a/x/y/b.go, never a/xb.go.
    parts = re.split(r"((?:(?<=/)|^)\*\*/|\*\*|\*|\?|\[[^\]]*\])", glob)
    out = []
    for part in parts:
        if part == "**/":
            out.append("(?:.*/)?")
        elif part == "**":
            out.append(".*")
        elif part == "*":
            out.append("[^/]*")
        elif part == "?":
            out.append("[^/]")
        elif part.startswith("[") and part.endswith("]") and len(part) > 2:
            out.append(fnmatch.translate(part)[4:-3])
        else:
            out.append(re.escape(part))
    return re.compile("".join(out) + r"\Z")


_MARKUP = re.compile(r"`+|\*+|(?<!\w)_+|_+(?!\w)")
_SPACE = re.compile(r"\s+")
_QUOTE_MAP = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})


def normalise(text: str) -> str:
    """The form in which quotes and cited lines are compared.

    Markdown inline markup is dropped (so `**SHOULD NOT**` reads as `SHOULD NOT`), curly
    and straight quotes are equal, and runs of whitespace are one space.
    """
    text = _MARKUP.sub("", text.translate(_QUOTE_MAP))
    return _SPACE.sub(" ", text).strip()


def normalise_quote(quote: str) -> str:
    """A quote normalised, with a trailing `…` or `...` (a truncated quote) dropped."""
    text = normalise(quote)
    for ellipsis in ("…", "..."):
        if text.endswith(ellipsis):
            text = text[: -len(ellipsis)].rstrip()
    return text


@dataclass
class FileText:
    """A file's lines at one commit, with a normalised copy for quote searches."""

    lines: list[str]
    _joined: str = ""
    """The normalised lines that hold any text, joined by one space: a quote spanning a
    blank line matches here as it does in the cited lines (`normalise` of them joined)."""
    _starts: list[int] = field(default_factory=list)
    """Where each of those lines starts in `_joined`."""
    _numbers: list[int] = field(default_factory=list)
    """The line number of each of those lines."""
    _indexed: bool = False

    def find_nearest(self, quote: str, near: int) -> tuple[int, int] | None:
        """The (first, last) lines of the occurrence of `quote` nearest to line `near`."""
        self._index()
        found: list[tuple[int, int]] = []
        offset = self._joined.find(quote)
        while offset >= 0:
            first = self._numbers[bisect.bisect_right(self._starts, offset) - 1]
            last = self._numbers[bisect.bisect_right(self._starts, offset + len(quote) - 1) - 1]
            found.append((first, last))
            offset = self._joined.find(quote, offset + 1)
        return min(found, key=lambda span: abs(span[0] - near), default=None)

    def _index(self) -> None:
        if self._indexed:
            return
        pieces, position = [], 0
        for number, line in enumerate(self.lines, 1):
            text = normalise(line)
            if text:
                self._starts.append(position)
                self._numbers.append(number)
                pieces.append(text)
                position += len(text) + 1
        self._joined = " ".join(pieces)
        self._indexed = True

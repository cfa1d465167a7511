"""What counts as the same text, by file kind (docs/pins.md): the one rule quotes, review
stamps, `bump` and `verify --against` compare by. Pure."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Literal

from ..model.claims import glob_matches
from ..model.registers import Source

Kind = Literal["markdown", "code", "indented"]
KINDS: tuple[Kind, ...] = ("markdown", "code", "indented")

MARKDOWN_SUFFIXES = frozenset({".md", ".mdx", ".markdown"})
INDENTED_SUFFIXES = frozenset(
    {
        ".py", ".pyi", ".pyw",
        ".yaml", ".yml",
        ".nim", ".nims", ".nimble",
        ".haml", ".pug", ".jade", ".slim", ".sass", ".styl",
        ".coffee", ".fs", ".fsi", ".fsx", ".hs", ".lhs", ".elm", ".purs",
        ".mk", ".mak",
    }
)  # fmt: skip
"""File name endings, then whole names, of languages whose indentation is syntax."""
INDENTED_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile", "Snakefile", "BUILD"})
ELLIPSES = ("…", "...")
"""How a quote says it was cut short."""


def file_kind(path: str, markdown_globs: Sequence[str] = ()) -> Kind:
    """The kind of the file at full repository path `path`, Markdown also by a glob."""
    return _kind(path, tuple(markdown_globs))


@lru_cache(maxsize=65536)  # asked for every citation verified; a set cites each file often
def _kind(path: str, markdown_globs: tuple[str, ...]) -> Kind:
    name = posixpath.basename(path)
    suffix = posixpath.splitext(name)[1].lower()
    if suffix in MARKDOWN_SUFFIXES or any(glob_matches(glob, path) for glob in markdown_globs):
        return "markdown"
    if suffix in INDENTED_SUFFIXES or name in INDENTED_NAMES:
        return "indented"
    return "code"


def source_kind(source: Source | None, path: str) -> Kind:
    """`file_kind` of a path of `source`, with the globs its sources.yaml entry declares."""
    return file_kind(path, source.markdown if source is not None else ())


_MARKUP = re.compile(r"``*|\*\**|_(?<!\w_)_*|__*(?!\w)")
"""Runs of backticks or asterisks, and of underscores at a word's edge (each alternative
starts with its character, so the engine skips to them)."""
QUOTE_MAP = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})
"""Typographic quotes as their plain forms (Markdown only)."""


def spaced(text: str) -> str:
    """`text` with each run of whitespace one space, and none at either end."""
    return " ".join(text.split())


def markdown_text(text: str) -> str:
    """Markdown text as compared: inline markup dropped, quote styles equal, spaced."""
    return spaced(_MARKUP.sub("", text.translate(QUOTE_MAP)))


def comparable(text: str, kind: Kind) -> str:
    """One line (or lines joined by a space, or a quote) in the form the rule compares."""
    return markdown_text(text) if kind == "markdown" else spaced(text)


@lru_cache(maxsize=65536)  # a quote is prepared when built, then when judged
def quote_form(quote: str, kind: Kind) -> str:
    """A quote as `comparable`, with a trailing `…` or `...` (a quote cut short) dropped."""
    text = comparable(quote, kind)
    for ellipsis in ELLIPSES:
        if text.endswith(ellipsis):
            return text[: -len(ellipsis)].rstrip()
    return text


def empty_quote(quote: str) -> bool:
    """Whether a quote holds no text by Markdown's rule (`“**”`): refused in any file."""
    if any(char.isalnum() for char in quote):
        return False  # a letter or digit survives every rule: skip the work
    return not quote_form(quote, "markdown")


def find_quote(text: str, quote: str, kind: Kind, start: int = 0) -> int:
    """Where `quote` first occurs in `text` (a `comparable` form) from `start`, or -1; in
    code at word edges (only its start, when the quote was cut short)."""
    needle = quote_form(quote, kind)
    if not needle:
        return -1
    offset = text.find(needle, start)
    if kind == "markdown":
        return offset
    whole = not quote.rstrip().endswith(ELLIPSES)  # one cut short may end inside a word
    while offset >= 0 and not _at_edges(text, offset, len(needle), whole):
        offset = text.find(needle, offset + 1)
    return offset


def _at_edges(text: str, offset: int, length: int, whole: bool) -> bool:
    """Whether a match does not continue a word of `text` on either side."""
    end = offset + length
    before = offset > 0 and _word(text[offset - 1]) and _word(text[offset])
    after = whole and end < len(text) and _word(text[end]) and _word(text[end - 1])
    return not (before or after)


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def quoted(quote: str, lines: Sequence[str], kind: Kind) -> bool:
    """Whether cited `lines` (joined by a space) hold `quote` by the rule of `kind`."""
    if not quote_form(quote, kind):
        return False
    # The quick test: most quotes are copied from one line (whose match, edges and all, is
    # one in the lines joined and spaced).
    if kind == "markdown" and any(quote in line for line in lines):
        return True
    if kind != "markdown" and any(find_quote(line, quote, kind) >= 0 for line in lines):
        return True
    text = comparable(" ".join(lines), kind)
    if find_quote(text, quote, kind) >= 0:
        return True
    return omits_ticks(quote, kind) and find_quote(without_ticks(text), quote, kind) >= 0


def omits_ticks(quote: str, kind: Kind) -> bool:
    """Whether `quote` may omit its lines' backticks: code quoted without any (as a
    hand-written page's code span must)."""
    return kind != "markdown" and "`" not in quote


def without_ticks(text: str) -> str:
    """A `comparable` form of code with its backticks dropped, spaced again."""
    return spaced(text.replace("`", "")) if "`" in text else text


def block(lines: Sequence[str], kind: Kind) -> str:
    """A block of lines in the form the rule compares (and a stamp hashes)."""
    if kind == "markdown":
        return "\n".join(markdown_text(" ".join(p)) for p in _paragraphs(lines))
    if kind == "indented":
        return "\n".join(_indented(lines))
    return spaced(" ".join(lines))


def same_text(old: Sequence[str], new: Sequence[str], kind: Kind) -> bool:
    return block(old, kind) == block(new, kind)


def _paragraphs(lines: Sequence[str]) -> Iterator[list[str]]:
    """The runs of lines holding text, an empty one for blank lines (at the edges too):
    `a, '', '', b` gives [a], [], [b]."""
    run: list[str] = []
    blank = False
    for line in lines:
        if line.strip():
            if blank:
                yield run
                run, blank = [], False
            run.append(line)
        elif not blank:
            yield run
            run, blank = [], True
    yield run


def _indented(lines: Sequence[str]) -> Iterator[str]:
    """Each line holding text as its indentation relative to the first, then its text."""
    first: str | None = None
    for line in lines:
        text = line.strip()
        if not text:
            continue
        indent = line[: len(line) - len(line.lstrip())]
        first = indent if first is None else first
        yield f"{_relative(indent, first)}|{spaced(text)}"


def _relative(indent: str, first: str) -> str:
    if indent.startswith(first):
        return "+" + indent[len(first) :]
    if first.startswith(indent):
        return "-" + first[len(indent) :]
    return "=" + indent  # tabs and spaces mixed unlike the first line: nothing to relate

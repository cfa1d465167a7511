"""What counts as the same text, by file kind: the one rule every comparer uses.

A quote checked by `register verify`, a review stamp (its hash), the text `register bump`
and `verify --against` compare before and after a move: all of them read cited text
through this module, so that they agree on what "unchanged" means. Pure functions.

- **markdown** (`.md`, `.mdx`, `.markdown`, and what a source declares under `markdown:`):
  inline markup does not count (`**MUST**` reads as `MUST`, a code span as its text),
  curly and straight quotes are equal, and runs of whitespace are one space, so a paragraph
  re-wrapped or re-indented is the same. Blank lines do count in a block: they separate
  paragraphs (and a list's items), so deleting one joins two of them.
- **code** (every other file): characters count exactly; only whitespace does not: each
  run of it is one space, leading indentation and blank lines do not count, and a line
  break is whitespace (a formatter realigns, re-indents and re-wraps). `*conn` is not
  `conn`, `_initialized` is not `initialized`.
- **indented** (code whose indentation is syntax: Python, YAML, Makefiles, ...): as code,
  but a block's line breaks count, and each line's indentation relative to the block's
  first line that holds text: the whole block re-indented is the same (a function moved
  into a class), a line re-indented against the other lines of the block is not (a
  statement moved out of its `if`, the `if` cited with it). A one-line block has nothing
  to measure against: its own re-indent is the same. Relative indentation is compared as
  characters (a tab is not four spaces), because a Makefile's recipe needs its tab.

A quote is found in a line by the same rule; in code it must also start and end at a word
edge (`initialized bool` is not in `_initialized bool`), but a quote cut short with `…`
may end inside a word. A quote of code that holds no backtick may also omit the backticks
its lines hold (`ProgressToken any json:"progressToken"` is in ``ProgressToken any
`json:"progressToken"` ``): a hand-written page holds each citation in a code span, where a
backtick cannot stand, so its quotes lose them. Only the quote rule allows this: a block
(what bump, stamps and `verify --against` compare) keeps every backtick.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Literal

from ..model.claims import glob_matches
from ..model.registers import Source

Kind = Literal["markdown", "code", "indented"]
"""How a file's text is compared (the module docstring says how each reads)."""
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
"""File name endings of languages whose indentation is syntax (Python's blocks, YAML's
nesting, Haskell's and F#'s layout rule, Make's recipe tab)."""
INDENTED_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile", "Snakefile", "BUILD"})
"""Whole file names of such languages."""
ELLIPSES = ("…", "...")
"""How a quote says it was cut short."""


def file_kind(path: str, markdown_globs: Sequence[str] = ()) -> Kind:
    """The kind of the file at `path` (its full path in its repository): Markdown by its
    suffix or by one of a source's `markdown:` globs, else code, indented or not."""
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


# --- one line, or a quote ------------------------------------------------------------------

_MARKUP = re.compile(r"``*|\*\**|_(?<!\w_)_*|__*(?!\w)")
"""Runs of backticks or asterisks, and of underscores at either edge of a word: each
alternative starts with its character (the look-behind comes after the first `_`), so the
regular expression engine skips to those characters instead of trying every position."""
QUOTE_MAP = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})
"""Typographic quotes as their plain forms (Markdown only)."""


def spaced(text: str) -> str:
    """`text` with each run of whitespace one space, and none at either end."""
    return " ".join(text.split())  # split() and \s agree on what whitespace is


def markdown_text(text: str) -> str:
    """Markdown text as compared: inline markup dropped, quote styles equal, spaced."""
    return spaced(_MARKUP.sub("", text.translate(QUOTE_MAP)))


def comparable(text: str, kind: Kind) -> str:
    """One line (or lines joined by a space, or a quote) in the form the rule compares."""
    return markdown_text(text) if kind == "markdown" else spaced(text)


@lru_cache(maxsize=65536)  # a quote is prepared when built, then when judged
def quote_form(quote: str, kind: Kind) -> str:
    """A quote as `comparable`, with a trailing `…` or `...` (a quote cut short) dropped."""
    return _without_ellipsis(comparable(quote, kind))


def empty_quote(quote: str) -> bool:
    """Whether a quote holds no text by the loosest rule (Markdown's): `“...”` or `“**”`
    would match any line of a Markdown file, so it is refused whatever the file."""
    if any(char.isalnum() for char in quote):
        return False  # a letter or digit survives every rule: skip the work
    return not quote_form(quote, "markdown")


def _without_ellipsis(text: str) -> str:
    for ellipsis in ELLIPSES:
        if text.endswith(ellipsis):
            return text[: -len(ellipsis)].rstrip()
    return text


def cut_short(quote: str) -> bool:
    """Whether a quote ends in `…` or `...`: it may then end inside a word."""
    return quote.rstrip().endswith(ELLIPSES)


def find_quote(text: str, quote: str, kind: Kind, start: int = 0) -> int:
    """Where `quote` (as written) first occurs in `text` (a `comparable` form) from
    `start`, by the rule of `kind`; -1 when nowhere. In code an occurrence must start and
    end at a word edge, unless the quote was cut short (then only its start must)."""
    needle = quote_form(quote, kind)
    if not needle:
        return -1
    offset = text.find(needle, start)
    if kind == "markdown":
        return offset
    whole = not cut_short(quote)
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
    """Whether cited `lines` hold `quote` by the rule of `kind` (lines joined by a space,
    so a quote may span them)."""
    if not quote_form(quote, kind):
        return False
    if kind == "markdown" and any(quote in line for line in lines):
        return True  # the quick test: most quotes are copied verbatim from one line
    text = comparable(" ".join(lines), kind)
    if find_quote(text, quote, kind) >= 0:
        return True
    return omits_ticks(quote, kind) and find_quote(without_ticks(text), quote, kind) >= 0


def omits_ticks(quote: str, kind: Kind) -> bool:
    """Whether `quote` may omit the backticks of its lines: a quote of code holding none
    (a quote copied from a hand-written page's code span, which cannot hold one)."""
    return kind != "markdown" and "`" not in quote


def without_ticks(text: str) -> str:
    """A `comparable` form of code with its backticks dropped, spaced again."""
    return spaced(text.replace("`", "")) if "`" in text else text


# --- a block of lines ----------------------------------------------------------------------


def block(lines: Sequence[str], kind: Kind) -> str:
    """A block of lines in the form the rule compares (and a stamp hashes)."""
    if kind == "markdown":
        return "\n".join(markdown_text(" ".join(p)) for p in _paragraphs(lines))
    if kind == "indented":
        return "\n".join(_indented(lines))
    return spaced(" ".join(lines))


def same_text(old: Sequence[str], new: Sequence[str], kind: Kind) -> bool:
    """Whether two blocks read the same by the rule of `kind`."""
    return block(old, kind) == block(new, kind)


def _paragraphs(lines: Sequence[str]) -> Iterator[list[str]]:
    """The runs of lines holding text, with an empty run where blank lines stood (at either
    edge too): `a, '', '', b` gives [a], [], [b]. Two blank lines read as one."""
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
    """Each line holding text as its indentation relative to the first such line, then
    its text spaced."""
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

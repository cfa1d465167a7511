"""Where Python-Markdown sees code in prose, in a page and a list item alike (code reaches
the page unescaped: when unsure, not code). Fences are superfences' own reading, code spans
inlinehilite's; blocks stay a model (`_Page`): Python-Markdown keeps no block's position,
markdown-it-py reads them otherwise. tests/citations/test_prose.py holds it to Markdown."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import markdown

Span = tuple[int, int]
Block = list[tuple[int, int]]
"""Runs of non-blank lines: (first, last) line numbers, a fence standing as one line."""
EXTENSIONS: dict[str, dict[str, Any]] = {
    "attr_list": {},
    "pymdownx.highlight": {},
    "pymdownx.inlinehilite": {},
    "pymdownx.superfences": {},
}
"""The pages' extensions (site.extensions) that decide where code is."""

_FENCE_MARKERS = ("```", "~~~")
_QUOTE = re.compile(r"[ ]{0,3}>[ ]?")
_ITEM = re.compile(r"[ ]{0,3}(?:[*+-]|[0-9]+\.)[ \t]+")
_ODD = re.compile(r"[\r\x02\x03]|^[ >]*\t", re.MULTILINE)
_LINE = re.compile(r"(?P<body>[^\r\n]*)(?P<end>\r\n|\r|\n|\Z)")

# Generous on purpose: a line that might start or end a block other than a paragraph.
_BLOCK_LINE = re.compile(
    r"[ \t]*(?:"
    r"[#>|<]"  # heading, blockquote, table row, raw HTML
    r"|[*+-](?:[ \t]|$)"  # bullet item
    r"|[0-9]+[.)](?:[ \t]|$)"  # numbered item
    r"|[=-]+[ \t]*$"  # setext underline
    r"|(?:[-_*][ \t]*){3,}$"  # rule
    r"|[ |:]*-[ |:-]*$"  # table separator
    r"|\[[^\]]*\]:"  # link reference definition
    r"|!!!|\?\?\?"  # admonition, details
    r"|```|~~~"  # a fence marker that opens no fence
    r"|[ \t]{4}"  # indented: a code block or a list item's continuation
    r")"
)


def code_ranges(text: str) -> list[Span]:
    """Character ranges of `text` that are code in both a page and a list item."""
    if not ("`" in text or "~" in text or "\t" in text or "    " in text):
        return []  # most fields: no backtick, tilde or indentation, so nothing can be code
    normal, origin = _normalise(text)
    lines = _lines(normal)
    # Python-Markdown empties a line of spaces before anything reads it, but one that
    # starts its input stays: there it makes the first block an indented one.
    rows = [normal[start:end] for start, end in lines]
    rows[1:] = [row.strip(" ") and row for row in rows[1:]]
    in_page = fences(rows)
    ranges = _Page(normal, lines, rows, in_page).code()
    if any(marker in rows[0] for marker in _FENCE_MARKERS):  # after the label, no fence opens
        in_item = fences(["- **What.** " + rows[0], *(row and "    " + row for row in rows[1:])])
        ranges = _intersect(ranges, _Page(normal, lines, rows, in_item).code())
    if origin is None:
        return ranges
    return [(origin[start], origin[end]) for start, end in ranges]


def fences(rows: list[str]) -> dict[int, int]:
    """First line -> last line of each fenced block superfences' own preprocessor finds."""
    if not any(marker in row for marker in _FENCE_MARKERS for row in rows):
        return {}
    md = _markdown().reset()
    reader: Any = md.preprocessors["fenced_code_block"]
    reader.run(rows)
    return dict(reader.found)


@cache
def _markdown() -> markdown.Markdown:
    """Python-Markdown with the pages' extensions, its superfences preprocessor recording
    each fence's lines (its `stack`) and neither highlighting nor placing placeholders."""
    md = markdown.Markdown(extensions=list(EXTENSIONS), extension_configs=EXTENSIONS)
    reader: Any = md.preprocessors["fenced_code_block"]

    def recording(lines: list[str]) -> list[str]:
        reader.found = [(start, end - 1) for _, start, end in reader.stack]
        return lines

    reader.reassemble = recording
    reader.extension.superfences[0]["formatter"] = lambda **_: ""
    return md


def _normalise(text: str) -> tuple[str, list[int] | None]:
    """The text as Python-Markdown reads it (`\\n` breaks, no STX/ETX, indenting tabs
    expanded), and where each of its characters came from."""
    if not _ODD.search(text):
        return text, None
    out: list[str] = []
    origin: list[int] = []
    for line in _LINE.finditer(text):
        column, leading = 0, True
        for index in range(line.start(), line.end("body")):
            char = text[index]
            leading = leading and char in " \t>"
            if char in "\x02\x03":
                continue
            expand = char == "\t" and leading
            width = 4 - column % 4 if expand else 1
            out.append(" " * width if expand else char)
            origin.extend([index] * width)
            column += width
        if line["end"]:
            out.append("\n")
            origin.append(line.start("end"))
    origin.append(len(text))
    return "".join(out), origin


def _lines(text: str) -> list[Span]:
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    ends = [start - 1 for start in starts[1:]] + [len(text)]
    return list(zip(starts, ends, strict=True))


class _Page:
    """Text laid out as Python-Markdown reads it: fences first, then blocks of lines."""

    def __init__(self, text: str, lines: list[Span], rows: list[str], fences: dict[int, int]):
        self.text, self.lines, self.rows, self.fences = text, lines, rows, fences

    def code(self) -> list[Span]:
        """Fences, indented blocks and code spans, in order."""
        ranges = []
        plain_so_far = True  # after a list, an indented block is the list's, not code
        for number, block in enumerate(self._blocks()):
            if self._indented(block):
                if number > 0 and plain_so_far:
                    ranges.append(self._span(block[0][0], block[-1][1]))
                continue
            kind, contexts = self._contexts(block)
            for context in contexts:
                ranges.extend(self._spans(context))
            if all(_shallow(self.rows[first]) for first, _ in block):
                ranges.extend(self._span(*line) for line in block if line[0] in self.fences)
            plain_so_far = plain_so_far and kind == "paragraph"
        return sorted(ranges)

    def _span(self, first: int, last: int) -> Span:
        return self.lines[first][0], self.lines[last][1]

    def _blocks(self) -> list[Block]:
        blocks: list[Block] = [[]]
        number = 0
        while number < len(self.rows):
            last = self.fences.get(number, number)
            if last == number and not self.rows[number]:
                blocks.append([])
            else:
                blocks[-1].append((number, last))
            number = last + 1
        return [block for block in blocks if block]

    def _indented(self, block: Block) -> bool:
        rows = [self.rows[first] for first, _ in block if first not in self.fences]
        return len(rows) == len(block) and all(row.startswith("    ") for row in rows)

    def _contexts(self, block: Block) -> tuple[str, list[Block]]:
        """The block's kind and its paragraphs (none unless read alike in a page and a list)."""
        rows = [self.rows[first] for first, _ in block]
        if all(self._plain(line) for line in block):
            return "paragraph", [block]
        if len(rows) == 1 and rows[0].startswith("#"):
            return "heading", [block]
        if _QUOTE.match(rows[0]) and all(self._plain(line, _QUOTE) for line in block):
            return "quote", [block]
        if _ITEM.match(rows[0]) and all(self._plain(line, _ITEM) for line in block):
            items = [n for n, (first, _) in enumerate(block) if _ITEM.match(self.rows[first])]
            ends = items[1:] + [len(block)]
            return "list", [block[n:m] for n, m in zip(items, ends, strict=True)]
        return "other", []

    def _plain(self, line: tuple[int, int], marker: re.Pattern[str] | None = None) -> bool:
        """A line that starts no block, once a `marker` (quote, list item) is taken off."""
        row = self.rows[line[0]]
        if line[0] in self.fences:
            return _shallow(row)
        found = marker.match(row) if marker else None
        if found:
            return bool(row[found.end() :].strip()) and not _BLOCK_LINE.match(row, found.end())
        return not _BLOCK_LINE.match(row)

    def _spans(self, block: Block) -> list[Span]:
        """The code spans of one paragraph, its fences blanked (superfences' placeholder)."""
        offset = self.lines[block[0][0]][0]
        pieces = []
        for first, last in block:
            start, end = self._span(first, last)
            pieces.append(" " * (end - start) if first in self.fences else self.text[start:end])
        return [(start + offset, end + offset) for start, end in code_spans("\n".join(pieces))]


def _shallow(row: str) -> bool:
    """Neither quoted nor indented (superfences puts a fence there back as text)."""
    prefix = row[: len(row) - len(row.lstrip(" \t>"))]
    return ">" not in prefix and len(prefix) < 4


def code_spans(text: str) -> list[Span]:
    """The code spans of one paragraph, paired by inlinehilite's own backtick processor,
    searching on as Python-Markdown does (past a span or an unpaired run)."""
    backtick: Any = _markdown().inlinePatterns["backtick"]
    found: list[Span] = []
    at = 0
    while (match := backtick.getCompiledRegExp().search(text, at)) is not None:
        if match.group(1):  # backslashes escaping one another: a placeholder from now on
            at = match.end()
            text = text[: match.start()] + "\x03" * (at - match.start()) + text[at:]
            continue
        start, end = backtick.find_code_spans(match.start(), text)
        if end is None:
            at = start
        else:
            at = end + start - match.start()
            found.append((match.start(), at))
    return found


def _intersect(one: list[Span], other: list[Span]) -> list[Span]:
    """The ranges covered by both lists (a fence inside a code span overlaps it: one each)."""
    pairs = ((max(a, c), min(b, d)) for a, b in one for c, d in other)
    return sorted({(low, high) for low, high in pairs if low < high})

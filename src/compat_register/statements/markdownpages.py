"""Markdown and MDX pages -> statements: markdown-it-py says what is prose (paragraphs and
table cells; no code, front matter or HTML), after MDX's JSX comments and component tag
lines are blanked (`plain_markdown`), every line kept where it was."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from .sentences import Piece, Sentence, last_sentence, may_hold_keyword, sentences
from .statement import Statement

_PARSER = MarkdownIt("commonmark").enable("table").use(front_matter_plugin)
_BLOCKS = MarkdownIt("commonmark").enable("table").use(front_matter_plugin).disable("inline")
"""Blocks only: `inline_pieces` parses what may hold a keyword (a full parse: twice the time)."""
_JSX_COMMENT = re.compile(r"\{/\*.*?\*/\}", re.S)
_JSX_TAG = re.compile(r"[ \t]*</?[A-Z][\w.]*(?:\s[^<>]*)?/?>[ \t]*\Z")
_MARKS = ("\u205f", "\u2007", "\u3000")
"""Spaces that end each line before the inline parse, to keep each piece's line (a code span
makes breaks spaces); one the page does not hold is chosen."""
_PROSE = {"paragraph_open", "th_open", "td_open"}
_T = TypeVar("_T")


def statements(
    path: str, text: str, first_line: int = 1, readings: Readings | None = None
) -> list[Statement]:
    """The statements of a Markdown or MDX page starting on `first_line` of its file;
    `readings` keeps what paragraphs read as for the pages after it."""
    if not may_hold_keyword(text):
        return []
    plain = plain_markdown(text)
    tokens, env = parse(plain)
    walk = _Walk(path, env, first_line, plain.split("\n"), readings or Readings())
    return list(walk.run(tokens))


class Readings:
    """What each inline content reads as (plain text, keyword sentences), kept for one run:
    revisions repeat most paragraphs. Not kept where it depends on a page's link references."""

    def __init__(self) -> None:
        self._read: dict[str, tuple[str, list[Sentence]]] = {}
        self._last: dict[str, str] = {}
        self.pages: dict[str, list[Statement]] = {}
        """A page's statements by its text (a schema's doc comments repeat across revisions)."""

    def read(self, content: str, env: dict[str, Any]) -> tuple[str, list[Sentence]]:
        """Its plain text, spaced, and its sentences holding a keyword."""
        return _kept(self._read, content, env, _reading)

    def last(self, content: str, env: dict[str, Any]) -> str:
        """The last sentence of an inline content, keyword or not."""
        return _kept(self._last, content, env, last_sentence)


def _kept(
    kept: dict[str, _T], content: str, env: dict[str, Any], read: Callable[[list[Piece]], _T]
) -> _T:
    if "[" in content and env.get("references"):
        return read(inline_pieces(content, 0, env))
    found = kept.get(content)
    if found is None:
        found = kept[content] = read(inline_pieces(content, 0, env))
    return found


def _reading(pieces: list[Piece]) -> tuple[str, list[Sentence]]:
    return " ".join("".join(p.text for p in pieces).split()), list(sentences(pieces))


def parse(text: str) -> tuple[list[Token], dict[str, Any]]:
    """The block tokens of a page (inline content unparsed) and the parser's environment."""
    env: dict[str, Any] = {}
    return _BLOCKS.parse(text, env), env


def plain_markdown(text: str) -> str:
    """An MDX page as plain Markdown, every line where it was: JSX comments and component tag
    lines blanked, the lines inside a component unindented."""
    text = _JSX_COMMENT.sub(lambda m: "\n" * m[0].count("\n"), text)
    lines = text.split("\n")
    depth = 0
    for number, line in enumerate(lines):
        if _JSX_TAG.match(line):
            closing, opening = line.lstrip().startswith("</"), not line.rstrip().endswith("/>")
            depth += -1 if closing else int(opening)
            lines[number] = ""
        elif depth > 0:
            lines[number] = line.lstrip(" \t") if line.strip() else ""
    return "\n".join(lines)


@dataclass
class _LeadIn:
    """A statement ending in a colon, with the list after it (its last line, its items' text)."""

    statement: Statement
    end: int
    items: list[str] = field(default_factory=list)


class _Walk:
    """One pass over a page's tokens, knowing the heading each paragraph stands under."""

    def __init__(
        self, path: str, env: dict[str, Any], first_line: int, lines: list[str], readings: Readings
    ) -> None:
        self.path, self.env, self.offset, self.lines = path, env, first_line, lines
        self.readings = readings
        self.heading = ("", "")
        self.anchors: dict[str, int] = {}
        self.lead_in: _LeadIn | None = None
        self.lead_ins: list[tuple[str, int]] = []
        """The lead-in sentence and last line of each list the walk is in, outermost first."""

    def run(self, tokens: Sequence[Token]) -> Iterator[Statement]:
        for index, token in enumerate(tokens):
            if token.type != "inline" or token.map is None:
                continue
            line = token.map[0] + self.offset
            self.lead_ins = [lead for lead in self.lead_ins if lead[1] >= line]
            if self.lead_in is not None and line > self.lead_in.end:
                yield self._close_lead_in()
            opener = tokens[index - 1].type if index else ""
            if opener == "heading_open":
                self.heading = self._heading(token)
            elif opener in _PROSE:
                yield from self._prose(token, line, tokens, index)
        if self.lead_in is not None:
            yield self._close_lead_in()

    def _prose(
        self, token: Token, line: int, tokens: Sequence[Token], index: int
    ) -> Iterator[Statement]:
        following = _following_list(tokens, index)
        context = " ".join(lead for lead, _ in self.lead_ins)
        if following is not None and token.content.rstrip().rstrip("*_").endswith(":"):
            # Its last sentence, ending in a colon, leads in the list after it: the subject
            # (`Server implementors:`) its items' statements leave out.
            last = self.readings.last(token.content, self.env)
            if last.endswith(":"):
                self.lead_ins.append((last, following + self.offset - 1))
        if self.lead_in is None and not may_hold_keyword(token.content):
            return  # no statement in it, and no lead-in's list to take it as an item
        text, read = self.readings.read(token.content, self.env)
        if self.lead_in is not None:
            self.lead_in.items.append(text)
        path, heading = self.path, self.heading
        found = [
            Statement(path, s.line + line, s.end + line, s.keyword, s.text, *heading, context)
            for s in read
        ]
        ends_in_colon = bool(found) and found[-1].text.endswith(":")
        if ends_in_colon and following is not None and self.lead_in is None:  # else in its list
            self.lead_in = _LeadIn(found.pop(), following + self.offset - 1)
        yield from found

    def _close_lead_in(self) -> Statement:
        lead, self.lead_in = self.lead_in, None
        assert lead is not None
        end = lead.end
        while end > lead.statement.end and not self.lines[end - self.offset].strip():
            end -= 1  # a list's lines run on over the blank lines after it
        text = " ".join([lead.statement.text, *(item for item in lead.items if item)])
        return replace(lead.statement, end=end, text=text)

    def _heading(self, token: Token) -> tuple[str, str]:
        text = self.readings.read(token.content, self.env)[0]
        anchor = slug(text)
        seen = self.anchors.get(anchor, 0)
        self.anchors[anchor] = seen + 1
        return text, anchor if not seen else f"{anchor}-{seen}"


def _following_list(tokens: Sequence[Token], index: int) -> int | None:
    """The line after the list that comes right after the paragraph at `index`, if any."""
    after = index + 2  # inline, paragraph_close, then the next block
    if after < len(tokens) and tokens[after].type in ("bullet_list_open", "ordered_list_open"):
        mapped = tokens[after].map
        return mapped[1] if mapped else None
    return None


def inline_pieces(content: str, line: int, env: dict[str, Any]) -> list[Piece]:
    """The plain text of inline content from `line`, piece by piece (code spans marked)."""
    mark = next((m for m in _MARKS if m not in content), None)
    if mark is None:  # every mark in the page: lines of code spans may be off by their breaks
        mark = "\n"
    marked = content if mark == "\n" else content.replace("\n", mark + "\n")
    pieces: list[Piece] = []
    for child in _PARSER.parseInline(marked, env)[0].children or []:
        line = _add(pieces, child, line, mark)
    return pieces


def _add(pieces: list[Piece], token: Token, line: int, mark: str) -> int:
    """Add a child token's text to `pieces`; the line after it."""
    if token.type in ("softbreak", "hardbreak"):
        pieces.append(Piece(" ", line))
        return line + (mark == "\n")
    if token.type in ("text", "code_inline"):
        for number, part in enumerate(token.content.split(mark)):
            if part:
                pieces.append(Piece(part, line + number, token.type == "code_inline"))
        return line + token.content.count(mark)
    if token.type == "html_inline":  # a comment or a tag: not prose, but it may hold breaks
        return line + token.content.count(mark)
    return line  # link and emphasis markers: the text between them comes as text tokens


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and Mintlify make it."""
    kept = re.sub(r"[^\w\- ]", "", heading.lower())
    return kept.strip().replace(" ", "-")


@dataclass(frozen=True)
class Item:
    """One change a changelog lists."""

    path: str
    line: int
    end: int
    text: str
    heading: str


def items(path: str, text: str) -> list[Item]:
    """The items of every top-level list of a changelog page, in order, each under its
    heading."""
    tokens, env = parse(plain_markdown(text))
    read = Readings().read
    found: list[Item] = []
    heading, depth = "", 0
    current: tuple[int, int, list[str]] | None = None
    for index, token in enumerate(tokens):
        if token.type == "inline" and index and tokens[index - 1].type == "heading_open":
            heading = read(token.content, env)[0]
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif token.type == "list_item_open" and depth == 1 and token.map:
            current = (token.map[0] + 1, token.map[1], [])
        elif token.type == "list_item_close" and depth == 1 and current is not None:
            found.append(Item(path, current[0], current[1], " ".join(current[2]), heading))
            current = None
        elif token.type == "inline" and current is not None:
            current[2].append(read(token.content, env)[0])
    return found

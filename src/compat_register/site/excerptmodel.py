"""What an excerpt is, as values: the lines a citation shows, and each register's file of them."""

from __future__ import annotations

import fnmatch
import hashlib
import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache

from ..model.registers import Citation

CARRIAGE_RETURN = "\u240d"
"""How a lone `\r` inside a line is shown (␍): Python-Markdown and Pygments would end the
line there, which git does not, and the line numbers would drift."""


@dataclass(frozen=True)
class Block:
    """The lines of a file an excerpt shows, numbered as in the file, the cited ones marked."""

    language: str
    """The highlighting language (`language_of`), `text` when unknown."""
    first_line: int
    """The file's number of the block's first line."""
    marked: tuple[int, int]
    """The first and last cited line, counted from 1 within the block."""
    lines: tuple[str, ...]
    """One per line of the file, whatever it holds, without its line end."""

    def code(self) -> str:
        """The lines, each ended by a newline (a blank edge line is a line too)."""
        return "".join(line + "\n" for line in self.lines)

    def markdown(self) -> str:
        """The block as a fenced block of the site's Markdown: what names its key and HTML."""
        body = "\n".join(self.lines)
        if self.lines and not self.lines[-1].strip():
            body += "\n"  # the newline before the closing fence ends the block, not a line
        longest = max((len(run) for run in re.findall(r"`{3,}", body)), default=2)
        fence = "`" * (longest + 1)
        low, high = self.marked
        marked = str(low) if low == high else f"{low}-{high}"
        options = f'linenums="{self.first_line}" hl_lines="{marked}"'
        return f"{fence} {self.language} {options}\n{body}\n{fence}"


@dataclass(frozen=True)
class Excerpt:
    """The cited lines of a citation, in context, as its register's excerpt file holds them."""

    key: str
    """Its anchor: `x` and a digest of its title and block (the same lines cited twice are one)."""
    title: str
    """`path:lines @ sha`, as plain text."""
    block: Block

    @classmethod
    def of(cls, title: str, block: Block) -> Excerpt:
        return cls(_key(title, block), title, block)


@lru_cache(maxsize=1 << 16)  # kept by content: a rebuild under `mkdocs serve` makes it again
def _key(title: str, block: Block) -> str:
    return "x" + hashlib.sha256(f"{title}\n{block.markdown()}".encode()).hexdigest()[:12]


@dataclass
class ExcerptFile:
    """The excerpts of one register page, for its excerpt file (`site.excerpts`)."""

    slug: str
    title: str
    """The register's title."""
    excerpts: list[Excerpt]


def excerpt_block(citation: Citation, lines: list[str], first_line: int) -> Block:
    """The cited lines as a block numbered from `first_line`, the cited ones marked."""
    shown = tuple(line.rstrip("\r\n").replace("\r", CARRIAGE_RETURN) for line in lines)
    low = citation.start - first_line + 1
    high = min(citation.end - first_line + 1, len(lines))
    language = language_of(citation.repo_path or citation.path)
    return Block(language, first_line, (low, high), shown)


def language_of(path: str) -> str:
    """The highlighting language of a file, from its name (`text` when unknown)."""
    name = posixpath.basename(path)
    stem, extension = posixpath.splitext(name)
    return _language("x" + extension if extension and stem else name)


@lru_cache(maxsize=1024)  # Pygments tries every lexer's patterns on each lookup
def _language(name: str) -> str:
    if name.endswith((".md", ".mdx")):
        return "markdown"
    # Pygments' own table: find_lexer_class_for_filename loads every lexer plugin (seconds).
    from pygments.lexers._mapping import LEXERS  # noqa: PLC0415 - only when highlighting

    for _module, _name, aliases, patterns, _mimetypes in LEXERS.values():
        if aliases and any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns):
            return str(aliases[0])
    return "text"

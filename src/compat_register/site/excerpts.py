"""Excerpts: the lines a citation shows, as values, and each register's excerpts, highlighted,
in one HTML file beside its page, which `register.js` shows in the page when one is opened
(the page stays light, its search index free of code). Hand-written beside pymdownx.highlight,
which makes a formatter per block (a millisecond each); test_excerpt_html.py holds them equal."""

from __future__ import annotations

import copy
import fnmatch
import hashlib
import html
import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from pygments import highlight
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.lexers._mapping import LEXERS
from pygments.util import ClassNotFound
from pymdownx.highlight import DEFAULT_CONFIG, RE_PYG_CODE, BlockHtmlFormatter

from ..model.registers import Citation
from ..storage import makers, shape
from ..storage.atomic import write_changed
from . import sanitize
from .extensions import MARKDOWN_EXTENSIONS

CARRIAGE_RETURN = "\u240d"
"""How a lone `\r` inside a line is shown (␍): Python-Markdown and Pygments would end the
line there, which git does not, and the line numbers would drift."""


@dataclass(frozen=True)
class Block:
    """The lines of a file an excerpt shows (each without its line end), the first numbered
    `first_line`; `marked`, the first and last cited line, counted from 1 in the block."""

    language: str
    first_line: int
    marked: tuple[int, int]
    lines: tuple[str, ...]

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
    """The cited lines of a citation, in context, headed by `title` (`path:lines @ sha`);
    `key`, its anchor, a digest of both (the same lines cited twice are one)."""

    key: str
    title: str
    block: Block

    @classmethod
    def of(cls, title: str, block: Block) -> Excerpt:
        return cls(_key(title, block), title, block)


@lru_cache(maxsize=1 << 16)  # kept by content: a rebuild under `mkdocs serve` makes it again
def _key(title: str, block: Block) -> str:
    return "x" + hashlib.sha256(f"{title}\n{block.markdown()}".encode()).hexdigest()[:12]


@dataclass
class ExcerptFile:
    """The excerpts of one register page (its register's slug and title)."""

    slug: str
    title: str
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
    for _module, _name, aliases, patterns, _mimetypes in LEXERS.values():
        if aliases and any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns):
            return str(aliases[0])
    return "text"


HIGHLIGHT = "pymdownx.highlight"

TAB_LENGTH = 4
"""Python-Markdown's tab length: it expands a page's tabs before its code is highlighted."""


@dataclass(frozen=True)
class HighlightOptions:
    """The options of pymdownx.highlight that change how an excerpt looks, as a site sets
    them (its defaults otherwise)."""

    css_class: str = DEFAULT_CONFIG["css_class"][0]
    pygments_style: str = DEFAULT_CONFIG["pygments_style"][0]
    noclasses: bool = DEFAULT_CONFIG["noclasses"][0]
    linenums_style: str = DEFAULT_CONFIG["linenums_style"][0]
    linenums_special: int = DEFAULT_CONFIG["linenums_special"][0]
    language_prefix: str = DEFAULT_CONFIG["language_prefix"][0]
    pygments_lang_class: bool = DEFAULT_CONFIG["pygments_lang_class"][0]
    line_spans: str = DEFAULT_CONFIG["line_spans"][0]
    line_anchors: str = DEFAULT_CONFIG["line_anchors"][0]
    anchor_linenums: bool = DEFAULT_CONFIG["anchor_linenums"][0]
    extend_pygments_lang: tuple[tuple[str, str, tuple[tuple[str, Any], ...]], ...] = ()
    """(name, Pygments language, its lexer options) of each language a site adds."""

    @classmethod
    def of(cls, configs: Mapping[str, Mapping[str, Any]]) -> HighlightOptions:
        """The options in a site's `mdx_configs` (as MkDocs holds them)."""
        given = dict(configs.get(HIGHLIGHT) or {})
        known = {name: given[name] for name in cls.__dataclass_fields__ if name in given}
        known["extend_pygments_lang"] = tuple(
            (str(item["name"]).lower(), str(item.get("lang")), tuple(sorted(options.items())))
            for item in given.get("extend_pygments_lang") or ()
            if isinstance(item, Mapping) and item.get("name") is not None
            for options in [dict(item.get("options") or {})]
        )
        return cls(**known)


class Highlighter:
    """Excerpt blocks -> clean HTML, with the highlighting options of a site's `mdx_configs`,
    kept between builds in a `store` (read back cleaned again: not trusted as HTML)."""

    def __init__(
        self,
        configs: Mapping[str, Mapping[str, Any]] | None = None,
        store: Callable[[str], ExcerptStore] | None = None,
    ):
        self.options = HighlightOptions.of(MARKDOWN_EXTENSIONS if configs is None else configs)
        self.settings = repr(self.options)
        """What the HTML depends on besides a block, the same from one process to the next."""
        self.store = store(self.settings) if store is not None else None
        self.problems: list[str] = []
        """Why the store could not be written, once per failed write."""
        self._lexers: dict[str, tuple[Lexer, str]] = {}

    @cached_property
    def _formatter(self) -> BlockHtmlFormatter:
        """pymdownx.highlight's formatter with the options, made once for blocks to copy."""
        o = self.options
        anchors = o.line_anchors or ("__codelineno" if o.anchor_linenums else "")
        return BlockHtmlFormatter(
            cssclass=o.css_class,
            linenos=o.linenums_style,
            linenospecial=max(o.linenums_special, 0),
            style=o.pygments_style,
            noclasses=o.noclasses,
            wrapcode=True,
            linespans=f"{o.line_spans}-0" if o.line_spans else "",
            lineanchors=f"{anchors}-0" if anchors else "",
            anchorlinenos=o.anchor_linenums,
        )

    def html(self, block: Block) -> str:
        """A block as highlighted, cleaned HTML."""
        return sanitize.clean_excerpt(self._highlight(block))

    def _highlight(self, block: Block) -> str:
        """What pymdownx.highlight makes of the block in a page (`language-go highlight`)."""
        formatter = copy.copy(self._formatter)  # shares the style's tables, not the lines
        formatter.linenostart = block.first_line
        low, high = block.marked
        formatter.hl_lines = set(range(low, high + 1))
        lexer, language = self._lexer(block.language)
        code = highlight(block.code().expandtabs(TAB_LENGTH), lexer, formatter)
        opening = RE_PYG_CODE.match(code)  # pymdownx.highlight's own reading of it
        if opening is not None and self.options.pygments_lang_class:
            named = f"{self.options.language_prefix}{language}"
            classes = f"{named} {opening[3].strip()}" if opening[2] else named
            code = f'<div class="{classes}">' + code[opening.end() :]
        return code.strip()

    def _lexer(self, name: str) -> tuple[Lexer, str]:
        """The lexer of a language and the name its class shows (`text` for one unknown)."""
        if name not in self._lexers:
            added = self.options.extend_pygments_lang
            language, options = next(
                ((lang, dict(opts)) for n, lang, opts in added if n == name.lower()), (name, {})
            )
            try:
                self._lexers[name] = (get_lexer_by_name(language, stripnl=False, **options), name)
            except ClassNotFound:
                text = get_lexer_by_name("text", stripnl=False)
                self._lexers[name] = (text, text.aliases[0])
        return self._lexers[name]

    def document(self, file: ExcerptFile) -> str:
        """The file's HTML document, its excerpts written to the store if they are new."""
        cache = self.store.cache(file.slug) if self.store is not None else None
        blocks = cache.data["blocks"] if cache is not None else {}
        stored = {k: sanitize.clean_excerpt(h) for k, h in blocks.items()}
        made = {}
        for excerpt in file.excerpts:
            key = digest(excerpt.block.markdown())
            made[key] = stored[key] if key in stored else self.html(excerpt.block)
        if cache is not None and made != stored:
            cache.data["blocks"] = made
            if problem := cache.save():
                self.problems.append(problem)
        return document(file, lambda block: made[digest(block.markdown())])


STORED = shape.checker(
    shape.record({"settings": {"type": "string"}, "blocks": shape.strings({"type": "string"})})
)
"""What an excerpt cache file holds: anything else is not used."""


class ExcerptStore:
    """Highlighted excerpts kept between builds for one highlighting's settings: one JSON
    file per register, its excerpts' HTML by block digest. A file of other settings or
    library versions is not used; one not written costs time only."""

    VERSION = 2
    """Raised whenever what an excerpt's HTML holds changes in this package."""
    MAKERS = ("compat-register", "pymdown-extensions", "pygments", "nh3")
    """The distributions whose version changes the HTML of an excerpt."""

    def __init__(self, folder: Path, settings: str) -> None:
        self.folder = folder
        self.settings = digest(f"{makers.made_by(self.VERSION, *self.MAKERS)}\n{settings}")
        self.dropped: list[str] = []
        """Each file read that was not used, as a line naming it (`shape.JsonCache.dropped`)."""

    def path(self, slug: str) -> Path:
        """`<folder>/<settings>/<slug>.json`: two highlightings never share a file."""
        return self.folder / self.settings[:16] / f"{slug}.json"

    def cache(self, slug: str) -> shape.JsonCache:
        """The register's stored excerpts (`blocks`: HTML by block digest), read once."""
        cache = shape.JsonCache(
            self.path(slug), self.settings, STORED, ["blocks"], "the excerpt cache", "settings"
        )
        if cache.dropped is not None:
            self.dropped.append(cache.dropped)
        return cache


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


STYLE = (
    "body{font-family:system-ui,sans-serif;margin:1rem auto;max-width:60rem;padding:0 1rem}"
    "h2{font-size:1rem;margin-top:2rem}pre{margin:0}td.linenos{padding-right:1rem;opacity:.8}"
    ".hll{font-weight:700;box-shadow:inset .2rem 0 0 #4287ff}"
)
"""How an excerpt file looks opened on its own: the cited lines marked as on the page."""


def documents(
    files: dict[str, ExcerptFile], highlighter: Highlighter | None = None
) -> dict[str, str]:
    """Each excerpt file (`Renderer.excerpts`) as its HTML document, by path."""
    highlighter = highlighter or Highlighter()
    return {uri: highlighter.document(file) for uri, file in files.items()}


def write_documents(
    files: Mapping[str, ExcerptFile], highlighter: Highlighter, folder: Path
) -> dict[str, Path]:
    """Each excerpt file's document written under `folder` when its bytes change, by path, as
    soon as it is made: never all held at once (20,000 excerpts weigh some 60 MB)."""
    written = {}
    for uri, file in files.items():
        written[uri] = folder / uri
        write_changed(written[uri], highlighter.document(file).encode("utf-8"))
    return written


def document(file: ExcerptFile, highlight_block: Callable[[Block], str]) -> str:
    """The HTML document of one register's excerpts: a section per excerpt, its `id` the
    excerpt's key, headed by `path:lines @ sha`."""
    heading = html.escape(f"Excerpts of {file.title}")
    sections = "\n".join(
        f'<section id="{key}" aria-labelledby="{key}-title">\n'
        f'<h2 id="{key}-title">{html.escape(excerpt.title)}</h2>\n'
        f"{highlight_block(excerpt.block)}\n</section>"
        for excerpt in file.excerpts
        for key in [html.escape(excerpt.key)]
    )
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        '<meta name="robots" content="noindex">\n'
        f"<title>{heading}</title>\n<style>{STYLE}</style>\n</head>\n"
        f"<body>\n<main>\n<h1>{heading}</h1>\n"
        f"{sections}\n</main>\n</body>\n</html>\n"
    )

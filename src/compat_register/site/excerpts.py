"""Excerpt files: each register's excerpts, highlighted, in one HTML file beside its page,
which `register.js` shows in the page when one is opened (the page stays light, its search
index free of code). Hand-written beside pymdownx.highlight, which makes a formatter per
block (a millisecond each); tests/site/test_excerpt_html.py holds the two equal."""

from __future__ import annotations

import copy
import html
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from pygments import highlight
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
from pymdownx.highlight import DEFAULT_CONFIG, RE_PYG_CODE, BlockHtmlFormatter

from ..storage.atomic import write_changed
from . import excerptstore, sanitize
from .excerptmodel import Block, Excerpt, ExcerptFile
from .excerptstore import ExcerptStore
from .extensions import MARKDOWN_EXTENSIONS

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
        known["extend_pygments_lang"] = tuple(_added_languages(given))
        return cls(**known)

    def formatter(self) -> BlockHtmlFormatter:
        """pymdownx.highlight's formatter with these options, made once for blocks to copy."""
        anchors = self.line_anchors or ("__codelineno" if self.anchor_linenums else "")
        return BlockHtmlFormatter(
            cssclass=self.css_class,
            linenos=self.linenums_style,
            linenospecial=max(self.linenums_special, 0),
            style=self.pygments_style,
            noclasses=self.noclasses,
            wrapcode=True,
            linespans=f"{self.line_spans}-0" if self.line_spans else "",
            lineanchors=f"{anchors}-0" if anchors else "",
            anchorlinenos=self.anchor_linenums,
        )

    def language(self, name: str) -> tuple[str, dict[str, Any]]:
        """The Pygments language a block's language names, and its lexer options."""
        for added, language, options in self.extend_pygments_lang:
            if added == name.lower():
                return language, dict(options)
        return name, {}


def _added_languages(given: Mapping[str, Any]) -> Iterable[tuple[str, str, tuple[Any, ...]]]:
    """`extend_pygments_lang` as pymdownx.highlight reads it: name, language, options."""
    for item in given.get("extend_pygments_lang") or ():
        if isinstance(item, Mapping) and item.get("name") is not None:
            options = tuple(sorted(dict(item.get("options") or {}).items()))
            yield str(item["name"]).lower(), str(item.get("lang")), options


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
        return self.options.formatter()

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
            language, options = self.options.language(name)
            try:
                self._lexers[name] = (get_lexer_by_name(language, stripnl=False, **options), name)
            except ClassNotFound:
                text = get_lexer_by_name("text", stripnl=False)
                self._lexers[name] = (text, text.aliases[0])
        return self._lexers[name]

    def document(self, file: ExcerptFile) -> str:
        """The file's HTML document, its excerpts written to the store if they are new."""
        stored = {}
        if self.store is not None:
            stored = {k: sanitize.clean_excerpt(h) for k, h in self.store.read(file.slug).items()}
        made = {}
        for excerpt in file.excerpts:
            key = _digest(excerpt.block)
            made[key] = stored[key] if key in stored else self.html(excerpt.block)
        if self.store is not None and made != stored:
            problem = self.store.write(file.slug, made)
            if problem is not None:
                self.problems.append(problem)
        return document(file, lambda block: made[_digest(block)])


def _digest(block: Block) -> str:
    """A block's key in the store: the digest of its Markdown (`Block.markdown`)."""
    return excerptstore.digest(block.markdown())


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
    sections = "\n".join(_section(excerpt, highlight_block) for excerpt in file.excerpts)
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


def _section(excerpt: Excerpt, highlight_block: Callable[[Block], str]) -> str:
    key = html.escape(excerpt.key)
    return (
        f'<section id="{key}" aria-labelledby="{key}-title">\n'
        f'<h2 id="{key}-title">{html.escape(excerpt.title)}</h2>\n'
        f"{highlight_block(excerpt.block)}\n</section>"
    )

"""Excerpt files: each register's excerpts, highlighted, in one HTML file beside its page.

A register page keeps each citation's link, quote and a collapsed excerpt whose body is a
link into this file (`registers/meta/excerpts.html#x…`). `register.js` fetches the file
when a reader first opens an excerpt and moves the highlighted block into the page; without
JavaScript the link opens the file at that excerpt. So the page stays light, and excerpt
code never reaches the search index (material indexes pages, not static files).

The blocks are highlighted by Python-Markdown with the site's own extensions (the same
pymdownx.highlight options as the page would have used), cleaned by `sanitize.clean_excerpt`
and cached by their Markdown: under `mkdocs serve` an edit highlights only the excerpts
it changed.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

import markdown as python_markdown

from . import sanitize
from .extensions import MARKDOWN_EXTENSIONS
from .render import Excerpt, ExcerptFile


class Highlighter:
    """Excerpt blocks -> clean HTML, with one site's Markdown extensions, each block once."""

    def __init__(
        self,
        extensions: Sequence[Any] = tuple(MARKDOWN_EXTENSIONS),
        configs: dict[str, dict[str, Any]] | None = None,
    ):
        self.extensions = list(extensions)
        self.configs = MARKDOWN_EXTENSIONS if configs is None else configs
        self._markdown: python_markdown.Markdown | None = None
        self._html: dict[str, str] = {}
        self._documents: dict[int, tuple[ExcerptFile, str]] = {}

    def settings(self) -> str:
        """What the HTML depends on besides a block: a new value means a new Highlighter."""
        return repr((self.extensions, sorted(self.configs.items())))

    def html(self, block: str) -> str:
        """A fenced block as highlighted, cleaned HTML."""
        found = self._html.get(block)
        if found is None:
            if self._markdown is None:
                self._markdown = python_markdown.Markdown(
                    extensions=self.extensions, extension_configs=self.configs
                )
            self._markdown.reset()
            found = sanitize.clean_excerpt(self._markdown.convert(block))
            self._html[block] = found
        return found

    def document(self, file: ExcerptFile) -> str:
        """`document(file)`, made once per file (a page reused by a rebuild keeps its
        ExcerptFile, and so its document)."""
        found = self._documents.get(id(file))
        if found is None or found[0] is not file:
            found = (file, document(file, self))
            self._documents[id(file)] = found
        return found[1]

    def keep_only(self, blocks: Iterable[str], files: Iterable[ExcerptFile] = ()) -> None:
        """Forget every block not in `blocks` and every document but those of `files`
        (what the last build no longer shows)."""
        wanted = set(blocks)
        self._html = {block: text for block, text in self._html.items() if block in wanted}
        kept = {id(file) for file in files}
        self._documents = {key: doc for key, doc in self._documents.items() if key in kept}


def documents(
    files: dict[str, ExcerptFile], highlighter: Highlighter | None = None
) -> dict[str, str]:
    """Each excerpt file (`Renderer.excerpts`) as its HTML document, by path; the
    highlighter forgets the blocks none of them holds."""
    highlighter = highlighter or Highlighter()
    written = {uri: highlighter.document(file) for uri, file in files.items()}
    blocks = (excerpt.block for file in files.values() for excerpt in file.excerpts)
    highlighter.keep_only(blocks, files.values())
    return written


def document(file: ExcerptFile, highlighter: Highlighter) -> str:
    """The HTML document of one register's excerpts: a section per excerpt, its `id` the
    excerpt's key, headed by `path:lines @ sha`."""
    heading = html.escape(f"Excerpts of {file.title}")
    sections = "\n".join(_section(excerpt, highlighter) for excerpt in file.excerpts)
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        '<meta name="robots" content="noindex">\n'
        f"<title>{heading}</title>\n</head>\n<body>\n<main>\n<h1>{heading}</h1>\n"
        f"{sections}\n</main>\n</body>\n</html>\n"
    )


def _section(excerpt: Excerpt, highlighter: Highlighter) -> str:
    key = html.escape(excerpt.key)
    return (
        f'<section id="{key}" aria-labelledby="{key}-title">\n'
        f'<h2 id="{key}-title">{html.escape(excerpt.title)}</h2>\n'
        f"{highlighter.html(excerpt.block)}\n</section>"
    )

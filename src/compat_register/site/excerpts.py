"""Excerpt files: each register's excerpts, highlighted, in one HTML file beside its page.

A register page keeps each citation's permalink and quote, and a link titled `path:lines @
sha` into this file (`registers/meta/excerpts.html#x…`). `register.js` folds each link into
a collapsed excerpt, fetches the file when a reader first opens one and shows the
highlighted block in the page; without JavaScript the link opens the file at that excerpt.
So the page stays light, and excerpt code never reaches the search index (material indexes
pages, not static files).

The blocks are highlighted by Python-Markdown with the site's own extensions (the same
pymdownx.highlight options as the page would have used), cleaned by `sanitize.clean_excerpt`
and kept by their Markdown: under `mkdocs serve` an edit highlights only the excerpts it
changed, and with a store (`excerptstore`) a new build only those no build highlighted.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import markdown as python_markdown

from . import excerptstore, sanitize
from .excerptstore import ExcerptStore
from .extensions import MARKDOWN_EXTENSIONS, fingerprint
from .render import Excerpt, ExcerptFile

HIGHLIGHT = "pymdownx.highlight"


def keeping_edges(configs: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A site's extension options, but Pygments told to keep a block's first and last
    lines when they are blank (`stripnl: false`): stripped, they would take their line
    numbers with them, and every number and the cited-line mark would move up one line.
    Only excerpts are highlighted so; a site's own pages keep its options."""
    highlight = {**configs.get(HIGHLIGHT, {}), "stripnl": False}
    return {**configs, HIGHLIGHT: highlight}


class Highlighter:
    """Excerpt blocks -> clean HTML, with one site's Markdown extensions, each block once.

    With a `store` (`ExcerptStore`), a register's excerpts highlighted by an earlier build
    are read from it, and what a register gained is written back.
    """

    def __init__(
        self,
        extensions: Sequence[Any] = tuple(MARKDOWN_EXTENSIONS),
        configs: dict[str, dict[str, Any]] | None = None,
        store: Callable[[str], ExcerptStore] | None = None,
    ):
        self.extensions = list(extensions)
        self.configs = keeping_edges(MARKDOWN_EXTENSIONS if configs is None else configs)
        self._settings = fingerprint(self.extensions, self.configs)
        self.store = store(self.settings()) if store is not None else None
        self.folder = self.store.folder if self.store is not None else None
        self.problems: list[str] = []
        """Why the store could not be written, once per failed write."""
        self._markdown: python_markdown.Markdown | None = None
        self._html: dict[str, str] = {}
        self._stored: dict[str, dict[str, str]] = {}
        """Register slug -> its stored excerpts, by block digest (read once)."""
        self._documents: dict[str, tuple[ExcerptFile, str]] = {}

    def settings(self) -> str:
        """What the HTML depends on besides a block: a new value means a new Highlighter.
        The same from one process to the next (no object addresses), so that the store's
        files stay usable."""
        return self._settings

    def html(self, block: str, stored: dict[str, str] | None = None) -> str:
        """A fenced block as highlighted, cleaned HTML (`stored`: found ones, by digest)."""
        found = self._html.get(block)
        if found is None and stored:
            found = stored.get(excerptstore.digest(block))
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
        ExcerptFile, and so its document), its new excerpts written to the store."""
        found = self._documents.get(file.slug)
        if found is None or found[0] is not file:
            stored = self._read(file.slug)
            found = (file, document(file, lambda block: self.html(block, stored)))
            self._documents[file.slug] = found
            self._write(file, stored)
        return found[1]

    def _read(self, slug: str) -> dict[str, str]:
        if self.store is None:
            return {}
        if slug not in self._stored:
            self._stored[slug] = self.store.read(slug)
        return self._stored[slug]

    def _write(self, file: ExcerptFile, stored: dict[str, str]) -> None:
        """Store the file's excerpts when they are not what is stored already."""
        if self.store is None:
            return
        blocks = {excerptstore.digest(e.block): self._html[e.block] for e in file.excerpts}
        if blocks == stored:
            return
        problem = self.store.write(file.slug, blocks)
        if problem is not None:
            self.problems.append(problem)
        self._stored[file.slug] = blocks

    def keep_only(self, blocks: Iterable[str], files: Iterable[ExcerptFile] = ()) -> None:
        """Forget every block not in `blocks` and every document but those of `files`
        (what the last build no longer shows)."""
        wanted = set(blocks)
        self._html = {block: text for block, text in self._html.items() if block in wanted}
        kept = {file.slug for file in files}
        self._documents = {key: doc for key, doc in self._documents.items() if key in kept}


STYLE = (
    "body{font-family:system-ui,sans-serif;margin:1rem auto;max-width:60rem;padding:0 1rem}"
    "h2{font-size:1rem;margin-top:2rem}pre{margin:0}td.linenos{padding-right:1rem;opacity:.8}"
    ".hll{font-weight:700;box-shadow:inset .2rem 0 0 #4287ff}"
)
"""How an excerpt file looks when it is opened on its own (without JavaScript): the cited
lines marked as on the page, by a bar and bold text. The page takes only the blocks."""


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


def document(file: ExcerptFile, highlight: Callable[[str], str]) -> str:
    """The HTML document of one register's excerpts: a section per excerpt, its `id` the
    excerpt's key, headed by `path:lines @ sha`, its block as `highlight` makes it."""
    heading = html.escape(f"Excerpts of {file.title}")
    sections = "\n".join(_section(excerpt, highlight) for excerpt in file.excerpts)
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


def _section(excerpt: Excerpt, highlight: Callable[[str], str]) -> str:
    key = html.escape(excerpt.key)
    return (
        f'<section id="{key}" aria-labelledby="{key}-title">\n'
        f'<h2 id="{key}-title">{html.escape(excerpt.title)}</h2>\n'
        f"{highlight(excerpt.block)}\n</section>"
    )

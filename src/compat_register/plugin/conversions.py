"""What MkDocs made of each generated page, kept between rebuilds (`mkdocs serve`):
`Conversions` puts it back when a page's Markdown and its surroundings are the same."""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from .. import api

if TYPE_CHECKING:
    from mkdocs.structure.toc import TableOfContents


@dataclass
class Converted:
    """A generated page as MkDocs converted it: what a rebuild puts back when the page's
    Markdown and its surroundings (`Conversions.context`) are the same."""

    digest: bytes
    """The digest of the page's Markdown (`digest`): the reuse needs only its equality, and
    the text is this build's own (some 20 MB held twice at 5,000 entries otherwise)."""
    title: str
    """The page's first heading line: all MkDocs converts when the rest is reused, so that
    it finds the title where it always does."""
    html: bytes
    """The page's HTML, compressed (`zlib`): a rebuild puts back few of them, and held as
    text they are the largest part of a served site's memory."""
    toc: TableOfContents
    anchors: set[str]
    links: dict[str, dict[str, str]] | None
    """The links to anchors of other pages, by the linked page's path (not its `File`,
    which belongs to the build that made it)."""
    context: tuple[Any, ...]


class Conversions:
    """What MkDocs made of each generated page, kept between rebuilds (`mkdocs serve`).

    Converting a register page of thousands of citations is most of a rebuild: a page
    whose Markdown, Markdown extensions, URL style and set of files are those of the last
    build converts to the same HTML, table of contents and anchors, so they are put back.
    The links a page makes to other pages' anchors are kept by path and bound to this
    build's files, so that MkDocs checks them against this build's pages."""

    def __init__(self) -> None:
        self.converted: dict[str, Converted] = {}
        self.reused: dict[str, str] = {}
        """This build's pages whose conversion is put back, with their Markdown."""
        self.context: tuple[Any, ...] = ()
        self.keep = False

    def start(self, config: MkDocsConfig, files: Files, generated: set[str], keep: bool) -> None:
        """A new build: forget the pages no longer generated; with `keep` (a served site),
        remember what MkDocs makes of each page, for the next build."""
        self.reused = {}
        self.keep = keep
        self.context = (
            api.extensions_fingerprint(config.markdown_extensions, config.mdx_configs or {}),
            config.use_directory_urls,
            tuple(sorted(file.src_uri for file in files)),
        )
        self.converted = {uri: c for uri, c in self.converted.items() if uri in generated}

    def markdown(self, page: Page, markdown: str) -> str:
        last = self.converted.get(page.file.src_uri)
        if last is None or last.context != self.context or last.digest != digest(markdown):
            return markdown
        self.reused[page.file.src_uri] = markdown
        return last.title

    def content(self, page: Page, html: str, files: Files) -> str:
        uri = page.file.src_uri
        if uri in self.reused:
            return self._restore(self.converted[uri], self.reused[uri], page, files)
        html = api.clean_html(html)
        title = first_heading(page.markdown or "")
        if title is not None and self.keep:
            links = getattr(page, "links_to_anchors", None)
            self.converted[uri] = Converted(
                digest=digest(page.markdown or ""),
                title=title,
                html=zlib.compress(html.encode("utf-8"), 1),
                toc=page.toc,
                anchors=set(page.present_anchor_ids or ()),
                links=None if links is None else {f.src_uri: dict(a) for f, a in links.items()},
                context=self.context,
            )
        return html

    @staticmethod
    def _restore(last: Converted, markdown: str, page: Page, files: Files) -> str:
        """Put back on `page` its `markdown` and what converting it gave last time; returns
        its HTML."""
        page.markdown = markdown
        page.toc = last.toc
        page.present_anchor_ids = set(last.anchors)
        if last.links is not None:
            bound = {files.get_file_from_path(uri): dict(a) for uri, a in last.links.items()}
            page.links_to_anchors = {file: a for file, a in bound.items() if file is not None}
        return zlib.decompress(last.html).decode("utf-8")


def digest(markdown: str) -> bytes:
    """A page's Markdown as `Converted` holds it: equal digests, equal texts."""
    return hashlib.sha256(markdown.encode("utf-8")).digest()


def first_heading(markdown: str) -> str | None:
    """The first `# ` heading line of a page (after its front matter), or None."""
    found = re.search(r"^# .*$", markdown, re.MULTILINE)
    return found[0] + "\n" if found else None

"""What a rebuild under `mkdocs serve` need not make again: `KeptFiles`.

After an edit of one register file most generated pages are what they were: the same
Markdown, converted with the same extensions, in the same nav, with the same mkdocs.yml,
theme and hand-written pages around them. MkDocs would still draw each with the theme
(material draws the whole nav on every page) and the search plugin would read each again,
which is most of a rebuild. So a served build keeps such a page out of the build
(`InclusionLevel.EXCLUDED`, set once the nav is made, so that the nav still lists it, with
its title, anchors and links as the last build left them) and puts back what the last
build wrote for it: its HTML file, moved aside before MkDocs cleans the site folder and
back once the build is done, and its entries of the search index, in their place. A
generated file that is no page (an excerpt file, a download, an asset) is kept when its
content is the same.

Only with plugins known to read no page in a way a kept page would miss (`SAFE_PLUGINS`),
and a search index written as this module reads and writes it back. tests/test_plugin.py
holds every served rebuild to a cold build, file by file.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import tempfile
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

SAFE_PLUGINS = frozenset({"search", "material/search", "register"})
"""The plugins that read nothing of a page a kept one would miss: the search plugins (this
module puts back a kept page's entries). Not the tags plugin: a register page has tags."""

SEARCH_INDEX = "search/search_index.json"
FORMATS: tuple[dict[str, Any], ...] = (
    {"separators": (",", ":"), "default": str},  # material's search
    {"separators": (",", ":"), "default": str, "sort_keys": True},  # MkDocs' own
)
"""How each search plugin writes its index: a kept page's entries are put back only into
an index this module writes again to the byte as its plugin did."""

EXCLUDED_LINK = re.compile(r"contains a link to '(.*)' which is excluded from the built site\.$")


@dataclass
class Made:
    """A generated file as the last build made it."""

    dest: str
    """Where it was written, in the site folder."""
    source: object
    """What it was made from: the digest of a page's Markdown or a file's content, or
    (modification time, size) of the file it was copied from."""
    surroundings: tuple[Any, ...] = ()
    """A page's: what besides its Markdown its HTML depends on (`surroundings`)."""
    title: str | None = None
    anchors: frozenset[str] = frozenset()
    links: dict[str, dict[str, str]] | None = None
    """The links to other pages' anchors, by the linked page's path."""


class KeptFiles:
    """The generated files a served rebuild puts back as the last build wrote them."""

    def __init__(self) -> None:
        self.made: dict[str, Made] = {}
        """Each generated file of the last build, by its path in the docs."""
        self.search: dict[str, bytes] = {}
        """Each generated page's entries of the search index, by its URL, as compressed
        JSON (`_pack`): held to the next build, which puts back a few of them."""
        self.format: dict[str, Any] | None = None
        """How the search index is written (`FORMATS`); None: unknown."""
        self.indexed = False
        """Whether the last build wrote a search index."""
        self.kept: dict[str, File] = {}
        """This build's kept files, by path in the docs; emptied once the build is done
        (a file's page holds the build's whole nav, every page's HTML)."""
        self.put_back: frozenset[str] = frozenset()
        """The files the last build kept out and put back, by path in the docs."""
        self.moved: set[str] = set()
        """The files whose last output is held aside, by path in the docs."""
        self.holding: Path | None = None
        """Where `before` moved them."""
        self.folders: set[str] = set()
        """The site's top folders holding only generated files and pages: a rebuild moves
        them aside whole (`before`) and back (`_merge`)."""
        self.around: tuple[Any, ...] = ()
        """This build's surroundings of a generated page (`surroundings`)."""
        self._filter = _QuietLinks(self.kept)

    def before(self, config: MkDocsConfig) -> None:
        """Move the folders of the site holding what the last build generated (`folders`)
        out of it, whole, before MkDocs cleans it."""
        self.kept.clear()
        self.moved = set()
        if not self.made:
            return
        site = Path(config.site_dir)
        self.holding = Path(tempfile.mkdtemp(prefix="register-kept-", dir=site.parent))
        for top in self.folders:
            try:
                os.replace(site / top, self.holding / top)
            except OSError:
                continue  # not there, or on another device: made again
            self.moved.update(u for u, made in self.made.items() if _top(made.dest) == top)

    def keep(
        self,
        config: MkDocsConfig,
        files: Files,
        nav: Navigation,
        sources: Mapping[str, object],
        context: tuple[Any, ...],
    ) -> None:
        """Keep out of this build each generated file (`sources`: what each is made from)
        the last build made from the same source, and a page in the same surroundings."""
        self.around = surroundings(config, files, nav, sources.keys(), context)
        if not self.moved or not set(config.plugins) <= SAFE_PLUGINS:
            return
        pages = any(f.is_documentation_page() for f in _files(files, sources))
        if self.indexed and self.format is None and pages:
            return  # a search index that could not be put back together
        for uri, source in sources.items():
            made, file = self.made.get(uri), files.get_file_from_path(uri)
            if made is None or file is None or uri not in self.moved or made.source != source:
                continue
            assert self.holding is not None
            if not (self.holding / made.dest).is_file():
                continue
            if file.is_documentation_page():
                if file.page is None or made.surroundings != self.around:
                    continue
                _restore(file.page, made, files)
            file.inclusion = InclusionLevel.EXCLUDED
            self.kept[uri] = file
        if self.kept:
            logging.getLogger("mkdocs.structure.pages").addFilter(self._filter)

    def pages(self, files: Files, served: bool) -> list[File]:
        """The site's pages as a cold build lists them to templates (a page's, `served`,
        with the drafts `mkdocs serve` shows), the kept ones too."""
        return [
            f
            for f in files
            if f.is_documentation_page()
            and (
                (f.inclusion.is_in_serve() if served else f.inclusion.is_included())
                or f.src_uri in self.kept
            )
        ]

    def after(
        self, config: MkDocsConfig, files: Files, sources: Mapping[str, object], anchors: int
    ) -> None:
        """Put back what was kept, and its search entries; remember what this build made.
        `anchors`: the level MkDocs logs a link to a missing anchor at."""
        logging.getLogger("mkdocs.structure.pages").removeFilter(self._filter)
        site = Path(config.site_dir)
        kept = {self.made[uri].dest for uri in self.kept}
        for top in {_top(self.made[uri].dest) for uri in self.moved}:
            assert self.holding is not None
            _merge(site / top, self.holding / top, top, kept)
        for file in self.kept.values():
            if file.page is not None:  # its links, checked against this build's pages
                file.page.validate_anchor_links(files=files, log_level=anchors)
        self._search(site, files, sources)
        self._remember(files, sources)
        self.forget_holding()
        self.put_back = frozenset(self.kept)
        self.kept.clear()

    def forget(self) -> None:
        """A build that failed: the next one makes everything."""
        logging.getLogger("mkdocs.structure.pages").removeFilter(self._filter)
        self.made, self.search = {}, {}
        self.kept.clear()
        self.forget_holding()

    def forget_holding(self) -> None:
        if self.holding is not None:
            shutil.rmtree(self.holding, ignore_errors=True)
            self.holding = None

    def _remember(self, files: Files, sources: Mapping[str, object]) -> None:
        made = {}
        for file in _files(files, sources):
            uri = file.src_uri
            if uri in self.kept:
                made[uri] = self.made[uri]
            elif not file.is_documentation_page():
                made[uri] = Made(file.dest_uri, sources[uri])
            elif (page := file.page) is not None and page.content is not None:
                links = getattr(page, "links_to_anchors", None)
                made[uri] = Made(
                    file.dest_uri,
                    sources[uri],
                    self.around,
                    page.title,
                    frozenset(page.present_anchor_ids or ()),
                    None if links is None else {f.src_uri: dict(a) for f, a in links.items()},
                )
        self.made = made
        self.folders = _folders(files, made)

    def _search(self, site: Path, files: Files, sources: Mapping[str, object]) -> None:
        """Put the kept pages' entries back into the search index, in the place a cold
        build gives them (page by page, in the order of the files), and remember each
        generated page's entries."""
        path = site / SEARCH_INDEX
        self.indexed = path.is_file()
        if not self.indexed:  # no search plugin: no index to put entries back into
            self.search = {}
            return
        data = json.loads(path.read_text(encoding="utf-8"))
        if self.format is None and data is not None:
            text = path.read_text(encoding="utf-8")
            self.format = next((f for f in FORMATS if json.dumps(data, **f) == text), None)
        docs = data.get("docs") if isinstance(data, dict) else None
        if self.format is None or not isinstance(data, dict) or not isinstance(docs, list):
            self.format, self.search = None, {}
            return
        if self.kept:
            docs = data["docs"] = list(_ordered(files, self.kept, _by_url(docs), self.search))
            path.write_text(json.dumps(data, **self.format), encoding="utf-8")
        final = _by_url(docs)
        pages = [f.page for f in _files(files, sources) if f.page is not None]
        self.search = {page.url: _pack(final.get(page.url, [])) for page in pages}


def _by_url(docs: list[Any]) -> dict[str, list[Any]]:
    """The index's entries by the URL of their page (their location up to its `#`)."""
    found: dict[str, list[Any]] = {}
    for entry in docs:
        found.setdefault(str(entry.get("location", "")).split("#")[0], []).append(entry)
    return found


def _ordered(
    files: Files, kept: Mapping[str, File], built: dict[str, list[Any]], last: Mapping[str, bytes]
) -> Iterable[Any]:
    """The index's entries page by page, a kept page's from the last build."""
    for file in files:
        if file.page is None or not file.is_documentation_page():
            continue
        if file.src_uri in kept:
            yield from _unpack(last.get(file.page.url))
        else:
            yield from built.pop(file.page.url, [])
    for entries in built.values():  # of no page: where the plugin put them, at the end
        yield from entries


def _pack(entries: list[Any]) -> bytes:
    """A page's search entries as `KeptFiles.search` holds them."""
    return zlib.compress(json.dumps(entries, ensure_ascii=False).encode("utf-8"), 1)


def _unpack(packed: bytes | None) -> list[Any]:
    return [] if packed is None else json.loads(zlib.decompress(packed))


def _top(dest: str) -> str:
    """The top folder of a path in the site ("" for a file at its top)."""
    return dest.split("/", 1)[0] if "/" in dest else ""


def _folders(files: Files, made: Mapping[str, Made]) -> set[str]:
    """The top folders of the generated files that hold nothing but pages and generated
    files (not the theme's `assets`, which MkDocs copies again on each build)."""
    tops = {_top(m.dest) for m in made.values()} - {""}
    for file in files:
        if not file.is_documentation_page() and file.src_uri not in made:
            tops.discard(_top(file.dest_uri))
    return tops


def _merge(new: Path, held: Path, top: str, kept: set[str]) -> None:
    """Put a top folder back together: what this build wrote (`new`) over what the last
    one did (`held`), of which only the `kept` files stay (paths in the site); then in
    its place. Moves this build's files, not the last one's: after an edit they are few."""
    if not any(_top(dest) == top for dest in kept):
        shutil.rmtree(held, ignore_errors=True)
        return
    fresh = set()
    for folder, _, names in os.walk(new):
        inside = Path(held, os.path.relpath(folder, new))
        inside.mkdir(parents=True, exist_ok=True)
        for name in names:
            os.replace(os.path.join(folder, name), inside / name)
            fresh.add(PurePosixPath(top, os.path.relpath(folder, new), name).as_posix())
    shutil.rmtree(new, ignore_errors=True)
    for folder, _, names in os.walk(held, topdown=False):
        for name in names:
            where = PurePosixPath(top, os.path.relpath(folder, held), name).as_posix()
            if where not in fresh and where not in kept:
                os.unlink(os.path.join(folder, name))
        if not os.listdir(folder):
            os.rmdir(folder)
    if held.is_dir():
        os.replace(held, new)


def _files(files: Files, uris: Iterable[str]) -> list[File]:
    return [f for uri in uris if (f := files.get_file_from_path(uri)) is not None]


def _restore(page: Page, made: Made, files: Files) -> None:
    """Give a kept page what reading and converting it gave last time, as the other
    pages see it: its title (the nav), its anchors and its links (MkDocs' anchor checks)."""
    page.title = made.title
    page.markdown = ""  # read: a page MkDocs never read has no title
    page.present_anchor_ids = set(made.anchors)
    if made.links is not None:
        bound = {files.get_file_from_path(uri): dict(a) for uri, a in made.links.items()}
        page.links_to_anchors = {file: a for file, a in bound.items() if file is not None}


def surroundings(
    config: MkDocsConfig,
    files: Files,
    nav: Navigation,
    generated: Iterable[str],
    context: tuple[Any, ...],
) -> tuple[Any, ...]:
    """What a generated page's HTML depends on besides its Markdown: `context` (the
    Markdown extensions, the URL style, every file's path), the nav, mkdocs.yml, the
    theme's files and every hand-written page (its title is in the nav)."""
    made = set(generated)
    written = tuple(
        (f.src_uri, hashlib.sha1(f.content_bytes, usedforsecurity=False).hexdigest())
        for f in files
        if f.is_documentation_page() and f.src_uri not in made
    )
    config_file = Path(config.config_file_path) if config.config_file_path else None
    settings = config_file.read_bytes() if config_file and config_file.is_file() else b""
    return (context, _nav(nav.items), written, settings, _theme(config.theme.dirs))


def _nav(items: Iterable[Any]) -> tuple[Any, ...]:
    """The nav as the theme draws it: each item's kind, title and URL (a page's title is
    None here unless the nav gives it: it is read with the page)."""
    return tuple(
        ("section", item.title, _nav(item.children))
        if item.is_section
        else (type(item).__name__, item.title, item.url)
        for item in items
    )


def _theme(folders: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    """(path, modification time, size) of each file of the theme (`serve --watch-theme`),
    but those of hidden folders (material's ten thousand icons)."""
    state = []
    for folder in folders:
        for top, dirs, names in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                path = os.path.join(top, name)
                try:
                    stat = os.stat(path)
                except OSError:
                    continue
                state.append((path, stat.st_mtime_ns, stat.st_size))
    return tuple(state)


class _QuietLinks(logging.Filter):
    """MkDocs says a link to a page kept out of the build goes to a page "excluded from
    the built site"; it is not: it is put back once the build is done."""

    def __init__(self, kept: Mapping[str, File]) -> None:
        super().__init__()
        self.kept = kept

    def filter(self, record: logging.LogRecord) -> bool:
        found = EXCLUDED_LINK.search(record.getMessage())
        return found is None or found[1] not in self.kept

"""The HTML of a generated page, kept to what Markdown and our templates make: nh3 (Ammonia).

`markdown.prose` escapes what an entry holds and the templates escape every value, so a
generated page should need no cleaning. This is the second line of defence, on library
ground: every page's HTML passes through `clean`, an nh3 `Cleaner` with an allowlist of the
tags and attributes that Python-Markdown, the site's extensions (`site.extensions`) and the
templates produce, no `on*` handler, no `style` beyond a table column's `text-align`, http(s)
and relative URLs only (`markdown.safe_url`), comments dropped, and `<script>`, `<style>`,
`<noscript>` and the other raw-text elements dropped with their content, so nothing hidden
in them comes back as an element.

`id` (and no `name`) is kept only where an anchor needs it: on a heading (the entry anchors
`#meta-07` and the table of contents), on the line spans of a highlighted block
(`__span-0-3`) and on a chart's `<title>` (`chart-meta`, named by `aria-labelledby`), and
only as a slug. An `id` that is not needed is an invitation to DOM
clobbering (`<img id="location">` shadows a global a script reads).

`unexpected(html)` says what `clean` would remove; `refused` says it of what `register render`
writes, whose pages reach a site the plugin never sees (docs/site.md says why reading the
printed prose suffices): a failure of the Markdown-level escaping stops that writer too.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any

import markdown as python_markdown
import nh3

from .extensions import MARKDOWN_EXTENSIONS
from .markdown import safe_url


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


TAGS = _words(
    "a abbr b blockquote br button caption code dd del details div dl dt em h1 h2 h3 h4 h5 h6 "
    "hr i img ins kbd label li mark ol option p pre q s samp select small span strong sub "
    "summary sup table tbody td tfoot th thead tr u ul var "
    "figure figcaption svg title line polyline rect text"
)
"""What Python-Markdown and the site's extensions (tables, toc, admonition, details,
highlight, superfences) produce, the overview's filter form and sort buttons, and the SVG
of the Changes page's charts and the overview's state bars (`site.chart`): inside `<svg>` a
`title` is the chart's accessible name; outside one, a browser reads a `title`'s content
as text, never markup."""

GENERIC_ATTRIBUTES = _words("class title lang role tabindex")
"""Attributes kept on any kept tag (besides `aria-*`)."""

TAG_ATTRIBUTES: dict[str, frozenset[str]] = {
    "a": _words("href"),
    "img": _words("src alt width height"),
    "ol": _words("start"),
    "li": _words("value"),
    "details": _words("open"),
    "td": _words("colspan rowspan style"),
    "th": _words("colspan rowspan scope style aria-sort"),
    "option": _words("value selected"),
    "select": _words("data-filter"),
    "button": _words("type"),
    "div": _words(
        "data-reg-filters data-reg-wide data-reg-cards data-reg-grid data-reg-noun"
        " data-search-exclude"
    ),
    "table": _words("data-reg-sortable data-reg-cards"),
    "span": _words("id data-rank data-reg-shown data-linenos"),
    "svg": _words("viewBox width height"),
    "title": _words("id"),
    "rect": _words("x y width height"),
    "line": _words("x1 y1 x2 y2"),
    "polyline": _words("points"),
    "text": _words("x y text-anchor"),
    **{f"h{level}": _words("id") for level in range(1, 7)},
}
"""Attributes kept on one tag only. `href` and `src` only with a safe URL, `id` only as a
slug on a heading or a highlighted line (see the module docstring)."""

DROPPED_WITH_CONTENT = _words(
    "script style noscript template iframe noembed noframes object embed textarea xmp"
)
"""Elements removed with everything inside them: their content is code, or text a browser
reads differently depending on scripting (`<noscript>`), never prose."""

URL_SCHEMES = _words("http https")

_ID = {
    "span": re.compile(r"__span-\d+(?:-\d+)?"),
    "title": re.compile(r"(?:chart|state-bar)-[a-z0-9-]+"),  # a chart's name (aria-labelledby)
    # A slug as toc makes it (`_meta`, `meta-07`, `notes_1`); never `__...`, the prefix of
    # material's own globals (`__md_scope`), which a named element would shadow.
    "heading": re.compile(r"(?!__)[a-z0-9_][a-z0-9_-]*"),
}
_HEADINGS = {f"h{level}" for level in range(1, 7)}


def _attribute(tag: str, name: str, value: str) -> str | None:
    """nh3's attribute filter: the value kept, or None to drop the attribute."""
    if name in ("href", "src"):
        return value if safe_url(value) else None
    if name == "id":
        pattern = _ID["heading"] if tag in _HEADINGS else _ID.get(tag)
        return value if pattern is not None and pattern.fullmatch(value) else None
    return value


_EXCERPT_DROPPED = _words("id href src")
"""Attributes an excerpt never keeps (`_EXCERPT_CLEANER`)."""


def _cleaner(dropped: frozenset[str] = frozenset(), **attribute_filter: Any) -> nh3.Cleaner:
    return nh3.Cleaner(
        tags=set(TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes={
            "*": set(GENERIC_ATTRIBUTES),
            **{t: set(a - dropped) for t, a in TAG_ATTRIBUTES.items()},
        },
        generic_attribute_prefixes={"aria-"},
        strip_comments=True,
        link_rel=None,
        url_schemes=set(URL_SCHEMES),
        filter_style_properties={"text-align"},
        **attribute_filter,
    )


_CLEANER = _cleaner(attribute_filter=_attribute)

_EXCERPT_CLEANER = _cleaner(_EXCERPT_DROPPED)
"""`_CLEANER`'s allowlist without `id`, `href` and `src`, and so without a filter of
attribute values: Pygments writes none of the three into a block but the line spans' `id`,
which an excerpt must not keep (it is loaded into a page beside other highlighted blocks,
whose line spans are numbered from the same `__span-0-1`), and a filter is a call into
Python for every attribute (every token of every line): most of the cleaning's time."""


_KEEP_ALL = nh3.Cleaner(
    tags=set(
        _words(
            "a abbr address area article aside audio b base bdi bdo blockquote body br button "
            "canvas caption cite code col colgroup data datalist dd del details dfn dialog div dl "
            "dt em embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 "
            "head header hgroup hr html i iframe img input ins kbd label legend li link main map "
            "mark math menu meta meter nav noembed noframes noscript object ol optgroup option "
            "output p param picture portal pre progress q rp rt ruby s samp script search section "
            "select slot small source span strong style sub summary sup svg table tbody td "
            "template textarea tfoot th thead time title tr track u ul var video wbr xmp"
        )
        | TAGS
    ),
    clean_content_tags=set(),
    attributes={},
    generic_attribute_prefixes={""},  # every attribute
    strip_comments=False,
    link_rel=None,
    # Every scheme that can run a script, and then some (`unexpected` reads the page a
    # second way for the others).
    url_schemes=set(
        _words(
            "http https javascript vbscript livescript mocha data file blob filesystem about "
            "ftp mailto tel ws wss view-source jar ms-its mhtml feed"
        )
    ),
)
"""nh3 keeping (nearly) everything: a page as a browser's parser reads it, written back."""


def reparsed(page: str) -> str:
    """`page` as a browser's parser reads it, written back with everything kept (comments,
    scripts, handlers): what a test or a check can read with a simple parser."""
    return _KEEP_ALL.clean(page)


def clean(page: str) -> str:
    """`page` (HTML) with only allowed tags, attributes and URLs."""
    return _CLEANER.clean(page)


def clean_excerpt(block: str) -> str:
    """A highlighted excerpt (HTML) kept to the same allowlist, without any `id`, `href`
    or `src`."""
    return _EXCERPT_CLEANER.clean(block)


def unexpected(page: str) -> list[str]:
    """What `clean` would remove from `page`: tags, attributes and comments, as `<tag attr>`.

    Read twice, and what either reading finds counts. Once as a browser reads it: nh3's
    own parser (html5ever) writes the page back with everything kept (`_KEEP_ALL`), and
    what `clean` then removes from that is found (`<img/src/onerror=...>` is an `onerror`
    there, as in a browser); when `clean` leaves that reading as it is, nothing is. Once
    with `html.parser`, comparing the page with `clean(page)`, for what the first reading
    cannot keep: an element or a URL scheme `_KEEP_ALL` does not list (`<animate>` in an
    `<svg>`). Both compare counts of (tag, attribute=value), so how nh3 re-serialises the
    page (quotes, `<br>`, `text-align:right`) is no difference.
    """
    canonical = reparsed(page)
    removed = _Elements.of(page) - _Elements.of(clean(page))
    if (cleaned := clean(canonical)) != canonical:
        removed += _Elements.of(canonical) - _Elements.of(cleaned)
    return sorted({_describe(item) for item in removed})


def refused(pages: Mapping[str, str], printed: Mapping[str, str] | None) -> str | None:
    """Why the pages may not go, as they are, to an engine that cleans nothing: the first
    Markdown whose HTML (Python-Markdown, the site's extensions) holds what `clean` removes.

    With our templates only the prose they printed is read (`printed`: Markdown -> its
    page): they write HTML of their own only and escape every other value they print
    (`escaping`), so prose, code as written and links kept, is the only foreign text left
    unescaped. A site's own templates are not ours (`printed` None): every page is read.
    """
    read = printed.items() if printed is not None else ((t, u) for u, t in pages.items())
    for markdown, uri in read:
        if found := unexpected(to_html(markdown)):
            shown = ", ".join(sorted(set(found))[:5])
            return f"{uri}: the page would carry HTML that the sanitizer removes ({shown})"
    return None


def to_html(page: str) -> str:
    """The HTML Python-Markdown makes of a generated page (front matter aside), with the
    site's extensions."""
    return _converter().reset().convert(_FRONT_MATTER.sub("", page, count=1))


@functools.cache
def _converter() -> python_markdown.Markdown:
    """One converter for every page (`reset` between them): making one loads every extension."""
    return python_markdown.Markdown(
        extensions=list(MARKDOWN_EXTENSIONS), extension_configs=MARKDOWN_EXTENSIONS
    )


# YAML front matter, which the site's engine reads as data (MkDocs: `utils.meta`), not Markdown.
_FRONT_MATTER = re.compile(r"\A-{3}[ \t]*\n.*?\n(?:-{3}|\.{3})[ \t]*\n", re.DOTALL)


def _canonical(name: str, value: str) -> str:
    """An attribute value as nh3 writes it back: `text-align:right` for `text-align: right;`."""
    if name == "style":
        return "".join(value.split()).rstrip(";")
    return " ".join(value.split())


def _describe(item: tuple[str, ...]) -> str:
    return "<" + " ".join(part for part in item if part) + ">"


class _Elements(HTMLParser):
    """(tag,), (tag, attribute=value) and ("!--",) of a page, counted."""

    @classmethod
    def of(cls, page: str) -> Counter[tuple[str, ...]]:
        parser = cls()
        parser.feed(page)
        parser.close()
        return parser.counts

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.counts: Counter[tuple[str, ...]] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.counts[(tag,)] += 1
        for name, value in attrs:
            self.counts[(tag, f"{name}={_canonical(name, value or '')!r}")] += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_comment(self, data: str) -> None:
        self.counts[("!--",)] += 1

"""A page's HTML kept to what Markdown and our templates make, by nh3 (Ammonia): the second
line of defence after the templates' escaping. `clean` keeps an allowlist of tags, attributes
and http(s) or relative URLs, an `id` only as an anchor's slug (DOM clobbering), no comment
or raw-text element; `unexpected` and `refused` say what it would remove."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any

import markdown as python_markdown
import nh3
from mkdocs.utils import meta

from .extensions import MARKDOWN_EXTENSIONS
from .markdown import safe_url


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


TAGS = _words(
    "a abbr b blockquote br button caption code dd del details div dl dt em h1 h2 h3 h4 h5 h6 "
    "hr i img input ins kbd label li mark ol option p pre q s samp select small span strong sub "
    "summary sup table tbody td tfoot th thead tr u ul var "
    "figure figcaption svg title line polyline rect text"
)
"""What Python-Markdown, the site's extensions and our templates make (the overview's form,
a Coverage page's Words box, the charts' SVG, whose `title` is the chart's accessible name)."""

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
    "input": _words("type data-filter-words"),  # a Coverage page's Words box
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
"""Attributes kept on one tag only; `href`, `src` and `id` only with a value `_attribute` keeps."""

DROPPED_WITH_CONTENT = _words(
    "script style noscript template iframe noembed noframes object embed textarea xmp"
)
"""Elements removed with their content: code, or text read differently with scripting off."""

# A heading's: a slug as toc makes it (`_meta`, `meta-07`, `notes_1`); never `__...`, the
# prefix of material's own globals (`__md_scope`), which a named element would shadow.
_SLUG = re.compile(r"(?!__)[a-z0-9_][a-z0-9_-]*")
_ID = {
    "span": re.compile(r"__span-\d+(?:-\d+)?"),
    "title": re.compile(r"(?:chart|state-bar)-[a-z0-9-]+"),  # a chart's name (aria-labelledby)
    **{f"h{level}": _SLUG for level in range(1, 7)},
}


def _attribute(tag: str, name: str, value: str) -> str | None:
    """nh3's attribute filter: nh3 allows attributes by name only, never by value."""
    if name in ("href", "src"):
        return value if safe_url(value) else None
    if name == "id":
        pattern = _ID.get(tag)
        return value if pattern is not None and pattern.fullmatch(value) else None
    return value


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
        url_schemes={"http", "https"},
        filter_style_properties={"text-align"},
        **attribute_filter,
    )


clean = _cleaner(attribute_filter=_attribute).clean
"""`page` (HTML) with only allowed tags, attributes and URLs."""

clean_excerpt = _cleaner(_words("id href src")).clean
"""A highlighted excerpt kept to the same allowlist without `id` (its line spans would clash
with the page's), `href` and `src`, so with no filter of values (a call into Python per
attribute was most of the cleaning's time)."""


reparsed = nh3.Cleaner(
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
).clean
"""A page as a browser's parser reads it, written back with (nearly) everything kept."""


def unexpected(page: str) -> list[str]:
    """What `clean` would remove from `page`, as `<tag attr=value>`: read as a browser reads
    it (html5ever, through `reparsed`: `<img/src/onerror=...>` has an `onerror`) and with
    `html.parser` (for what `reparsed` does not list), elements counted (nh3 reports nothing
    it removes) so that how nh3 writes a page back is no difference."""
    canonical = reparsed(page)
    removed = _Elements.of(page) - _Elements.of(clean(page))
    if (cleaned := clean(canonical)) != canonical:
        removed += _Elements.of(canonical) - _Elements.of(cleaned)
    return sorted({"<" + " ".join(filter(None, item)) + ">" for item in removed})


def refused(pages: Mapping[str, str], printed: Mapping[str, str] | None) -> str | None:
    """Why the pages may not go as they are to an engine that cleans nothing: the first
    Markdown whose HTML holds what `clean` removes. With our templates, which escape every
    value, only the prose they `printed` is read; with a site's own, every page."""
    read = printed.items() if printed is not None else ((t, u) for u, t in pages.items())
    for markdown, uri in read:
        if found := unexpected(to_html(markdown)):
            shown = ", ".join(found[:5])
            return f"{uri}: the page would carry HTML that the sanitizer removes ({shown})"
    return None


def to_html(page: str) -> str:
    """The HTML Python-Markdown makes of a generated page, with the site's extensions."""
    return _converter().reset().convert(meta.YAML_RE.sub("", page, count=1))  # MkDocs' own


@functools.cache  # making one loads every extension
def _converter() -> python_markdown.Markdown:
    return python_markdown.Markdown(
        extensions=list(MARKDOWN_EXTENSIONS), extension_configs=MARKDOWN_EXTENSIONS
    )


class _Elements(HTMLParser):
    """(tag,), (tag, attribute=value) and ("!--",) of a page, counted; a value as nh3 writes
    it back (`text-align:right` for `text-align: right;`)."""

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
            words = (value or "").split()
            written = "".join(words).rstrip(";") if name == "style" else " ".join(words)
            self.counts[(tag, f"{name}={written!r}")] += 1

    def handle_comment(self, data: str) -> None:
        self.counts[("!--",)] += 1

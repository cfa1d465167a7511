"""The HTML of a generated page, kept to what Markdown makes: the second line of defence.

`markdown.prose` escapes what an entry holds, but it guesses where Python-Markdown will see
code, and where they disagree, text it took for code reaches the page unescaped. So the
plugin passes the HTML of its pages through `clean`: an allowlist of tags and attributes,
no `on*` handler, no `style` beyond a table column's alignment, and every `href` and `src`
checked with `safe_url`.

Every `<` of the page starts a token. A token that is a well-formed tag is replaced by a
tag written here from its name and allowed attributes (values escaped); any other token is
dropped (a comment) or escaped into text. So the only `<` left in the page open tags built
here, and a browser reads exactly the elements kept, whatever the input was. (A regular
expression, not `html.parser`: the health page of 20,000 citations holds a million tags,
and the parser's loop in Python took seven times as long.)
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from .markdown import safe_url


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


TAGS = _words(
    "a abbr b blockquote br caption code dd del details div dl dt em h1 h2 h3 h4 h5 h6 hr i "
    "img ins kbd label li mark ol option p pre q s samp select small span strong sub summary "
    "sup table tbody td tfoot th thead tr u ul var "
    "figure figcaption svg title line polyline rect text"
)
"""What Python-Markdown and the site's extensions (tables, toc, admonition, details,
highlight, superfences) produce, and the overview's filter form. No element whose content
a browser reads as raw text (`script`, `style`, `textarea`, ...). The SVG elements are
those of the Changes page's charts and the overview's state bars (`site.chart`): inside
`<svg>` a `title` is the chart's
accessible name; outside one, a browser reads a `title`'s content as text, never markup."""

ATTRIBUTES = _words(
    "align alt class colspan height href id lang name open rowspan src start title value "
    "width data-filter data-linenos data-rank data-reg-filters data-reg-shown "
    "data-reg-sortable aria-labelledby role viewbox points x y x1 y1 x2 y2 text-anchor"
)
"""Attributes kept on any kept tag; `href` and `src` only with a safe URL."""

_VOID = _words("br hr img")
_TOKEN = re.compile(r"<[^<>]*>?")
_TAG = re.compile(
    r"<(/?)([A-Za-z][A-Za-z0-9-]*)"
    r"((?:\s+[^\s\"'<>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*/?>\Z"
)
_ATTRIBUTE = re.compile(r"([^\s\"'<>/=]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+)))?")
_ALIGN = re.compile(r"\s*text-align:\s*(left|right|center)\s*;?\s*", re.IGNORECASE)
# Not needed for safety (a dropped <script> leaves its code as text), but nobody wants to
# read that text: a script or style element goes whole, up to its end tag.
_SCRIPT = re.compile(
    r"<(script|style)\b.*?(?:</\1(?:>|[\s/][^>]*>?)|\Z)", re.IGNORECASE | re.DOTALL
)


def clean(page: str) -> str:
    """`page` (HTML) with only allowed tags and attributes, every tag re-written."""
    if "<s" in page or "<S" in page:
        page = _SCRIPT.sub("", page)
    return _TOKEN.sub(lambda token: _clean_token(token[0]), page)


@lru_cache(maxsize=65536)  # pages repeat their tags: `<td>`, `<span class="n">`, ...
def _clean_token(token: str) -> str:
    tag = _TAG.match(token)
    if tag is None:  # a comment, or a `<` that opens no tag: text
        return "" if token.startswith("<!") else token.replace("<", "&lt;").replace(">", "&gt;")
    closing, name = tag[1], tag[2].lower()
    if name not in TAGS or (closing and name in _VOID):
        return ""
    if closing:
        return f"</{name}>"
    return f"<{name}{''.join(_attributes(tag[3]))}>"


def _attributes(text: str) -> list[str]:
    kept = []
    for attribute in _ATTRIBUTE.finditer(text):
        name = attribute[1].lower()
        raw = next((v for v in attribute.groups()[1:] if v is not None), None)
        value = None if raw is None else html.unescape(raw)
        if name == "style" and value and (align := _ALIGN.fullmatch(value)):
            kept.append(f' style="text-align: {align[1].lower()};"')
        elif name not in ATTRIBUTES:
            continue
        elif value is None:
            kept.append(f" {name}")
        elif name not in ("href", "src") or safe_url(value):
            kept.append(f' {name}="{html.escape(value, quote=True)}"')
    return kept

"""Markdown as the site turns it into HTML, and what in that HTML could run a script.

html = to_html(page_markdown)
assert hostile(html) == []   # nothing the sanitizer's allowlist would not keep
assert live(html) == []      # nothing that runs: judged without the allowlist
"""

from __future__ import annotations

import html as html_module
import re
from html.parser import HTMLParser

import markdown

from compat_register.site.extensions import MARKDOWN_EXTENSIONS
from compat_register.site.markdown import safe_url
from compat_register.site.sanitize import GENERIC_ATTRIBUTES, TAG_ATTRIBUTES, TAGS, reparsed


def to_html(text: str) -> str:
    return markdown.markdown(
        text, extensions=list(MARKDOWN_EXTENSIONS), extension_configs=MARKDOWN_EXTENSIONS
    )


def hostile(html: str) -> list[str]:
    """Each tag, attribute, URL or comment in `html` outside the sanitizer's allowlist."""
    finder = _Finder()
    finder.feed(html)
    finder.close()
    return finder.found


def live(html: str) -> list[str]:
    """Each thing in `html` that a browser could run, judged on its own terms (not by the
    sanitizer's allowlist): a script-bearing element, an `on*` handler, a URL attribute
    with a scheme other than http(s), a `<noscript>`, a `<base>`, a `srcdoc`, a comment.

    The page is read as a browser reads it first (`sanitize.reparsed`, html5ever), so
    `<img/src/onerror=...>` counts as the handler it is."""
    finder = _Live()
    finder.feed(reparsed(html))
    finder.close()
    return finder.found


_ID_PLACES = {"span", "title", "h1", "h2", "h3", "h4", "h5", "h6"}


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            self.found.append(f"<{tag}>")
        allowed = {a.lower() for a in GENERIC_ATTRIBUTES | TAG_ATTRIBUTES.get(tag, frozenset())}
        for name, value in attrs:
            if name == "style" and re.fullmatch(r"text-align:\s*\w+;?", value or ""):
                continue
            if name not in allowed and not name.startswith("aria-"):
                self.found.append(f"<{tag} {name}>")
            elif name in ("href", "src") and not safe_url(value or ""):
                self.found.append(f"<{tag} {name}={value!r}>")
            elif name == "id" and tag not in _ID_PLACES:
                self.found.append(f"<{tag} id>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_comment(self, data: str) -> None:
        self.found.append(f"<!--{data}-->")


_RUNNING_TAGS = frozenset(
    re.findall(r"\S+", "script iframe frame frameset object embed applet base form meta link")
    + re.findall(r"\S+", "style math noscript template portal")
)
_URL_ATTRIBUTES = frozenset(
    re.findall(r"\S+", "href src action formaction xlink:href poster background data srcset ping")
)


_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*:")
"""A URL's scheme as a browser reads it (WHATWG URL: a letter, then letters, digits, `+`,
`-`, `.`, then `:`). A URL whose `:` does not end such a run (`:`, `1:x`, `-:`) has no
scheme: the browser resolves it as a relative path, which runs nothing."""
_C0_OR_SPACE = "".join(map(chr, range(0x21)))
"""What a browser strips from a URL's start before it reads the scheme."""


class _Live(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_script:  # a script's code, shown so a test can tell whose script it is
            self.found[-1] += " ".join(data.split())[:200]

    def handle_endtag(self, tag: str) -> None:
        self.in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.in_script = tag in ("script", "style", "noscript", "template")
        if tag in _RUNNING_TAGS:
            self.found.append(f"<{tag}> " + " ".join(f"{n}={v!r}" for n, v in attrs))
        for name, value in attrs:
            url = "".join(html_module.unescape(value or "").split()).lower().lstrip(_C0_OR_SPACE)
            if name.startswith("on") or name == "srcdoc":
                self.found.append(f"<{tag} {name}={value!r}>")
            elif name in _URL_ATTRIBUTES and _SCHEME.match(url):
                if not url.startswith(("http:", "https:")):
                    self.found.append(f"<{tag} {name}={value!r}>")
            elif name == "style" and re.search(r"url\(|expression|javascript", url):
                self.found.append(f"<{tag} style={value!r}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_comment(self, data: str) -> None:
        self.found.append(f"<!--{data}-->")

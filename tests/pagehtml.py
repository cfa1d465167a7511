"""Markdown as the site turns it into HTML, and what in that HTML could run a script.

html = to_html(page_markdown)
assert hostile(html) == []
"""

from __future__ import annotations

from html.parser import HTMLParser

import markdown

from compat_register.site.extensions import MARKDOWN_EXTENSIONS
from compat_register.site.markdown import safe_url
from compat_register.site.sanitize import ATTRIBUTES, TAGS


def to_html(text: str) -> str:
    return markdown.markdown(
        text, extensions=list(MARKDOWN_EXTENSIONS), extension_configs=MARKDOWN_EXTENSIONS
    )


def hostile(html: str) -> list[str]:
    """Each tag, attribute or URL in `html` that Markdown would not make from safe prose."""
    finder = _Finder()
    finder.feed(html)
    finder.close()
    return finder.found


class _Finder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in TAGS:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name == "style" and (value or "").startswith("text-align:"):
                continue
            if name not in ATTRIBUTES:
                self.found.append(f"<{tag} {name}>")
            elif name in ("href", "src") and not safe_url(value or ""):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

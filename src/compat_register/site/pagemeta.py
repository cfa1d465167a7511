"""A page's front matter: what themes print as it is (its title, its tags), HTML-escaped,
and its weight in search. Pure.
"""

from __future__ import annotations

import html
import re
from typing import Any

from ..model.registers import Register

_HTML_SPECIALS = re.compile(r"[<>&\"']")


REGISTER_BOOST = 4
"""A register page's weight in material's search (its `search.boost`): an entry's section
ranks before the manual's pages and the overview (0.5) for the words it holds."""


def page_meta(register: Register) -> dict[str, Any]:
    """A register page's front matter: its search boost, its tags and (`title_meta`) its
    title, HTML-escaped: themes print both as they are (MkDocs does not autoescape)."""
    meta: dict[str, Any] = {"search": {"boost": REGISTER_BOOST}, **title_meta(register.title)}
    if register.tags:
        meta["tags"] = [html.escape(tag) for tag in register.tags]
    return meta


def title_meta(title: str) -> dict[str, str]:
    """`{"title": ...}`, HTML-escaped, when a page's title holds HTML's special characters
    (else nothing: MkDocs takes the first heading's text, and material's `striptags` would
    undo the heading's escaping, letting `</title><script>` out of `<title>`)."""
    return {"title": html.escape(title)} if _HTML_SPECIALS.search(title) else {}

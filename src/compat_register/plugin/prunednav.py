"""The nav a page in no nav (a register's health page) is drawn with: the top-level items,
each section a link to its first page, as `navigation.prune` draws one off the page's path;
the whole nav there grew as the square of the registers (docs/site.md)."""

from __future__ import annotations

from typing import Any

from mkdocs.structure.nav import Link, Navigation


def pruned_nav(nav: Navigation) -> Navigation:
    """`nav` with its sections pruned to links (one leading nowhere left out), its pages kept."""
    items = []
    for item in nav.items:
        if not item.is_section:
            items.append(item)
        elif (url := first_url(item)) is not None:
            items.append(Link(item.title, url))
    return Navigation(items, nav.pages)


def first_url(section: Any) -> str | None:
    """The URL of the first page or link of a section, nested sections read in order."""
    for child in section.children:
        url = first_url(child) if child.is_section else child.url
        if url is not None:
            return url
    return None

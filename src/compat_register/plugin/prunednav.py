"""The nav a page in no nav is drawn with (each register's own health page): its top-level
items, each section a link to its first page, as material's `navigation.prune` draws a
section off the page's path. material would draw every register's entry on such a page,
a cost that grows as the square of the registers (docs/site.md). Made of MkDocs' public nav
classes, read by the attributes a theme reads (ProperDocs' nav classes are its own).
"""

from __future__ import annotations

from typing import Any

from mkdocs.structure.nav import Link, Navigation


def pruned_nav(nav: Navigation) -> Navigation:
    """`nav` with its sections pruned to links; its pages as they are (a theme finds the
    home page among them). A section holding no page or link leads nowhere: left out."""
    items = [item if not item.is_section else _link(item) for item in nav.items]
    return Navigation([item for item in items if item is not None], nav.pages)


def _link(section: Any) -> Link | None:
    """A link to the section's first page or link, under its title."""
    url = first_url(section)
    return None if url is None else Link(section.title, url)


def first_url(section: Any) -> str | None:
    """The URL of the first page or link of a section, nested sections read in order
    (relative to the site, as a page's: the theme's `url` filter makes it relative)."""
    for child in section.children:
        url = first_url(child) if child.is_section else child.url
        if url is not None:
            return url
    return None

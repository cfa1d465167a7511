"""The nav a page in no nav (a register's health page) is drawn with: the top-level items,
each section a link to its first page, as `navigation.prune` draws one off the page's path;
the whole nav there grew as the square of the registers (docs/site.md)."""

from __future__ import annotations

from typing import Any

from mkdocs.structure.nav import Link, Navigation


def pruned_nav(nav: Navigation) -> Navigation:
    """`nav` with its sections pruned to links (one leading nowhere left out), its pages kept."""
    items = [item if not item.is_section else _link(item) for item in nav.items]
    return Navigation([item for item in items if item is not None], nav.pages)


def _link(section: Any) -> Link | None:
    """A link to the section's first page or link, under its title."""
    url = first_url(section)
    return None if url is None else Link(section.title, url)


def first_url(section: Any) -> str | None:
    """The URL of the first page or link of a section, nested sections read in order."""
    for child in section.children:
        url = first_url(child) if child.is_section else child.url
        if url is not None:
            return url
    return None

"""The nav a page that is in no nav is drawn with: `pruned_nav`.

A register's own health page is in no nav (`Site.unlisted`, made MkDocs' `not_in_nav`), so
no section of the nav is on its path; material draws the whole nav on it all the same,
every register's entry: some 10 ms a page at 5,000 items, a cost that grows as the square
of the registers (docs/site.md, "Beside plain MkDocs and sphinx-needs"). Such a page is
given instead the nav's top-level items with each section a link to its first page, which
is what material's `navigation.prune` draws of a section off the page's path: a handful
of entries.

Made of MkDocs' own nav classes. A theme reads a nav item by its attributes (`is_section`,
`title`, `url`), and so does this module, so the same code serves ProperDocs, whose nav
classes are its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mkdocs.structure.nav import Link, Navigation


def pruned_nav(nav: Navigation) -> Navigation:
    """`nav` as a page in no nav draws it: its top-level items pruned (`pruned`), its
    pages as they are (a theme finds the home page among them)."""
    return Navigation(pruned(nav.items), nav.pages)


def pruned(items: Iterable[Any]) -> list[Any]:
    """The top-level `items` of a nav, each section made a link to its first page under the
    section's title; pages and links as they are. A section holding no page or link leads
    nowhere and is left out."""
    kept: list[Any] = []
    for item in items:
        if not item.is_section:
            kept.append(item)
        elif (url := first_url(item)) is not None:
            kept.append(Link(item.title, url))
    return kept


def first_url(section: Any) -> str | None:
    """The URL of the first page or link of a section, nested sections read in order:
    where material's `navigation.prune` sends a reader who clicks the section. Relative to
    the site, as a page's URL is: the theme's `url` filter makes it relative to the page
    drawn, alike for a link and a page."""
    for child in section.children:
        url = first_url(child) if child.is_section else child.url
        if url is not None:
            return url
    return None

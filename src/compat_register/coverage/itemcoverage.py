"""A revision's changelog items, each with the entries covering it (pure): by a citation
that reads as cited over its lines, or by naming what it names through a `links:` pattern."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..model.registers import LinkPattern, RegisterSet
from ..statements.markdownpages import Item
from .states import Covering, by_file


@dataclass
class Covered:
    """One changelog item and the entries covering it (none: "no entry")."""

    source: str
    revision: str
    item: Item
    entries: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    """What the item names through the link patterns (`SEP-2575`)."""


def named(text: str, links: Iterable[LinkPattern]) -> dict[str, str]:
    """URL -> the words that named it, for every link pattern's match in `text`."""
    found: dict[str, str] = {}
    for link in links:
        for match in link.pattern.finditer(text):
            found.setdefault(link.url_for(match), match.group(0))
    return found


def covered(
    source: str,
    changelogs: Mapping[str, Iterable[Item]],
    registers: RegisterSet,
    coverings: Iterable[Covering],
) -> dict[str, list[Covered]]:
    """revision -> each item of its changelog with the entries that cover it."""
    links = registers.sources.links
    mentions = _mentions(registers, links)
    cited = by_file(coverings)[0]
    found: dict[str, list[Covered]] = {}
    for revision, items in changelogs.items():
        found[revision] = []
        for item in items:
            names = named(item.text, links)
            entries = [
                c.citation.entry
                for c in cited.get((source, item.path), ())
                if c.exclusion is None
                and item.line <= c.citation.end
                and c.citation.start <= item.end
            ]
            entries += [entry for entry, urls in mentions.items() if urls & names.keys()]
            entries = list(dict.fromkeys(entries))
            found[revision].append(Covered(source, revision, item, entries, list(names.values())))
    return found


def _mentions(registers: RegisterSet, links: list[LinkPattern]) -> dict[str, set[str]]:
    """entry ID -> the URLs its prose names through the link patterns."""
    found: dict[str, set[str]] = {}
    for register in registers.registers:
        for entry in register.entries:
            texts = [entry.title, *(t for t in entry.prose().values() if t)]
            found[entry.id] = {url for text in texts for url in named(text, links)}
    return found

"""Pages kept between builds in one process (`mkdocs serve`) under what each was made of:
its own inputs (its key) and each value it looked up in the site's shared tables while it
rendered; made again when any differs. Equal values print the same (a `_meta` map compares
as it prints: `model.registers.Meta`), so a kept page is never stale."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

MISSING = object()
"""What a look-up of a key not in a table found."""
WHOLE = object()
"""A read of a whole table (iterated, or its length)."""

Read = tuple[str, Any, Any]
"""A table's name, the key looked up (or `WHOLE`), what was found."""


@dataclass
class Kept:
    key: Any
    reads: list[Read]
    made: Any


KEPT: dict[str, Kept] = {}
"""The last page made at each path, in this process: one per path, so bounded by the site."""


class Tables:
    """One build's shared tables, by name, and the reads of the page being rendered."""

    def __init__(self, **tables: Mapping[Any, Any]) -> None:
        self.data = tables
        self.reads: list[Read] | None = None

    def table(self, name: str) -> Any:
        """The table `name` as a page's formatter reads it: each look-up written down."""
        return Table(name, self.data[name], self)

    def page(self, page: str, key: Any, render: Callable[[], T]) -> T:
        """What `render` makes of the page at `page`, kept from an earlier build when its
        `key` and every value it read then are the same now."""
        kept = KEPT.get(page)
        if kept is not None and kept.key == key and all(map(self._same, kept.reads)):
            return kept.made  # type: ignore[no-any-return]
        self.reads = []
        try:
            made = render()
        finally:
            reads, self.reads = self.reads, None
        KEPT[page] = Kept(key, reads, made)
        return made

    def _same(self, read: Read) -> bool:
        name, key, found = read
        table = self.data[name]
        return bool(table == found if key is WHOLE else table.get(key, MISSING) == found)


class Table(Mapping[K, V]):
    """A read-only view of a shared table that notes each look-up in its `Tables`."""

    def __init__(self, name: str, data: Mapping[K, V], tables: Tables) -> None:
        self.name, self.data, self.tables = name, data, tables

    def _note_whole(self) -> None:
        if self.tables.reads is not None:  # a copy only while a page is recorded
            self.tables.reads.append((self.name, WHOLE, dict(self.data)))

    def get(self, key: K, default: Any = None) -> Any:
        found = self.data.get(key, MISSING)
        if self.tables.reads is not None:
            self.tables.reads.append((self.name, key, found))
        return default if found is MISSING else found

    def __getitem__(self, key: K) -> V:
        found = self.get(key, MISSING)
        if found is MISSING:
            raise KeyError(key)
        return found  # type: ignore[no-any-return]

    def __iter__(self) -> Iterator[K]:
        self._note_whole()
        return iter(self.data)

    def __len__(self) -> int:
        self._note_whole()
        return len(self.data)

"""Entries across the specification's revisions: the matrix, and what each revision changed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..model.registers import Entry, Register, RegisterSet, Revisions

CELLS = ("added", "changed", "removed", "present", "absent", "unrecorded")
"""What a matrix cell says of an entry in one revision; also their sort rank."""

EVENTS = ("added", "changed", "removed")
"""The cells where a revision did something to the entry."""


def cells(
    revisions: Revisions, order: Sequence[str], index: Mapping[str, int] | None = None
) -> list[str]:
    """One cell per revision of `order` (oldest first): without `added` the entry is in each
    revision before the first it names, without `removed` in each after; `unrecorded`
    throughout when it records none."""
    if not revisions.recorded:
        return ["unrecorded"] * len(order)
    index = index or {name: number for number, name in enumerate(order)}
    added = index.get(revisions.added or "", -1)
    removed = index.get(revisions.removed or "", len(order))
    changed = {index[name] for name in revisions.changed if name in index}
    return [_cell(number, added, changed, removed) for number in range(len(order))]


def _cell(number: int, added: int, changed: set[int], removed: int) -> str:
    if number == added:
        return "added"
    if number == removed:
        return "removed"
    if number < added or number > removed:
        return "absent"
    return "changed" if number in changed else "present"


@dataclass
class Row:
    register: Register
    entry: Entry
    cells: list[str]


def matrix(registers: RegisterSet) -> list[Row]:
    """Every entry of every register, in file order, with its cells."""
    order = registers.sources.revisions
    index = {name: number for number, name in enumerate(order)}
    return [
        Row(register, entry, cells(entry.revisions, order, index))
        for register in registers.registers
        for entry in register.entries
    ]


@dataclass
class RevisionChanges:
    """The entries one revision added, changed and removed, in file order."""

    revision: str
    added: list[tuple[Register, Entry]] = field(default_factory=list)
    changed: list[tuple[Register, Entry]] = field(default_factory=list)
    removed: list[tuple[Register, Entry]] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.added) + len(self.changed) + len(self.removed)


def changes(registers: RegisterSet) -> list[RevisionChanges]:
    """What each revision of sources.yaml changed, in its order (empty ones included)."""
    found = {name: RevisionChanges(name) for name in registers.sources.revisions}
    for register in registers.registers:
        for entry in register.entries:
            revisions = entry.revisions
            events = [("added", revisions.added), *(("changed", n) for n in revisions.changed)]
            for kind, name in [*events, ("removed", revisions.removed)]:
                if name in found:
                    getattr(found[name], kind).append((register, entry))
    return list(found.values())

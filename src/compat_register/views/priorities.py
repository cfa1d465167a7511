"""What is worth doing next: the open entries by value and effort, and the state counts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..model.registers import Entry, Register, RegisterSet
from ..model.vocabulary import LEVELS, OPEN, SIZES, counted


def _rank(order: tuple[str, ...], key: str) -> int:
    return order.index(key) if key in order else len(order)


def _priority(item: Item) -> tuple[int, int]:
    return _rank(LEVELS, item.entry.value.key), _rank(SIZES, item.entry.effort.key)


@dataclass
class Item:
    register: Register
    entry: Entry

    @property
    def next_step(self) -> str | None:
        """The entry's `next:`, else its status note (None without either)."""
        return self.entry.next_step or self.entry.status.note


@dataclass
class Group:
    """One subject's open entries, highest value and least effort first, and the state
    counts of all its entries."""

    subject: str
    registers: list[Register]
    items: list[Item]
    counts: dict[str, int]

    @property
    def entries(self) -> list[Entry]:
        return [item.entry for item in self.items]


def own_subject(registers: RegisterSet, configured: str | None = None) -> str | None:
    """`configured`, else the subject of the most entries (of two alike, the one named first)."""
    if configured:
        return configured
    sizes: Counter[str] = Counter()
    for register in registers.registers:
        sizes[register.subject] += len(register.entries)
    return max(sizes, key=lambda subject: sizes[subject], default=None)


def priorities(registers: RegisterSet, first: str | None = None) -> list[Group]:
    """The open entries by their register's subject, value first (high before none), then
    effort (S before XL), an unknown keyword last, else file order; the subject `first`
    leads, the others in file order; a subject with none left out."""
    by_subject: dict[str, list[Register]] = {}
    for register in registers.registers:
        by_subject.setdefault(register.subject, []).append(register)
    groups = []
    for subject in sorted(by_subject, key=lambda subject: subject != first):  # stable: file order
        members = by_subject[subject]
        items = [Item(r, e) for r in members for e in r.entries if e.status.key in OPEN]
        items.sort(key=_priority)
        if items:
            groups.append(Group(subject, members, items, state_counts(*members)))
    return groups


def grid(groups: list[Group]) -> dict[tuple[str, str], int]:
    """(value, effort) -> how many open entries have it, every pair of LEVELS x SIZES."""
    counts = Counter((e.value.key, e.effort.key) for g in groups for e in g.entries)
    return {(value, effort): counts[value, effort] for value in LEVELS for effort in SIZES}


def state_counts(*registers: Register) -> dict[str, int]:
    """How many entries of the registers are in each state (`vocabulary.counted`)."""
    counts = Counter(e.status.key for r in registers for e in r.entries)
    return {state: counts[state] for state in counted(counts)}

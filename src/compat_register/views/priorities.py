"""What is worth doing next: the open entries by value and effort, and the state counts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..model.registers import Entry, Register, RegisterSet

STATES = ("done", "partial", "missing", "n/a")
VALUES = ("high", "med", "low", "none")
EFFORTS = ("S", "M", "L", "XL")
OPEN = ("missing", "partial")
"""The states whose entries are work still to do."""


def _rank(order: tuple[str, ...], key: str) -> int:
    return order.index(key) if key in order else len(order)


def priority_key(entry: Entry) -> tuple[int, int]:
    """Value first (high before none), then effort (S before XL); an unknown keyword last."""
    return _rank(VALUES, entry.value.key), _rank(EFFORTS, entry.effort.key)


@dataclass
class Group:
    """One register's open entries, highest value and least effort first."""

    register: Register
    entries: list[Entry]


def priorities(registers: RegisterSet) -> list[Group]:
    """The `missing` and `partial` entries of each register that has any, in priority order
    (entries of equal value and effort keep their file order)."""
    groups = []
    for register in registers.registers:
        open_entries = [e for e in register.entries if e.status.key in OPEN]
        if open_entries:
            groups.append(Group(register, sorted(open_entries, key=priority_key)))
    return groups


def grid(groups: list[Group]) -> dict[tuple[str, str], int]:
    """(value, effort) -> how many open entries have it, every pair of VALUES x EFFORTS."""
    counts = Counter((e.value.key, e.effort.key) for g in groups for e in g.entries)
    return {(value, effort): counts[value, effort] for value in VALUES for effort in EFFORTS}


def state_counts(register: Register) -> dict[str, int]:
    """How many entries of a register are in each state, in `STATES` order."""
    counts = Counter(entry.status.key for entry in register.entries)
    return {state: counts[state] for state in STATES}

"""The concept x subject matrix: one row per concept, one column per subject.

A row is a concept of registers/concepts.yaml, in file order, each followed by the
concepts under it (parent grouping); a column is a subject, a register's `subject` alias,
the project's own first (`priorities.own_subject`), the others in the order the registers
(file-name order) first name them. A cell holds the entries of
that subject naming the concept (several entries of one register may share one) and their
state rolled up into one (`rollup`); a cell without entries is not recorded. Pure: the
outcomes of a verify, when there are, say which cells rest on a stale citation; `since`
(a hook the history's since-when fills) says when a cell's entry reached its state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..conformance.measurements import cell_status
from ..conformance.runs import Record
from ..model.concepts import MAX_DEPTH, Concept
from ..model.registers import CitationKey, Entry, RegisterSet
from ..verifying.outcome import NOT_STALE
from .priorities import own_subject

NOT_RECORDED = "not recorded"
"""A cell no entry of its subject fills (its state word on every channel)."""

Since = Mapping[str, Any]
"""When an entry reached its current state, as the JSON says it: `{"date", "commit", "pin"}`."""
SinceOf = Callable[[Entry], Since | None]
"""The since-when hook: an entry -> when it reached its state, or None (unknown)."""


@dataclass(frozen=True)
class Cell:
    """One subject's entries for one concept, and what they say together."""

    subject: str
    entries: tuple[Entry, ...]
    """The subject's entries naming the concept, in register then file order."""
    state: str
    """The entries' states rolled up (`rollup`); `NOT_RECORDED` without entries."""
    stale: tuple[str, ...] = ()
    """The IDs of its entries with a stale citation (known only after a verify)."""
    since: Since | None = None
    """When its (first) entry reached its state: what the since-when hook said."""
    checks: Mapping[str, str | None] = field(default_factory=dict)
    """The concept's conformance checks -> their latest status for the subject (None: not
    run), when the subject has recorded results (`conformance.measurements.cell_status`)."""

    @property
    def recorded(self) -> bool:
        return bool(self.entries)

    @property
    def entry(self) -> Entry | None:
        """The cell's first entry, the one it links to (its page lists the others)."""
        return self.entries[0] if self.entries else None


@dataclass(frozen=True)
class Row:
    """One concept across every subject."""

    concept: Concept
    depth: int
    """How many parents are above it: 0 for a concept of its own, 1 under one, ..."""
    cells: tuple[Cell, ...]
    """One per subject, in the matrix's subject order."""

    @property
    def done(self) -> int:
        """How many subjects are done (the rollup column)."""
        return sum(cell.state == "done" for cell in self.cells)


@dataclass(frozen=True)
class Matrix:
    """The whole matrix, and the concepts nobody names."""

    subjects: tuple[str, ...]
    rows: tuple[Row, ...]
    unnamed: tuple[Concept, ...]
    """Concepts no entry of any register names, in file order (listed, not an error)."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Subject -> the name the site shows for it (its source's title, `Sources.name_of`)."""


def rollup(states: list[str]) -> str:
    """The one state a cell of several entries shows.

    `n/a` entries are left out (they do not apply); none left is `n/a`. States all alike
    are that state. Otherwise the cell is `partial` when any entry is `done` or `partial`
    (some of it is there), else `missing` (a known gap, with the rest unassessed)."""
    if not states:
        return NOT_RECORDED
    applying = [state for state in states if state != "n/a"]
    if not applying:
        return "n/a"
    if len(set(applying)) == 1:
        return applying[0]
    return "partial" if {"done", "partial"} & set(applying) else "missing"


def subjects_of(registers: RegisterSet, first: str | None = None) -> tuple[str, ...]:
    """Every subject, `first` (the project's own, `priorities.own_subject`) leading, the
    others in the order the registers first name them (an empty one left out)."""
    named = dict.fromkeys(r.subject for r in registers.registers if r.subject)
    return tuple(sorted(named, key=lambda subject: subject != first))  # stable: file order


def matrix(
    registers: RegisterSet,
    outcomes: Mapping[CitationKey, str] | None = None,
    since: SinceOf | None = None,
    first: str | None = None,
    records: Mapping[str, Record] | None = None,
) -> Matrix:
    """The matrix of a checked register set; `outcomes` (a citation's key -> its outcome
    name) mark the cells resting on a stale citation, `since` dates each cell, the subject
    `first` is the first column (by default the subject of the most entries)."""
    subjects = subjects_of(registers, own_subject(registers, first))
    concepts = registers.concepts.concepts if registers.concepts else ()
    named = _named(registers)
    found = records or {}

    def checks(concept: Concept, subject: str) -> Callable[[Entry], Mapping[str, str | None]]:
        return lambda entry: cell_status(entry, concept, found.get(subject))

    rows = tuple(
        Row(
            concept,
            depth,
            tuple(
                _cell(s, named.get((concept.id, s), []), outcomes, since, checks(concept, s))
                for s in subjects
            ),
        )
        for concept, depth in grouped(concepts)
    )
    used = {concept_id for concept_id, _ in named}
    unnamed = tuple(concept for concept, _ in grouped(concepts) if concept.id not in used)
    names = {subject: registers.sources.name_of(subject) for subject in subjects}
    return Matrix(subjects, rows, unnamed, names)


def grouped(concepts: tuple[Concept, ...]) -> list[tuple[Concept, int]]:
    """Each concept once, with its depth: those of their own in file order, each followed
    by the concepts under it (in file order, recursively). A concept whose parent is
    unknown, or in a cycle (check reports both), stands on its own; one deeper than
    `MAX_DEPTH` (an error of check too) is shown at that depth."""
    ids = {concept.id for concept in concepts}
    children: dict[str, list[Concept]] = {}
    for concept in concepts:
        if concept.parent is not None and concept.parent in ids:
            children.setdefault(concept.parent, []).append(concept)
    placed: set[str] = set()
    order: list[tuple[Concept, int]] = []

    def place(root: Concept) -> None:  # depth first, on a stack: a chain may be long
        stack = [(root, 0)]
        while stack:
            concept, depth = stack.pop()
            if concept.id not in placed:  # a duplicate ID or a cycle: each concept is one row
                placed.add(concept.id)
                order.append((concept, min(depth, MAX_DEPTH)))
                stack.extend((child, depth + 1) for child in reversed(children.get(concept.id, [])))

    for concept in concepts:
        if concept.parent is None or concept.parent not in ids:
            place(concept)
    for concept in concepts:  # those in a cycle have no root above them
        place(concept)
    return order


def _named(registers: RegisterSet) -> dict[tuple[str, str], list[Entry]]:
    """(concept ID, subject) -> the entries naming it, in register then file order."""
    found: dict[tuple[str, str], list[Entry]] = {}
    for register in registers.registers:
        for entry in register.entries:
            if entry.concept is not None and register.subject:
                found.setdefault((entry.concept, register.subject), []).append(entry)
    return found


def _cell(
    subject: str,
    entries: list[Entry],
    outcomes: Mapping[CitationKey, str] | None,
    since: SinceOf | None,
    measure: Callable[[Entry], Mapping[str, str | None]],
) -> Cell:
    stale = tuple(entry.id for entry in entries if outcomes and _is_stale(entry, outcomes))
    when = since(entries[0]) if since is not None and entries else None
    state = rollup([e.status.key for e in entries])
    measured = measure(entries[0]) if entries else {}
    return Cell(subject, tuple(entries), state, stale, when, measured)


def _is_stale(entry: Entry, outcomes: Mapping[CitationKey, str]) -> bool:
    """Whether any citation of the entry has an outcome that needs fixing (`unverified`
    says nothing: no checkout was read)."""
    return any(outcomes.get(c.key, "ok") not in NOT_STALE for c in entry.all_citations())


def matrix_data(shown: Matrix) -> dict[str, Any]:
    """The matrix as plain data (`register matrix --format json`): `{"subjects": [...],
    "rows": [{"concept", "title", "cells": {ALIAS: {"entry", "state", "since"}}}]}`, each
    row with its parent, depth and done count too, each cell with all its entries and the
    stale ones; then the IDs of the concepts nobody names, and each subject's shown name."""
    return {
        "subjects": list(shown.subjects),
        "names": dict(shown.names),
        "rows": [_row_data(row) for row in shown.rows],
        "unnamed": [concept.id for concept in shown.unnamed],
    }


def _row_data(row: Row) -> dict[str, Any]:
    return {
        "concept": row.concept.id,
        "title": row.concept.title,
        "parent": row.concept.parent,
        "depth": row.depth,
        "cells": {cell.subject: _cell_data(cell) for cell in row.cells},
        "done": row.done,
    }


def _cell_data(cell: Cell) -> dict[str, Any]:
    return {
        "entry": cell.entry.id if cell.entry else None,
        "state": cell.state,
        "since": dict(cell.since) if cell.since is not None else None,
        "entries": [entry.id for entry in cell.entries],
        "stale": list(cell.stale),
        **({"checks": dict(cell.checks)} if cell.checks else {}),
    }

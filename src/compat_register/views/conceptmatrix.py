"""The concept x subject matrix: a row per concept (each followed by those under it), a
column per subject (the project's own first), a cell for that subject's entries naming the
concept, their states rolled up into one. Pure."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..conformance.measurements import cell_status
from ..conformance.runs import Record
from ..model.concepts import MAX_DEPTH, Concept
from ..model.registers import CitationKey, Entry, RegisterSet
from ..reporting.matrixreport import NOT_RECORDED
from ..verifying.outcome import NOT_STALE
from .priorities import own_subject

Since = Mapping[str, Any]
"""When an entry reached its current state, as the JSON says it: `{"date", "commit", "pin"}`."""
SinceOf = Callable[[Entry], Since | None]
"""The since-when hook: an entry -> when it reached its state, or None (unknown)."""


@dataclass(frozen=True)
class Cell:
    """One subject's entries for one concept (in file order): their rolled-up `state`, the
    IDs of those with a stale citation, when the first reached its state, the checks' status."""

    subject: str
    entries: tuple[Entry, ...]
    state: str
    stale: tuple[str, ...] = ()
    since: Since | None = None
    checks: Mapping[str, str | None] = field(default_factory=dict)

    @property
    def recorded(self) -> bool:
        return bool(self.entries)

    @property
    def entry(self) -> Entry | None:
        """The entry the cell links to (its page lists the others)."""
        return self.entries[0] if self.entries else None


@dataclass(frozen=True)
class Row:
    """One concept across every subject, `depth` parents deep."""

    concept: Concept
    depth: int
    cells: tuple[Cell, ...]

    @property
    def done(self) -> int:
        return sum(cell.state == "done" for cell in self.cells)


@dataclass(frozen=True)
class Matrix:
    """The whole matrix, the concepts no entry names, each subject's name on the site."""

    subjects: tuple[str, ...]
    rows: tuple[Row, ...]
    unnamed: tuple[Concept, ...]
    names: Mapping[str, str] = field(default_factory=dict)
    versions: Mapping[str, str] = field(default_factory=dict)
    """What each subject's pin stands for: its `version:`, else the short commit."""


def rollup(states: list[str]) -> str:
    """The one state of several: `n/a` ones left out (none left is `n/a`), states all alike
    that state, else `partial` when any is `done` or `partial`, else `missing`."""
    if not states:
        return NOT_RECORDED
    applying = [state for state in states if state != "n/a"]
    if not applying:
        return "n/a"
    if len(set(applying)) == 1:
        return applying[0]
    return "partial" if {"done", "partial"} & set(applying) else "missing"


def matrix(
    registers: RegisterSet,
    outcomes: Mapping[CitationKey, str] | None = None,
    since: SinceOf | None = None,
    first: str | None = None,
    records: Mapping[str, Record] | None = None,
) -> Matrix:
    """The matrix of a checked set; `outcomes` (citation key -> outcome) mark the cells on a
    stale citation, `since` dates each cell, the subject `first` leads (by default the one
    of the most entries), then file order."""
    first = own_subject(registers, first)
    named_subjects = dict.fromkeys(r.subject for r in registers.registers if r.subject)
    subjects = tuple(sorted(named_subjects, key=lambda subject: subject != first))
    concepts = grouped(registers.concepts.concepts if registers.concepts else ())
    named = _named(registers)
    found = records or {}
    rows = []
    for concept, depth in concepts:
        cells = (
            _cell(s, named.get((concept.id, s), []), outcomes, since, concept, found.get(s))
            for s in subjects
        )
        rows.append(Row(concept, depth, tuple(cells)))
    used = {concept_id for concept_id, _ in named}
    unnamed = tuple(concept for concept, _ in concepts if concept.id not in used)
    names = {subject: registers.sources.name_of(subject) for subject in subjects}
    pins = registers.sources.sources
    versions = {s: pins[s].version_text for s in subjects if s in pins}
    return Matrix(subjects, tuple(rows), unnamed, names, versions)


def grouped(concepts: tuple[Concept, ...]) -> list[tuple[Concept, int]]:
    """Each concept once with its depth, roots in file order, each followed by those under it;
    one of an unknown parent or in a cycle stands on its own, one too deep at `MAX_DEPTH`."""
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
    concept: Concept,
    record: Record | None,
) -> Cell:
    if not entries:
        return Cell(subject, (), NOT_RECORDED)
    # `unverified` says nothing of a citation: no checkout was read
    stale = tuple(
        entry.id
        for entry in entries
        if outcomes
        and any(outcomes.get(c.key, "ok") not in NOT_STALE for c in entry.all_citations())
    )
    when = since(entries[0]) if since is not None else None
    state = rollup([e.status.key for e in entries])
    checks = cell_status(entries[0], concept, record)
    return Cell(subject, tuple(entries), state, stale, when, checks)


def matrix_data(shown: Matrix) -> dict[str, Any]:
    """The matrix as plain data, the JSON of `register matrix --format json`."""
    return {
        "subjects": list(shown.subjects),
        "names": dict(shown.names),
        "versions": dict(shown.versions),
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

"""What the recorded results say of each entry (its concept's checks in its subject's record),
for the matrix cells and the entry pages, and where a claim and a result disagree: `done`
while a named check fails or is baselined, `missing` while one passes; a check no concept
names, a baseline scenario that passed. Pure."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from ..model.concepts import Concept
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.positions import Where
from ..model.registers import Entry, Register, RegisterSet
from ..model.vocabulary import RATED
from ..reading.document import Document
from .runs import Measured, Record, measured, stale

UNMEASURED = frozenset({"INFO"})
"""Statuses that measure nothing: a check emitted only with these needs no concept."""


def cell_status(
    entry: Entry | None, concept: Concept | None, results: Record | None
) -> dict[str, str | None]:
    """A matrix cell: check ID -> its latest status (None: not run) for each check the
    concept names; empty without all three."""
    if entry is None or concept is None or results is None:
        return {}
    statuses = measured(results)
    return {check: getattr(statuses.get(check), "status", None) for check in concept.checks}


@dataclass(frozen=True)
class SubjectResult:
    """One subject's latest result for a check (`status` None: its record never ran it)."""

    subject: str
    commit: str
    status: str | None
    baselined: bool
    scenarios: tuple[str, ...]


@dataclass(frozen=True)
class EntryCheck(SubjectResult):
    """One check an entry's concept names, as its page shows it."""

    id: str


def result(record: Record, seen: Measured | None) -> SubjectResult:
    """`record`'s subject's result for a check it measured as `seen` (None: not run)."""
    if seen is None:
        return SubjectResult(record.subject, record.commit, None, False, ())
    return SubjectResult(record.subject, record.commit, seen.status, seen.baselined, seen.scenarios)


@dataclass(frozen=True)
class Measurements:
    """What a site shows of the recorded results: each entry's checks, every contradiction
    and record that does not read, each subject's record (for the matrix cells)."""

    checks: dict[str, list[EntryCheck]]
    contradictions: list[Diagnostic]
    records: Mapping[str, Record]

    def checks_of(self, entry_id: str) -> list[EntryCheck]:
        return self.checks.get(entry_id, [])


def measurements(
    registers: RegisterSet,
    documents: Mapping[str, Document],
    records: Mapping[str, Record],
    problems: list[Diagnostic],
) -> Measurements:
    found = contradictions(registers, documents, records)
    every = sort_diagnostics([*problems, *found])
    return Measurements(entry_checks(registers, records), every, records)


def entry_checks(
    registers: RegisterSet, records: Mapping[str, Record]
) -> dict[str, list[EntryCheck]]:
    """Entry ID -> the checks its concept names, measured for its subject (entries whose
    concept names checks and whose subject has a record)."""
    statuses = {alias: measured(record) for alias, record in records.items()}
    return {
        entry.id: [
            EntryCheck(**vars(result(record, statuses[register.subject].get(check))), id=check)
            for check in concept.checks
        ]
        for register, entry, concept, record in _measuring(registers, records)
    }


def contradictions(
    registers: RegisterSet, documents: Mapping[str, Document], records: Mapping[str, Record]
) -> list[Diagnostic]:
    """Every contradiction between the registers' claims and the recorded results."""
    statuses = {alias: measured(record) for alias, record in records.items()}
    found: list[Diagnostic] = []
    for register, entry, concept, record in _measuring(registers, records):
        where = state_at(register, entry, documents)
        found.extend(_claim(entry, concept, statuses[register.subject], record, where))
    concepts = registers.concepts.by_id() if registers.concepts else {}
    named = {check for concept in concepts.values() for check in concept.checks}
    for alias, record in records.items():
        found.extend(_unnamed(record, statuses[alias], named))
        found.extend(_stale(record))
    return found


def _measuring(
    registers: RegisterSet, records: Mapping[str, Record]
) -> Iterator[tuple[Register, Entry, Concept, Record]]:
    """Each entry whose concept names checks and whose subject has a record, with them."""
    concepts = registers.concepts.by_id() if registers.concepts else {}
    for register in registers.registers:
        if (record := records.get(register.subject)) is None:
            continue
        for entry in register.entries:
            concept = concepts.get(entry.concept) if entry.concept else None
            if concept is not None and concept.checks:
                yield register, entry, concept, record


def state_at(register: Register, entry: Entry, documents: Mapping[str, Document]) -> Where:
    """Where an entry's state is written (else the entry): where a claim is contradicted."""
    doc = documents.get(register.file)
    return entry.where if doc is None else doc.where((*entry.field, "status", RATED["status"]))


def _claim(
    entry: Entry, concept: Concept, statuses: Mapping[str, Measured], record: Record, where: Where
) -> Iterator[Diagnostic]:
    state, at = entry.status.key, f"{record.subject} at {record.commit[:12]}"
    for check_id in concept.checks:
        if (check := statuses.get(check_id)) is None:
            continue
        ran = f"{check.status} in {', '.join(check.scenarios)}"
        if state == "done" and check.status == "FAILURE":
            code = "conformance-done-fails"
            message = f"done, but conformance check {check_id} fails for {at} ({ran})"
        elif state == "done" and check.baselined:
            code = "conformance-done-baselined"
            message = (
                f"done, but conformance check {check_id} sits in {record.subject}'s "
                f"expected-failures baseline ({ran}): a scenario listed there is known to fail"
            )
        elif state == "missing" and check.status == "SUCCESS":
            code = "conformance-missing-passes"
            message = (
                f"missing, but conformance check {check_id} passes for {at} ({ran}): "
                "the state is stale, as an expected failure that now passes is"
            )
        else:
            continue
        yield Diagnostic.at(where, id=entry.id, code=code, message=message)


def _unnamed(
    record: Record, statuses: Mapping[str, Measured], named: set[str]
) -> Iterator[Diagnostic]:
    for check in statuses.values():
        if check.id in named or check.status in UNMEASURED:
            continue
        message = (
            f"conformance check {check.id} ({check.status} in {', '.join(check.scenarios)}) "
            "is named by no concept: list it under a concept's checks in concepts.yaml"
        )
        code = "conformance-unnamed-check"
        yield Diagnostic.at(check.where, id=record.subject, code=code, message=message)


def _stale(record: Record) -> Iterator[Diagnostic]:
    for listed, _run in stale(record):
        message = (
            f"{listed.mode} scenario {listed.scenario} is in the expected-failures baseline "
            f"but passed: remove it from {record.baseline.file if record.baseline else 'it'}"
        )
        code = "conformance-stale-baseline"
        yield Diagnostic.at(
            listed.where, id=record.subject, code=code, message=message, severity="warning"
        )

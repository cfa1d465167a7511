"""What the recorded conformance results say of each entry (its concept's checks in its
subject's record), for the matrix cells, the entry pages and the health page. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..model.concepts import Concept
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.registers import Entry, RegisterSet
from ..reading.document import Document
from .contradictions import contradictions
from .runs import Measured, Record, measured


def cell_status(
    entry: Entry | None, concept: Concept | None, results: Record | None
) -> dict[str, str | None]:
    """A matrix cell's measurement: check ID -> its latest status (None: not run) for each
    check the concept names; empty without all three."""
    if entry is None or concept is None or results is None or not concept.checks:
        return {}
    statuses = measured(results)
    return {check: _status(statuses.get(check)) for check in concept.checks}


def _status(check: Measured | None) -> str | None:
    return None if check is None else check.status


@dataclass(frozen=True)
class EntryCheck:
    """One check an entry's concept names, as its page shows it (no status: not run)."""

    id: str
    status: str | None
    baselined: bool
    scenarios: tuple[str, ...]
    subject: str
    commit: str


def entry_checks(
    registers: RegisterSet, records: Mapping[str, Record]
) -> dict[str, list[EntryCheck]]:
    """Entry ID -> the checks its concept names, measured for its subject (entries whose
    concept names checks and whose subject has a record)."""
    concepts = registers.concepts.by_id() if registers.concepts else {}
    statuses = {alias: measured(record) for alias, record in records.items()}
    found: dict[str, list[EntryCheck]] = {}
    for register in registers.registers:
        record = records.get(register.subject)
        if record is None:
            continue
        for entry in register.entries:
            concept = concepts.get(entry.concept) if entry.concept else None
            if concept is None or not concept.checks:
                continue
            found[entry.id] = [
                _entry_check(check, statuses[register.subject].get(check), record)
                for check in concept.checks
            ]
    return found


def _entry_check(check: str, seen: Measured | None, record: Record) -> EntryCheck:
    if seen is None:
        return EntryCheck(check, None, False, (), record.subject, record.commit)
    return EntryCheck(
        check, seen.status, seen.baselined, seen.scenarios, record.subject, record.commit
    )


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

"""Where a claim and a measurement disagree: `done` while a named check fails or is
baselined, `missing` while one passes; a measuring check no concept names, a baseline
scenario that passed. Pure."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..model.concepts import Concept
from ..model.diagnostic import Diagnostic
from ..model.positions import Where
from ..model.registers import Entry, RegisterSet
from ..model.vocabulary import RATED
from ..reading.document import Document
from .runs import Measured, Record, measured, stale

UNMEASURED = frozenset({"INFO"})
"""Statuses that measure nothing: a check emitted only with these needs no concept."""


def contradictions(
    registers: RegisterSet, documents: Mapping[str, Document], records: Mapping[str, Record]
) -> list[Diagnostic]:
    """Every contradiction between the registers' claims and the recorded results."""
    concepts = registers.concepts.by_id() if registers.concepts else {}
    statuses = {alias: measured(record) for alias, record in records.items()}
    found: list[Diagnostic] = []
    for register in registers.registers:
        measured_here = statuses.get(register.subject)
        if measured_here is None:
            continue
        doc = documents.get(register.file)
        for entry in register.entries:
            concept = concepts.get(entry.concept) if entry.concept else None
            if concept is not None and concept.checks:
                record, where = records[register.subject], state_where(entry, doc)
                found.extend(_claim(entry, concept, measured_here, record, where))
    named = {check for concept in concepts.values() for check in concept.checks}
    for alias, record in records.items():
        found.extend(_unnamed(record, statuses[alias], named))
        found.extend(_stale(record))
    return found


def state_where(entry: Entry, doc: Document | None) -> Where:
    """Where the entry's state is written (the entry's start without the document)."""
    if doc is None:
        return entry.where
    mark = doc.mark((*entry.field, "status", RATED["status"]))
    return Where(doc.file, mark.line, mark.col)


def _claim(
    entry: Entry,
    concept: Concept,
    statuses: Mapping[str, Measured],
    record: Record,
    where: Where,
) -> Iterator[Diagnostic]:
    state = entry.status.key
    at = f"{record.subject} at {record.commit[:12]}"
    for check_id in concept.checks:
        check = statuses.get(check_id)
        if check is None:
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
                "the state is stale, as a baseline entry that passes is"
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

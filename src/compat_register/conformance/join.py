"""Each statement joined with the suite's checks, pure: the requirements aligned with it
(`statements.alignment`), the suite's status of each (tested, untested, excluded with its
reason) and each subject's latest result; and the claims a result contradicts: an entry
citing the statement says `done` while its subject fails the check, or `missing` while
its subject passes it."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..coverage.states import Coverage, Row
from ..model.concepts import Concept
from ..model.diagnostic import Diagnostic
from ..model.notation import lines_text
from ..model.registers import Entry, Register, RegisterSet
from ..reading.document import Document
from ..statements import alignment
from ..statements.statement import Statement
from .measurements import state_at
from .requirements import Requirement
from .runs import Measured, Record, measured


@dataclass(frozen=True)
class SubjectResult:
    """One subject's latest result for a check (`status` None: its record never ran it)."""

    subject: str
    commit: str
    status: str | None
    baselined: bool
    scenarios: tuple[str, ...]


@dataclass(frozen=True)
class StatementCheck:
    """A requirement of the suite aligned with a statement, and what each subject got."""

    requirement: Requirement
    how: str
    """How it is aligned: one of `alignment.KINDS`."""
    results: tuple[SubjectResult, ...]
    """Each subject with a record, in the order given (`api.joining`: sources.yaml's);
    none for an excluded requirement."""

    def result_of(self, subject: str) -> SubjectResult | None:
        """`subject`'s result, if its record ran the check."""
        return next((r for r in self.results if r.subject == subject and r.status), None)


@dataclass(frozen=True)
class Joined:
    """The checks of every statement the suite's requirements align with."""

    checks: Mapping[tuple[str, Statement], tuple[StatementCheck, ...]]
    """(revision, statement) -> its checks, in the suite's order."""

    def of(self, row: Row) -> tuple[StatementCheck, ...]:
        return self.checks.get((row.revision, row.statement), ())


def join(
    coverage: Coverage, requirements: Sequence[Requirement], records: Mapping[str, Record]
) -> Joined:
    """Each requirement aligned with the statements of the revision its URL names, with the
    results of every subject's record."""
    statements = tuple(
        (r, tuple(row.statement for row in coverage.of(r))) for r in coverage.revisions
    )
    asked = tuple(alignment.Requirement(str(n), r.text, r.url) for n, r in enumerate(requirements))
    statuses = {alias: measured(record) for alias, record in records.items()}
    found: dict[tuple[str, Statement], list[StatementCheck]] = {}
    for aligned in _aligned(asked, statements):
        if aligned.how not in alignment.KINDS:
            continue
        requirement = requirements[int(aligned.requirement.key)]
        results = tuple(
            _result(record, statuses[alias].get(requirement.check))
            for alias, record in records.items()
            if requirement.check is not None
        )
        revision = alignment.target(requirement.url)
        for statement in aligned.statements:
            key = (revision.revision if revision else "", statement)
            found.setdefault(key, []).append(StatementCheck(requirement, aligned.how, results))
    return Joined({key: tuple(checks) for key, checks in found.items()})


@functools.lru_cache(maxsize=2)
def _aligned(
    asked: tuple[alignment.Requirement, ...],
    statements: tuple[tuple[str, tuple[Statement, ...]], ...],
) -> list[alignment.Alignment]:
    """`alignment.align`, kept for the same requirements and statements: a served site's
    rebuild aligns again only when a pin moves (it costs half a second on the real spec)."""
    return alignment.align(asked, dict(statements))


def _result(record: Record, seen: Measured | None) -> SubjectResult:
    if seen is None:
        return SubjectResult(record.subject, record.commit, None, False, ())
    return SubjectResult(record.subject, record.commit, seen.status, seen.baselined, seen.scenarios)


CLAIMS = frozenset({("done", "FAILURE"), ("missing", "SUCCESS")})
"""The (entry's state, its subject's result) pairs that contradict each other."""


def contradictions(
    joined: Joined,
    coverage: Coverage,
    registers: RegisterSet,
    documents: Mapping[str, Document],
) -> list[Diagnostic]:
    """Each claim a result contradicts, once per entry and check, at the entry's state; a
    check its concept names is judged by `measurements` instead."""
    owners = {e.id: (r, e) for r in registers.registers for e in r.entries}
    concepts = registers.concepts.by_id() if registers.concepts else {}
    found: dict[tuple[str, str], Diagnostic] = {}
    for row in coverage.rows:
        for check, (register, entry) in _cited(joined.of(row), row, owners):
            concept = concepts.get(entry.concept) if entry.concept else None
            result = check.result_of(register.subject)
            state = entry.status.key
            if result is None or (state, result.status) not in CLAIMS:
                continue
            if check.requirement.check in _named(concept):
                continue
            code = (
                "conformance-statement-fails" if state == "done" else "conformance-statement-passes"
            )
            where = state_at(register, entry, documents)
            message = _message(state, check, result, row)
            key = (entry.id, check.requirement.check or "")
            found.setdefault(key, Diagnostic.at(where, id=entry.id, code=code, message=message))
    return list(found.values())


def _named(concept: Concept | None) -> tuple[str, ...]:
    return concept.checks if concept is not None else ()


def _cited(
    checks: Sequence[StatementCheck], row: Row, owners: Mapping[str, tuple[Register, Entry]]
) -> Iterator[tuple[StatementCheck, tuple[Register, Entry]]]:
    """Each check of the statement with each entry citing it."""
    for check in checks:
        for entry_id in row.entries:
            if entry_id in owners and check.requirement.check is not None:
                yield check, owners[entry_id]


def _message(state: str | None, check: StatementCheck, result: SubjectResult, row: Row) -> str:
    s, requirement = row.statement, check.requirement
    ran = f"{result.status} in {', '.join(result.scenarios)}"
    at = f"{result.subject} at {result.commit[:12]}"
    verb = "fails" if result.status == "FAILURE" else "passes"
    return (
        f"{state}, but conformance check {requirement.check} {verb} for {at} ({ran}); "
        f"the suite's SEP-{requirement.sep} "
        f"aligns it ({check.how}) with the statement this entry cites, "
        f"{row.revision} {s.path}:{lines_text(s.line, s.end)}"
    )

"""Each statement joined with the suite's checks: the requirements aligned with it, their
status in the suite and each subject's latest result; and the claims a result contradicts
(an entry citing the statement `done` while its subject fails the check, `missing` while it
passes). Pure."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..coverage.states import Coverage, Row
from ..model.diagnostic import Diagnostic
from ..model.notation import lines_text
from ..model.registers import RegisterSet
from ..reading.document import Document
from ..statements import alignment
from ..statements.statement import Statement
from .measurements import SubjectResult, result, state_at
from .requirements import Requirement
from .runs import Record, measured


@dataclass(frozen=True)
class StatementCheck:
    """A requirement of the suite aligned with a statement, and what each subject got."""

    requirement: Requirement
    how: str
    """How it is aligned: one of `alignment.KINDS`."""
    results: tuple[SubjectResult, ...]
    """Each subject with a record, in the order given; none for an excluded requirement."""

    def result_of(self, subject: str) -> SubjectResult | None:
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
            result(record, statuses[alias].get(requirement.check))
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
        for check in joined.of(row):  # an excluded requirement has no result
            for register, entry in (owners[e] for e in row.entries if e in owners):
                result, state = check.result_of(register.subject), entry.status.key
                if result is None or (state, result.status) not in CLAIMS:
                    continue
                concept = concepts.get(entry.concept) if entry.concept else None
                if concept is not None and check.requirement.check in concept.checks:
                    continue
                key = (entry.id, check.requirement.check or "")
                if key in found:
                    continue
                fails = state == "done"
                code = "conformance-statement-fails" if fails else "conformance-statement-passes"
                message = _message(state, check, result, row)
                where = state_at(register, entry, documents)
                found[key] = Diagnostic.at(where, id=entry.id, code=code, message=message)
    return list(found.values())


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

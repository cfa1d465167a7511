"""A subject's score against a revision's requirement set, and the tier it meets (SEP-1730:
Tier 1 passes every scored scenario, Tier 2 at least 80 %), with each SEP's checks' pass
rate beside it. Pure: a record and the suite's files in, counts out."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..model.results import Result
from .requirements import NotScored, Requirement, RequirementSet
from .runs import FAILING, MODES, Record, at_revision, measured

PASSED, FAILED, NOT_RUN = "passed", "failed", "not run"
"""A scenario's outcome in a record: its latest run passed or failed as the suite judges it
(a `FAILURE` or `WARNING` check fails it), or the record holds no run of it."""


@dataclass(frozen=True)
class Outcome:
    scenario: str
    mode: str
    outcome: str


@dataclass(frozen=True)
class Score:
    """One subject against one revision's requirement set."""

    subject: str
    revision: str
    legs: tuple[str, ...]
    """The modes the record holds a run of (a server alone is scored as a server)."""
    scored: tuple[Outcome, ...]
    """Each scored scenario of those legs; one not run counts as failed."""
    not_scored: tuple[tuple[NotScored, str], ...]
    """Each `not_scored` scenario and its outcome: never counted."""
    wire_known: bool = True
    """False when the record holds no run at this revision's wire (`--revision`) and its
    untagged runs were scored."""

    def count(self, outcome: str) -> int:
        return sum(1 for item in self.scored if item.outcome == outcome)

    @property
    def rate(self) -> float | None:
        """passed / (passed + failed), a scenario not run counted failed; None: none scored."""
        return self.count(PASSED) / len(self.scored) if self.scored else None

    @property
    def tier(self) -> int | None:
        """1 at 100 %, 2 at 80 % or more, else None (integers: 80 % is never a float's)."""
        passed, total = self.count(PASSED), len(self.scored)
        if total and passed == total:
            return 1
        return 2 if total and passed * 5 >= total * 4 else None


@dataclass(frozen=True)
class SepRate:
    """One SEP's checks against a subject's latest check statuses."""

    sep: int
    checks: tuple[str, ...]
    passed: int
    """Checks whose latest status is `SUCCESS`."""
    failed: int
    """`FAILURE` or `WARNING`."""

    @property
    def not_run(self) -> int:
        """Checks no run emitted, or emitted only as `SKIPPED` or `INFO`."""
        return len(self.checks) - self.passed - self.failed

    @property
    def rate(self) -> float | None:
        judged = self.passed + self.failed
        return self.passed / judged if judged else None


def score(record: Record, held: RequirementSet) -> Score:
    """`record`'s subject against the set `held`: by its runs at that revision's wire, or
    its untagged runs when it holds none."""
    chosen, tagged = at_revision(record.runs, held.revision)
    runs = {(run.mode, run.scenario): run for run in chosen}
    legs = tuple(mode for mode in MODES if any(run.mode == mode for run in chosen))

    def outcome(mode: str, scenario: str) -> str:
        run = runs.get((mode, scenario))
        return NOT_RUN if run is None else FAILED if run.failed else PASSED

    scored = tuple(
        Outcome(name, mode, outcome(mode, name)) for mode in legs for name in held.scored(mode)
    )
    apart = tuple((item, outcome(item.mode, item.scenario)) for item in held.not_scored)
    return Score(record.subject, held.revision, legs, scored, apart, tagged or not chosen)


def sep_rates(record: Record, requirements: Iterable[Requirement]) -> list[SepRate]:
    """Each SEP's checks (of its traceability file) against `record`, by SEP number."""
    checks: dict[int, dict[str, None]] = {}
    for requirement in requirements:
        if requirement.check is not None:
            checks.setdefault(requirement.sep, {})[requirement.check] = None
    statuses = {check: held.status for check, held in measured(record).items()}
    found = []
    for sep in sorted(checks):
        names = tuple(checks[sep])
        passed = sum(1 for name in names if statuses.get(name) == "SUCCESS")
        failed = sum(1 for name in names if statuses.get(name) in FAILING)
        found.append(SepRate(sep, names, passed, failed))
    return found


@dataclass
class Scored(Result):
    """`register conformance score`'s result."""

    scores: list[Score] = field(default_factory=list)
    """By subject (sources.yaml's order), then revision (its order)."""
    seps: dict[str, list[SepRate]] = field(default_factory=dict)
    """subject -> each SEP's checks' pass rate."""
    suite: str | None = None
    """The source naming the suite's requirement files."""
    names: dict[str, str] = field(default_factory=dict)
    """subject -> the name the site shows for it (its source's title)."""

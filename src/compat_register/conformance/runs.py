"""A conformance run's values, as the suite writes them and a record keeps them, and what a
record measured: each check's latest status, and the baseline's rule. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..model.positions import Where

STATUSES = ("SUCCESS", "FAILURE", "WARNING", "SKIPPED", "INFO")
"""A check's status, as the suite's `ConformanceCheck.status`."""

WORST_FIRST = ("FAILURE", "WARNING", "SUCCESS", "SKIPPED", "INFO")
"""The status a check shows when emitted more than once: the worst."""

FAILING = frozenset({"FAILURE", "WARNING"})
"""The statuses that make a scenario fail, as the suite's baseline check counts them."""

MODES = ("server", "client")
"""Who was tested: a server (the suite is its client) or a client; the baseline's keys."""


@dataclass(frozen=True)
class SpecReference:
    id: str
    url: str | None


@dataclass(frozen=True)
class Check:
    """One check the suite emitted, where it is written (checks.json, or the record)."""

    id: str
    status: str
    name: str | None
    description: str | None
    timestamp: str | None
    spec_references: tuple[SpecReference, ...]
    error: str | None
    """The suite's `errorMessage`."""
    where: Where


@dataclass(frozen=True)
class Run:
    """One scenario's run: the checks of one `checks.json`."""

    mode: str
    scenario: str
    timestamp: str | None
    """ISO 8601, from its folder's name when the suite named it."""
    file: str
    """The checks.json it was read from, as named on the command line."""
    checks: tuple[Check, ...]
    where: Where
    revision: str | None = None
    """The revision whose wire the run spoke (`import --revision`); None: unknown."""

    @property
    def failed(self) -> bool:
        """By the suite's baseline rule."""
        return any(check.status in FAILING for check in self.checks)


@dataclass(frozen=True)
class Listed:
    """A scenario an expected-failures baseline lists."""

    mode: str
    scenario: str
    where: Where


@dataclass(frozen=True)
class Baseline:
    """An expected-failures baseline: the scenarios a subject is known to fail."""

    file: str
    listed: tuple[Listed, ...]

    def scenarios(self, mode: str) -> list[str]:
        return [item.scenario for item in self.listed if item.mode == mode]

    def lists(self, mode: str, scenario: str) -> bool:
        return any(item.mode == mode and item.scenario == scenario for item in self.listed)


@dataclass(frozen=True)
class Record:
    """A subject's recorded results: `registers/conformance/<ALIAS>.json`."""

    subject: str
    commit: str
    """The subject's commit the runs measured (by default its pin when imported)."""
    runs: tuple[Run, ...]
    """The latest run of each scenario per revision, by revision, mode, scenario."""
    baseline: Baseline | None
    file: str


@dataclass(frozen=True)
class Measured:
    """One check's latest status in a subject's record."""

    id: str
    status: str
    baselined: bool
    """Whether a scenario that emitted it is in the expected-failures baseline."""
    scenarios: tuple[str, ...]
    where: Where
    """Its worst occurrence's first place in the record."""


def latest_runs(runs: Iterable[Run]) -> list[Run]:
    """The latest run of each (mode, scenario), sorted; a run of no known time is older than
    one with a time; of two alike the later given wins."""
    latest: dict[tuple[str, str], Run] = {}
    for run in runs:
        key = (run.mode, run.scenario)
        held = latest.get(key)
        if held is None or (run.timestamp or "") >= (held.timestamp or ""):
            latest[key] = run
    return [latest[key] for key in sorted(latest)]


def at_revision(runs: Sequence[Run], revision: str) -> tuple[list[Run], bool]:
    """The runs made at `revision`'s wire, and True; when none is, the untagged runs and False."""
    tagged = [run for run in runs if run.revision == revision]
    return (tagged, True) if tagged else ([run for run in runs if run.revision is None], False)


def measured(record: Record) -> dict[str, Measured]:
    """Check ID -> its worst latest status, in the order the record first emits each: of a
    scenario run at several revisions' wires, its latest run (as the suite last saw it)."""
    found: dict[str, Measured] = {}
    for run in latest_runs(record.runs):
        listed = record.baseline is not None and record.baseline.lists(run.mode, run.scenario)
        for check in run.checks:
            first = Measured(check.id, check.status, listed, (), check.where)
            held = found.get(check.id, first)  # a first sighting: its own status and place
            worse = WORST_FIRST.index(check.status) < WORST_FIRST.index(held.status)
            scenarios = held.scenarios + (() if run.scenario in held.scenarios else (run.scenario,))
            worst = check if worse else held
            baselined = held.baselined or listed
            found[check.id] = Measured(check.id, worst.status, baselined, scenarios, worst.where)
    return found


def stale(record: Record) -> list[tuple[Listed, Run]]:
    """Each baseline scenario whose latest run passed (the suite's `Stale baseline
    entries`); a listed scenario not run is not judged."""
    if record.baseline is None:
        return []
    runs = {(run.mode, run.scenario): run for run in latest_runs(record.runs)}
    return [
        (item, run)
        for item in record.baseline.listed
        if (run := runs.get((item.mode, item.scenario))) is not None and not run.failed
    ]

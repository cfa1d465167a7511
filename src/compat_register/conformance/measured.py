"""What a subject's record measured: each check's latest status, and the baseline's rule.
Pure.

From the latest run of each scenario, a check emitted more than once shows its worst status
(`results.WORST_FIRST`); it *sits in the baseline* when a scenario that emitted it is
listed there, and a listed scenario whose run passed is a *stale baseline*.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..model.positions import Where
from .runs import WORST_FIRST, Listed, Record, Run


@dataclass(frozen=True)
class Measured:
    """One check's latest status in a subject's record."""

    id: str
    status: str
    baselined: bool
    """Whether a scenario that emitted it is in the expected-failures baseline."""
    scenarios: tuple[str, ...]
    """The scenarios that emitted it, in the record's order."""
    where: Where
    """Where the record holds it first (its worst occurrence)."""


def latest_runs(runs: Iterable[Run]) -> list[Run]:
    """The latest run of each (mode, scenario), by mode then scenario; a run of no known
    time counts as older than one with a time, and of two alike the later given wins."""
    latest: dict[tuple[str, str], Run] = {}
    for run in runs:
        key = (run.mode, run.scenario)
        held = latest.get(key)
        if held is None or (run.timestamp or "") >= (held.timestamp or ""):
            latest[key] = run
    return [latest[key] for key in sorted(latest)]


def measured(record: Record) -> dict[str, Measured]:
    """Check ID -> its latest status, in the order the record first emits each."""
    found: dict[str, Measured] = {}
    for run in record.runs:
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
    """Each baseline scenario whose latest run passed: the suite would fail the run on it
    (`Stale baseline entries (now passing)`). A listed scenario not run is not judged."""
    if record.baseline is None:
        return []
    runs = {(run.mode, run.scenario): run for run in record.runs}
    return [
        (item, run)
        for item in record.baseline.listed
        if (run := runs.get((item.mode, item.scenario))) is not None and not run.failed
    ]

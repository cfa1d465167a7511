"""The values of a conformance run, as the suite writes them and a subject's record keeps
them.

The suite writes a folder per scenario run (`<scenario>-<timestamp>/`, `server-` before a
server one) holding `checks.json`: checks with an `id`, a `status` (`STATUSES`) and
optional `name`, `description`, `timestamp`, `specReferences`, `errorMessage`, `details`.
An expected-failures baseline lists scenarios under `server:` and `client:`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.positions import Where

STATUSES = ("SUCCESS", "FAILURE", "WARNING", "SKIPPED", "INFO")
"""A check's status, as the suite's `ConformanceCheck.status`."""

WORST_FIRST = ("FAILURE", "WARNING", "SUCCESS", "SKIPPED", "INFO")
"""Which status a check shows when a run emitted it more than once, or several scenarios
did: the worst (a check that failed once failed)."""

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
    """One check the suite emitted."""

    id: str
    status: str
    name: str | None
    description: str | None
    timestamp: str | None
    spec_references: tuple[SpecReference, ...]
    error: str | None
    """The suite's `errorMessage`: why it failed."""
    where: Where
    """Where it is written: in checks.json when imported, in the record once recorded."""


@dataclass(frozen=True)
class Run:
    """One scenario's run: the checks of one `checks.json`."""

    mode: str
    """"server" or "client" (`MODES`)."""
    scenario: str
    timestamp: str | None
    """When the run was made, from its folder's name (ISO 8601), None when the folder is
    not named as the suite names it."""
    file: str
    """The checks.json it was read from, as it was named on the command line."""
    checks: tuple[Check, ...]
    where: Where

    @property
    def failed(self) -> bool:
        """Whether the scenario failed, by the suite's baseline rule: a FAILURE or a
        WARNING among its checks."""
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
    """The baseline file as it was named on the command line."""
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
    """The subject's commit the runs measured (its pin when imported, by default)."""
    runs: tuple[Run, ...]
    """The latest run of each scenario, by mode then scenario."""
    baseline: Baseline | None
    file: str
    """The record file, as messages name it."""

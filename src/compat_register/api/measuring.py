"""`register coverage` and `register matrix`, and what the Coverage and Matrix pages read."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..coverage import run
from ..coverage.sitecoverage import SiteCoverage
from ..history import repository, since
from ..history.repository import Commit
from ..model.diagnostic import sort_diagnostics
from ..model.registers import RegisterSet
from ..model.results import Result
from ..reading import folder
from ..sources import pins
from ..storage.errors import RegisterError
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from ..verifying import verify
from ..views import conceptmatrix as view
from .loading import Verified, check_at, project_paths, verify_at
from .recording import recorded_at


class UnknownRevision(RegisterError):
    """A revision named on the command line that sources.yaml does not declare."""

    usage = True


@dataclass
class Covered(Result):
    """What `register coverage` found: every statement's state, and every problem."""

    measured: run.Measured
    registers: RegisterSet
    revisions: list[str]
    """The revisions asked for (every one when none was named), in sources.yaml's order."""

    @property
    def configured(self) -> bool:
        """Whether any source names statement files (else there is nothing to count)."""
        return bool(run.statement_sources(self.registers))


def coverage(
    root: Path,
    revisions: Iterable[str] = (),
    *,
    minimum: float | None = None,
    settings: Settings = DEFAULTS,
) -> Covered:
    """`register coverage [REVISION...]`: each normative statement cited, excluded or
    uncovered, by the verified citations of the sources naming statement files. Below
    `minimum` percent a revision is an error. Raises UnknownRevision."""
    paths = project_paths(root, settings)
    sources = folder.read_sources(paths, {}, [])
    declared = sources.revisions
    asked = list(dict.fromkeys(revisions))
    if unknown := [r for r in asked if r not in declared]:
        raise UnknownRevision(
            f"no revision {', '.join(unknown)} in sources.yaml ({', '.join(declared)})"
        )
    skip = [alias for alias, source in sources.sources.items() if not source.statements]
    verified = verify_at(paths, skip, settings=settings)
    with closing(pins.Checkouts(paths, settings)) as checkouts:
        cache = paths.statements_cache
        measured = run.measure(verified.registers, verified.outcomes, checkouts, cache)
    shown = [r for r in declared if r in asked] if asked else list(declared)
    problems = run.threshold_problems(measured.coverage, verified.registers, shown, minimum)
    diagnostics = [*verified.diagnostics, *measured.diagnostics, *problems]
    return Covered(measured, verified.registers, shown, diagnostics=sort_diagnostics(diagnostics))


def site_coverage(
    paths: Paths,
    registers: RegisterSet,
    outcomes: Sequence[verify.Outcome] | None,
    settings: Settings = DEFAULTS,
) -> SiteCoverage | None:
    """The Coverage pages' statements, judged by `outcomes`; None when no source names
    statement files. Offline (no outcomes) nothing is read: no citation says what it covers."""
    readers = run.statement_sources(registers)
    if not readers:
        return None
    if outcomes is None:
        return SiteCoverage(None, problems=["an offline build: no citation was verified"])
    aliases = {s.alias for s in readers}
    unverified = [o for o in outcomes if o.outcome == "unverified" and o.citation.source in aliases]
    if unverified:
        first = unverified[0]
        said = f"{first.citation.source}: its citations were not verified ({first.message})"
        return SiteCoverage(None, problems=[said])
    with closing(pins.Checkouts(paths, settings)) as checkouts:
        measured = run.measure(registers, outcomes, checkouts, paths.statements_cache)
    problems = [d.message for d in measured.diagnostics if d.code == "coverage-unreadable"]
    if problems:
        return SiteCoverage(None, problems=problems)
    return SiteCoverage(measured.coverage, measured.changelogs)


@dataclass
class Matrixed(Result):
    """What `register matrix` found: the matrix, the set it was read from, every problem."""

    matrix: view.Matrix
    registers: RegisterSet

    @property
    def data(self) -> dict[str, Any]:
        """The matrix as plain data: `register matrix --format json`."""
        return view.matrix_data(self.matrix)


def matrix(
    root: Path,
    *,
    verify: bool = False,
    since: view.SinceOf | None = None,
    dated: bool = False,
    settings: Settings = DEFAULTS,
) -> Matrixed:
    """`register matrix`: one row per concept, one column per subject; with `verify`, a
    cell on a stale citation says so; `since` (or `dated`: the git history) dates each."""
    paths = project_paths(root, settings)
    read = verify_at(paths, settings=settings) if verify else check_at(paths, settings=settings)
    outcomes = None
    if isinstance(read, Verified):
        outcomes = {o.citation.key: o.outcome for o in read.outcomes}
    hook = since or (since_of(root, read.registers, paths.history_cache) if dated else None)
    shown = view.matrix(read.registers, outcomes, hook, records=recorded_at(paths).records)
    return Matrixed(shown, read.registers, diagnostics=read.diagnostics)


def since_of(
    root: Path, registers: RegisterSet, cache: Path | None, commits: list[Commit] | None = None
) -> view.SinceOf | None:
    """The matrix's since-when hook from the registers' history (`commits` when already
    read); None outside a git repository or when git fails."""
    try:
        if commits is None:
            commits = repository.read_history(root, cache).commits
        found = since.since_when(root, registers, commits)
    except repository.HistoryError:
        return None
    return lambda entry: found[entry.id].data() if entry.id in found else None

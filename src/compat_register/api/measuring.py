"""`register coverage`, and what the Coverage pages read."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from ..conformance.join import Joined
from ..coverage import run
from ..coverage.sitecoverage import SiteCoverage
from ..model.diagnostic import sort_diagnostics
from ..model.registers import RegisterSet
from ..model.results import Result
from ..reading import folder
from ..sources import pins
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from ..verifying import verify
from .loading import project_paths, verify_citations
from .recording import UnknownRevision, joined, recorded


@dataclass
class Covered(Result):
    """What `register coverage` found: every statement's state, and every problem."""

    measured: run.Measured
    registers: RegisterSet
    revisions: list[str]
    """The revisions asked for (every one when none was named), in sources.yaml's order."""
    joined: Joined | None = None
    """Each statement's checks and results; None when no source names the suite's files."""

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
    verified = verify_citations(paths, skip=skip, settings=settings)
    with closing(pins.Checkouts(paths, settings)) as checkouts:
        cache = paths.statements_cache
        measured = run.measure(verified.registers, verified.outcomes, checkouts, cache)
    shown = [r for r in declared if r in asked] if asked else list(declared)
    problems = run.threshold_problems(measured.coverage, verified.registers, shown, minimum)
    held = recorded(paths)
    found, said = joined(paths, sources, measured.coverage, held.records, settings)
    problems += [*said, *held.diagnostics] if found is not None else []
    diagnostics = sort_diagnostics([*verified.diagnostics, *measured.diagnostics, *problems])
    return Covered(measured, verified.registers, shown, found, diagnostics=diagnostics)


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

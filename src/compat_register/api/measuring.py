"""`register coverage` and the site's Coverage pages: which normative statements the
citations cover."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from ..coverage import run
from ..coverage.sitecoverage import SiteCoverage
from ..model.diagnostic import sort_diagnostics
from ..model.registers import RegisterSet
from ..model.results import Result
from ..reading import folder
from ..sources import pins
from ..storage.errors import RegisterError
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from ..verifying import verify
from .loading import project_paths, verify_at


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
        """Whether any source names statement files: without one there is nothing to count
        (and `threshold_problems` says so), so no counts are shown."""

        return bool(run.statement_sources(self.registers))


def coverage(
    root: Path,
    revisions: Iterable[str] = (),
    *,
    minimum: float | None = None,
    settings: Settings = DEFAULTS,
) -> Covered:
    """`register coverage [REVISION...]`: the state of every normative statement of each
    revision (cited, excluded, uncovered), read at the pins of the sources whose
    `coverage:` names statement files. Their citations are verified (a stale one covers
    nothing); the other sources' are not read. Below `minimum` percent a revision is an
    error; without it, one with uncovered statements is a warning. Raises UnknownRevision."""
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
    """What the site's Coverage pages show: every statement's state, read at the pins of
    the sources naming statement files, judged by `outcomes` (verify's, of the same set);
    None when no source names any. Without outcomes (an offline build) nothing is read:
    a citation not verified could not say what it covers."""
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

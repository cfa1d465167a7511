"""The join of statements, the suite's checks and the recorded results, for `register
coverage`, the Coverage pages and `register verify --conformance`: the suite's requirement
files read at its source's pin, aligned with the statements coverage read."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from contextlib import closing

from ..conformance import join
from ..conformance.measurements import Measurements
from ..conformance.runs import Record
from ..conformance.suitefiles import SuiteFiles, read_suite
from ..coverage import run
from ..coverage.sitecoverage import SiteCoverage
from ..coverage.states import Coverage
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.registers import Sources
from ..sources import pins
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from .loading import Checked, Verified


def suite_named(sources: Sources) -> bool:
    """Whether a source names the suite's requirement files (else there is no join)."""
    return any(s.requirements is not None for s in sources.sources.values())


def suite_at_pin(paths: Paths, sources: Sources, settings: Settings = DEFAULTS) -> SuiteFiles:
    """The suite's requirement files, read at their source's pin."""
    with closing(pins.Checkouts(paths, settings)) as checkouts:
        return read_suite(sources, checkouts)


def in_sources_order(records: Mapping[str, Record], sources: Sources) -> dict[str, Record]:
    """`records` by subject in sources.yaml's order, any subject it does not name after."""
    order = [alias for alias in sources.sources if alias in records]
    return {alias: records[alias] for alias in [*order, *sorted(set(records) - set(order))]}


def joined(
    paths: Paths,
    sources: Sources,
    coverage: Coverage | None,
    records: Mapping[str, Record],
    settings: Settings = DEFAULTS,
    suite: SuiteFiles | None = None,
) -> tuple[join.Joined | None, list[Diagnostic]]:
    """Each statement's checks and results (the subjects in sources.yaml's order), and the
    problems of reading the suite's files (`suite`, when read already); None when there is
    no coverage or no source names them."""
    if coverage is None or not suite_named(sources):
        return None, []
    suite = suite or suite_at_pin(paths, sources, settings)
    found = join.join(coverage, suite.requirements, in_sources_order(records, sources))
    return found, suite.diagnostics


def statement_claims(
    verified: Verified, records: Mapping[str, Record], settings: Settings = DEFAULTS
) -> list[Diagnostic]:
    """`register verify --conformance`'s claims against the results of the checks aligned
    with the statements their entries cite, and the problems of reading the suite's files;
    nothing when no subject has a record, no source names statement or requirement files."""
    registers, paths = verified.registers, verified.paths
    if not records or not suite_named(registers.sources) or not run.statement_sources(registers):
        return []
    with closing(pins.Checkouts(paths, settings)) as checkouts:
        measured = run.measure(registers, verified.outcomes, checkouts, paths.statements_cache)
    found, problems = joined(paths, registers.sources, measured.coverage, records, settings)
    if found is None:
        return problems
    said = join.contradictions(found, measured.coverage, registers, verified.documents)
    return [*problems, *said]


def site_join(
    checked: Checked,
    coverage: SiteCoverage | None,
    conformance: Measurements | None,
    suite: SuiteFiles | None,
) -> tuple[join.Joined | None, Measurements | None]:
    """The Coverage pages' checks (None: no coverage or no suite), and the measurements
    with the claims their results contradict among the health page's contradictions. The
    suite's unreadable files are `register coverage`'s to report: the pages show no checks."""
    shown = coverage.coverage if coverage is not None else None
    records = conformance.records if conformance is not None else {}
    if suite is None:
        return None, conformance
    found, _ = joined(checked.paths, checked.registers.sources, shown, records, suite=suite)
    if found is None or shown is None or conformance is None:
        return found, conformance
    said = join.contradictions(found, shown, checked.registers, checked.documents)
    every = sort_diagnostics([*conformance.contradictions, *said])
    return found, dataclasses.replace(conformance, contradictions=every)

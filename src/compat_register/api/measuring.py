"""What the registers measure: `register coverage` (each normative statement cited, excluded
or uncovered), the conformance suite's results (`register conformance import` and `score`,
the records other commands read) and `Measures`, those results, the suite's checks and their
join with the statements, read once for the commands and the pages that show them."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from ..conformance import collect, join
from ..conformance.measurements import Measurements, measurements
from ..conformance.record import record_text, records_of
from ..conformance.runs import Record, Run, latest_runs
from ..conformance.scores import Scored, score, sep_rates
from ..conformance.suitefiles import SuiteFiles, read_suite
from ..coverage import run
from ..coverage.sitecoverage import SiteCoverage
from ..coverage.states import Coverage
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.positions import Where
from ..model.registers import RegisterSet, Sources
from ..model.results import Result
from ..reading import folder
from ..sources import pins
from ..storage.errors import RegisterError
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from .loading import (
    Checked,
    Verified,
    Waiting,
    project_paths,
    verify_citations,
    write_files,
    writer,
)

_COMMIT = re.compile(r"[0-9a-f]{7,40}")


class UnknownSubject(RegisterError):
    """`--subject` names no source of sources.yaml (or no record), `--commit` is not a
    commit, or `--revision` is not one of sources.yaml's revisions."""

    usage = True


class UnknownRevision(RegisterError):
    """A revision named on the command line that sources.yaml (or the suite) does not declare."""

    usage = True


@dataclass
class Covered(Result):
    """What `register coverage` found: every statement's state, and every problem."""

    measured: run.Measured
    registers: RegisterSet
    revisions: list[str]
    """The revisions asked for (every one when none was named), in sources.yaml's order."""
    joined: join.Joined | None = None
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
    measured = _measure(verified, settings)
    shown = [r for r in declared if r in asked] if asked else list(declared)
    problems = run.threshold_problems(measured.coverage, verified.registers, shown, minimum)
    found = measures(verified, measured.coverage, settings)
    if found.suite is not None:  # a source names the suite's files: the statements' checks
        problems += [*found.suite.diagnostics, *found.held.diagnostics]
    diagnostics = sort_diagnostics([*verified.diagnostics, *measured.diagnostics, *problems])
    return Covered(measured, verified.registers, shown, found.joined, diagnostics=diagnostics)


def site_coverage(verified: Verified, online: bool, settings: Settings) -> SiteCoverage | None:
    """The Coverage pages' statements, judged by `verified`'s outcomes; None when no source
    names statement files. Offline nothing is read: no citation says what it covers."""
    readers = run.statement_sources(verified.registers)
    if not readers:
        return None
    if not online:
        return SiteCoverage(None, problems=["an offline build: no citation was verified"])
    aliases = {s.alias for s in readers}
    outcomes = verified.outcomes
    unverified = [o for o in outcomes if o.outcome == "unverified" and o.citation.source in aliases]
    if unverified:
        first = unverified[0]
        said = f"{first.citation.source}: its citations were not verified ({first.message})"
        return SiteCoverage(None, problems=[said])
    measured = _measure(verified, settings)
    problems = [d.message for d in measured.diagnostics if d.code == "coverage-unreadable"]
    if problems:
        return SiteCoverage(None, problems=problems)
    return SiteCoverage(measured.coverage, measured.changelogs)


def _measure(verified: Verified, settings: Settings) -> run.Measured:
    """Each statement source's files read at its pin, judged by `verified`'s outcomes."""
    paths, registers = verified.paths, verified.registers
    with closing(pins.Checkouts(paths, settings)) as checkouts:
        return run.measure(registers, verified.outcomes, checkouts, paths.statements_cache)


@dataclass
class Imported(Result):
    """What `register conformance import` recorded (nothing while a file named is bad)."""

    record: Record | None = None
    file: str = ""
    """The record file, as messages name it."""
    older: list[Run] = field(default_factory=list)
    """Runs left out: a later run of the same scenario was given."""


def import_results(
    root: Path,
    subject: str,
    results: Sequence[Path],
    *,
    commit: str | None = None,
    baseline: Path | None = None,
    revision: str | None = None,
    settings: Settings = DEFAULTS,
    on_wait: Waiting = None,
) -> Imported:
    """`register conformance import`: the suite's runs (and baseline) recorded for the
    subject at `commit` (default: its pin) in `conformance/ALIAS.json`, or nothing while a
    file is not what the suite writes. With `revision`, the runs are tagged with it and
    replace only that revision's runs of a record at the same commit. Raises
    `UnknownSubject` or `collect.NoResults`."""
    paths = project_paths(root, settings)
    problems: list[Diagnostic] = []
    sources = folder.read_sources(paths, {}, problems)
    if any(p.failing for p in problems):
        return Imported(diagnostics=problems, refused="sources.yaml has errors: fix them first")
    _check_import_options(sources, subject, commit, revision)
    runs, problems = collect.read_runs(results)
    listed, trouble = collect.read_baseline_file(baseline) if baseline else (None, [])
    file = folder.display_path(paths.conformance(subject))
    if problems or trouble:
        refused = "nothing recorded: a file named is not what the suite writes"
        return Imported(diagnostics=sort_diagnostics([*problems, *trouble]), refused=refused)
    latest = latest_runs(runs)
    kept = [dataclasses.replace(run, revision=revision) for run in latest]
    pin = commit or sources.sources[subject].commit
    record = Record(subject, pin, tuple(kept), listed, file)
    command = f"register conformance import --subject {subject}"
    with writer(paths, command, settings, on_wait) as journal:
        if revision is not None:  # read under the lock: no other import between
            held = recorded(paths)
            if held.diagnostics:
                refused = "nothing recorded: a record held does not read (fix or remove it)"
                return Imported(diagnostics=held.diagnostics, refused=refused)
            record = _beside(record, held.records.get(subject), revision)
        texts = {paths.conformance(subject): record_text(record)}
        write_files(texts, make_folders=True, journal=journal)
    return Imported(record=record, file=file, older=[r for r in runs if r not in latest])


def _check_import_options(
    sources: Sources, subject: str, commit: str | None, revision: str | None
) -> None:
    if subject not in sources.sources:
        known = ", ".join(sorted(sources.sources)) or "none"
        raise UnknownSubject(f"--subject {subject}: no such source in sources.yaml ({known})")
    if commit is not None and not _COMMIT.fullmatch(commit):
        raise UnknownSubject(f"--commit {commit}: expected 7 to 40 lower-case hex digits")
    if revision is not None and revision not in sources.revisions:
        known = ", ".join(sources.revisions) or "none"
        raise UnknownSubject(
            f"--revision {revision}: not one of sources.yaml's revisions ({known})"
        )


def _beside(record: Record, held: Record | None, revision: str) -> Record:
    """`record` (runs of `revision`) with `held`'s runs of other revisions when it measured
    the same commit (and its baseline, when `record` names none). A record of another commit
    is replaced whole, and untagged runs (at an unknown wire) are dropped: either may be
    runs at this wire."""
    if held is None or held.commit != record.commit:
        return record
    others = [run for run in held.runs if run.revision not in (None, revision)]
    runs = sorted(
        [*others, *record.runs], key=lambda run: (run.revision or "", run.mode, run.scenario)
    )
    baseline = record.baseline or held.baseline
    return dataclasses.replace(record, runs=tuple(runs), baseline=baseline)


@dataclass
class Recorded(Result):
    """Every subject's recorded results; its diagnostics: the records that do not read."""

    records: dict[str, Record] = field(default_factory=dict)


def recorded(root: Path | Paths, settings: Settings = DEFAULTS) -> Recorded:
    """Every subject's recorded results in the registers folder `root` (or its paths),
    each read back (none without `conformance/`)."""
    paths = project_paths(root, settings)
    trouble: list[Diagnostic] = []
    revisions = folder.read_sources(paths, {}, trouble).revisions
    known = None if any(p.failing for p in trouble) else revisions  # unread: not judged
    records, problems = records_of(folder.read_records(paths), known)
    return Recorded(records, diagnostics=sort_diagnostics(problems))


def with_conformance(verified: Verified, settings: Settings = DEFAULTS) -> Verified:
    """`register verify --conformance`: every contradiction between the claims and the
    recorded results (by each entry's concept, and by the checks aligned with the statements
    it cites), and every record that does not read, added to the diagnostics."""
    held, registers = recorded(verified.paths), verified.registers
    wanted = bool(
        held.records and suite_named(registers.sources) and run.statement_sources(registers)
    )
    coverage = _measure(verified, settings).coverage if wanted else None
    found = measures(verified, coverage, settings, suite=wanted, held=held)
    read = found.suite.diagnostics if found.suite is not None else []
    conformance = found.conformance(verified)
    said = conformance.contradictions if conformance is not None else []
    every = [*verified.diagnostics, *read, *said]
    return dataclasses.replace(verified, diagnostics=sort_diagnostics(every))


@dataclass
class Measures:
    """What the registers measure beside their citations, read once for the commands and
    the pages that show it: the recorded results, the suite's files at their pin (None: not
    read) and each statement's checks and results (None: no coverage or no suite)."""

    held: Recorded
    suite: SuiteFiles | None = None
    coverage: Coverage | None = None
    joined: join.Joined | None = None

    def conformance(self, checked: Checked) -> Measurements | None:
        """The results by entry, with every record that does not read and every claim they
        contradict (by each entry's concept, and by the checks of the statements it cites);
        None when no subject has a record."""
        registers, documents, records = checked.registers, checked.documents, self.held.records
        if not records and not self.held.diagnostics:
            return None
        said: list[Diagnostic] = []
        if self.joined is not None and self.coverage is not None:
            said = join.contradictions(self.joined, self.coverage, registers, documents)
        return measurements(registers, documents, records, [*self.held.diagnostics, *said])

    def scores(self, sources: Sources) -> Scored | None:
        """The Scores page's data; None when no source names the suite's files or no
        subject has a record (then there is no page). Offline the suite is not read: the
        page says so."""
        if not self.held.records or not suite_named(sources):
            return None
        if self.suite is None:
            return Scored(refused="an offline build: the suite's requirement files were not read")
        return _scored(sources, self.held, self.suite)


def measures(
    checked: Checked,
    coverage: Coverage | None,
    settings: Settings,
    *,
    suite: bool = True,
    held: Recorded | None = None,
) -> Measures:
    """The records `held` (else read), the suite's files at their pin (with `suite`, when
    a source names them), and their join with `coverage` (the subjects in sources.yaml's
    order)."""
    paths, sources = checked.paths, checked.registers.sources
    held = recorded(paths) if held is None else held
    read = suite_at_pin(paths, sources, settings) if suite and suite_named(sources) else None
    if coverage is None or read is None:
        return Measures(held, read, coverage)
    found = join.join(coverage, read.requirements, in_sources_order(held.records, sources))
    return Measures(held, read, coverage, found)


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


def scores(
    root: Path | Paths,
    *,
    subject: str | None = None,
    revision: str | None = None,
    settings: Settings = DEFAULTS,
) -> Scored:
    """`register conformance score`: every subject with a record (or `subject`) against
    every revision with a requirement set (or `revision`). Raises UnknownSubject and
    UnknownRevision."""
    paths = project_paths(root, settings)
    problems: list[Diagnostic] = []
    sources = folder.read_sources(paths, {}, problems)
    suite = suite_at_pin(paths, sources, settings)
    return _scored(sources, recorded(paths), suite, subject, revision, problems)


def _scored(
    sources: Sources,
    held: Recorded,
    suite: SuiteFiles,
    subject: str | None = None,
    revision: str | None = None,
    problems: Sequence[Diagnostic] = (),
) -> Scored:
    """`held`'s records (or `subject`'s) against the suite's sets (or `revision`'s)."""
    if subject is not None and subject not in held.records:
        raise UnknownSubject(
            f"no recorded results for {subject}: run register conformance import "
            f"--subject {subject} RESULTS first"
        )
    if revision is not None and revision not in suite.sets:
        named = ", ".join(suite.sets) or "none"
        raise UnknownRevision(f"no requirement set for {revision} (the suite's: {named})")
    ordered = in_sources_order(held.records, sources)
    records = [record for alias, record in ordered.items() if subject in (None, alias)]
    sets = [s for name, s in suite.sets.items() if revision in (None, name)]
    found = [score(record, held_set) for record in records for held_set in sets]
    seps = {record.subject: sep_rates(record, suite.requirements) for record in records}
    every = [*problems, *held.diagnostics, *suite.diagnostics, *_unconfigured(sources, suite)]
    names = {record.subject: sources.name_of(record.subject) for record in records}
    return Scored(found, seps, suite.source, names, diagnostics=sort_diagnostics(every))


def _unconfigured(sources: Sources, suite: SuiteFiles) -> list[Diagnostic]:
    """An error when no source names the suite's requirement files: nothing to score by."""
    if suite.source is not None:
        return []
    message = (
        "no source names the conformance suite's requirement files: add requirements: "
        "{seps: GLOB, traceability: PATH, sets: GLOB} to the suite's source (docs/conformance.md)"
    )
    where = Where(sources.file, 1, 1)
    return [Diagnostic.at(where, id="sources", code="requirements-none", message=message)]

"""`register conformance import`, and the recorded results other commands read."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..conformance import collect
from ..conformance.measurements import Measurements, contradictions, measurements
from ..conformance.record import record_text, records_of
from ..conformance.runs import Record, Run, latest_runs
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.results import Result
from ..reading import folder
from ..reading.document import Document
from ..storage.errors import RegisterError
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from .joining import statement_claims
from .loading import Checked, Verified, Waiting, project_paths, write_files, writer

_COMMIT = re.compile(r"[0-9a-f]{7,40}")


class UnknownSubject(RegisterError):
    """`--subject` names no source of sources.yaml, `--commit` is not a commit, or
    `--revision` is not one of sources.yaml's revisions."""

    usage = True


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
    documents: dict[str, Document] = {}
    problems: list[Diagnostic] = []
    sources = folder.read_sources(paths, documents, problems)
    if any(p.failing for p in problems):
        return Imported(diagnostics=problems, refused="sources.yaml has errors: fix them first")
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
    runs, problems = collect.read_runs(results)
    listed, trouble = collect.read_baseline_file(baseline) if baseline else (None, [])
    file = folder.display_path(paths.conformance(subject))
    if problems or trouble:
        refused = "nothing recorded: a file named is not what the suite writes"
        return Imported(diagnostics=sort_diagnostics([*problems, *trouble]), refused=refused)
    latest = latest_runs(runs)
    older = [run for run in runs if run not in latest]
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
        write_files(
            {paths.conformance(subject): record_text(record)}, make_folders=True, journal=journal
        )
    return Imported(record=record, file=file, older=older)


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
    held = recorded(verified.paths)
    found = contradictions(verified.registers, verified.documents, held.records)
    stated = statement_claims(verified, held.records, settings)
    every = sort_diagnostics([*verified.diagnostics, *held.diagnostics, *found, *stated])
    return dataclasses.replace(verified, diagnostics=every)


def site_conformance(checked: Checked, held: Recorded) -> Measurements | None:
    """What a site shows of the recorded results `held`; None when no subject has a record."""
    if not held.records and not held.diagnostics:
        return None
    return measurements(checked.registers, checked.documents, held.records, held.diagnostics)

"""`register conformance score`, and what the Scores page reads: each subject's recorded
results against each revision's requirement set of the suite's source, at its pin."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..conformance.runs import Record
from ..conformance.scores import Scored, score, sep_rates
from ..conformance.suitefiles import SuiteFiles
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.positions import Where
from ..model.registers import Sources
from ..reading import folder
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from .joining import in_sources_order, suite_at_pin, suite_named
from .loading import project_paths
from .measuring import UnknownRevision
from .recording import Recorded, UnknownSubject, recorded


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
    records = _chosen(held.records, sources, subject)
    if revision is not None and revision not in suite.sets:
        named = ", ".join(suite.sets) or "none"
        raise UnknownRevision(f"no requirement set for {revision} (the suite's: {named})")
    sets = [s for name, s in suite.sets.items() if revision in (None, name)]
    found = [score(record, held_set) for record in records for held_set in sets]
    seps = {record.subject: sep_rates(record, suite.requirements) for record in records}
    every = [*problems, *held.diagnostics, *suite.diagnostics, *_unconfigured(sources, suite)]
    names = {record.subject: sources.name_of(record.subject) for record in records}
    return Scored(found, seps, suite.source, names, diagnostics=sort_diagnostics(every))


def _chosen(records: dict[str, Record], sources: Sources, subject: str | None) -> list[Record]:
    """The records to score, in sources.yaml's order: `subject`'s alone when named."""
    if subject is not None and subject not in records:
        raise UnknownSubject(
            f"no recorded results for {subject}: run register conformance import "
            f"--subject {subject} RESULTS first"
        )
    ordered = in_sources_order(records, sources)
    return [record for alias, record in ordered.items() if subject in (None, alias)]


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


def site_scores(
    sources: Sources, held: Recorded, suite: SuiteFiles | None, offline: bool
) -> Scored | None:
    """The Scores page's data from the records `held` and the `suite` read at its pin;
    None when no source names the suite's files or no subject has a record (then there is
    no page). Offline no checkout is read (`suite` is None): the page says so."""
    if not held.records or not suite_named(sources):
        return None
    if offline or suite is None:
        return Scored(refused="an offline build: the suite's requirement files were not read")
    return _scored(sources, held, suite)

"""`register conformance score`, and what the Scores page reads: each subject's recorded
results against each revision's requirement set of the suite's source, at its pin."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from ..conformance.runs import Record
from ..conformance.scores import Scored, score, sep_rates
from ..conformance.suitefiles import SuiteFiles, read_suite
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.positions import Where
from ..model.registers import Sources
from ..reading import folder
from ..sources import pins
from ..storage.layout import Paths
from ..storage.settings import DEFAULTS, Settings
from .loading import project_paths
from .measuring import UnknownRevision
from .recording import UnknownSubject, recorded


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
    held = recorded(paths)
    records = _chosen(held.records, sources, subject)
    with closing(pins.Checkouts(paths, settings)) as checkouts:
        suite = read_suite(sources, checkouts)
    if revision is not None and revision not in suite.sets:
        named = ", ".join(suite.sets) or "none"
        raise UnknownRevision(f"no requirement set for {revision} (the suite's: {named})")
    sets = [s for name, s in suite.sets.items() if revision in (None, name)]
    found = [score(record, held_set) for record in records for held_set in sets]
    seps = {record.subject: sep_rates(record, suite.requirements) for record in records}
    problems += [*held.diagnostics, *suite.diagnostics, *_unconfigured(sources, suite)]
    names = {record.subject: sources.name_of(record.subject) for record in records}
    every = sort_diagnostics(problems)
    return Scored(found, seps, suite.source, names, diagnostics=every)


def _chosen(records: dict[str, Record], sources: Sources, subject: str | None) -> list[Record]:
    """The records to score, in sources.yaml's order: `subject`'s alone when named."""
    if subject is not None and subject not in records:
        raise UnknownSubject(
            f"no recorded results for {subject}: run register conformance import "
            f"--subject {subject} RESULTS first"
        )
    order = [alias for alias in sources.sources if alias in records]
    order += sorted(set(records) - set(order))
    return [records[alias] for alias in order if subject in (None, alias)]


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


def site_scores(paths: Paths, offline: bool, settings: Settings = DEFAULTS) -> Scored | None:
    """The Scores page's data; None when no source names the suite's files or no subject
    has a record (then there is no page). Offline no checkout is read: the page says so."""
    sources = folder.read_sources(paths, {}, [])
    if not recorded(paths).records or all(s.requirements is None for s in sources.sources.values()):
        return None
    if offline:
        return Scored(refused="an offline build: the suite's requirement files were not read")
    return scores(paths, settings=settings)

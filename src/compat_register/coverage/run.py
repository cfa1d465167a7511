"""Coverage at the pins, the one module of `coverage` doing I/O: which files of a source hold
statements of which revision, read through its checkout (or the statements cache), judged
by `states`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ..following.paths import revision_folder
from ..model.claims import glob_matches
from ..model.diagnostic import Diagnostic
from ..model.exclusions import LABEL
from ..model.registers import RegisterSet, Source, Where
from ..sources.checkout import Checkout
from ..sources.diffs import listed_blobs
from ..sources.git import GitSourceError
from ..sources.pins import Checkouts
from ..statements import extract, markdownpages
from ..statements.markdownpages import Item, Readings
from ..statements.statement import Statement
from ..statements.statementcache import StatementCache, key
from ..verifying.outcome import Outcome
from .states import Coverage, Covered, Covering, coverage, covered, percent


@dataclass
class Measured:
    """Every statement's state, the changelogs' items, and the problems met."""

    coverage: Coverage
    changelogs: dict[str, list[Covered]] = field(default_factory=dict)
    """revision -> its changelog's items, each with the entries covering it."""
    diagnostics: list[Diagnostic] = field(default_factory=list)


def statement_sources(registers: RegisterSet) -> list[Source]:
    """The sources that name statement files (`coverage:` in sources.yaml)."""
    return [s for s in registers.sources.sources.values() if s.statements]


def statement_files(
    source: Source, paths: Iterable[str], revisions: Sequence[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """path -> revision of each readable file in a revision's folder matching
    `coverage.statements`, and revision -> its changelog page, where the source names one."""
    files: dict[str, str] = {}
    changelogs: dict[str, str] = {}
    for path in paths:
        changelog = source.changelog is not None and glob_matches(source.changelog, path)
        if not changelog and not (
            any(glob_matches(glob, path) for glob in source.statements)
            and extract.reader(path, source.markdown) is not None
        ):
            continue
        if not (folder := revision_folder(path, revisions)):
            continue  # `docs/specification/2025-06-18/x.mdx`: revision 2025-06-18
        revision = folder.rstrip("/").rsplit("/", 1)[-1]
        if changelog:
            changelogs.setdefault(revision, path)
        else:
            files[path] = revision
    return files, changelogs


def measure(
    registers: RegisterSet,
    outcomes: Sequence[Outcome],
    checkouts: Checkouts,
    cache_path: Path | None,
) -> Measured:
    """Coverage of every revision: each statement source's files read at its pin."""
    revisions = registers.sources.revisions
    coverings = list(_coverings(registers, outcomes))
    cache = StatementCache(cache_path)
    found: dict[str, list[tuple[str, Statement]]] = {r: [] for r in revisions}
    items: dict[str, list[Covered]] = {}
    problems: list[Diagnostic] = []
    sources = statement_sources(registers)
    for source in sources:
        read = _read_source(source, revisions, checkouts, cache)
        if isinstance(read, str):
            message = f"cannot read the statements of {source.alias}: {read}"
            at, code = source.where, "coverage-unreadable"
            problems.append(Diagnostic.at(at, id=source.alias, code=code, message=message))
            continue
        for revision, statements in read[0].items():
            found[revision].extend((source.alias, s) for s in statements)
        items.update(covered(source.alias, read[1], registers, coverings))
    cache.save()  # a cache that cannot be written costs the next run time, not this one
    if cache.dropped is not None and cache_path is not None:
        code, message = "cache-dropped", cache.dropped
        problems.append(
            Diagnostic.notice(str(cache_path), id="statements", code=code, message=message)
        )
    scopes = {s.alias: s.scope for s in sources if s.scope is not None}
    result = coverage(revisions, found, coverings, scopes)
    return Measured(result, items, [*problems, *exclusion_problems(result, registers)])


def _coverings(registers: RegisterSet, outcomes: Iterable[Outcome]) -> Iterable[Covering]:
    """Each citation with its outcome; an exclusion's with the exclusion it belongs to."""
    items = registers.exclusions.items if registers.exclusions else []
    exclusions = {e.citation.key: e for e in items}
    for outcome in outcomes:
        citation = outcome.citation
        exclusion = exclusions.get(citation.key) if citation.entry == LABEL else None
        yield Covering(citation, outcome.outcome, exclusion)


_Read = tuple[dict[str, list[Statement]], dict[str, list[Item]]]
"""revision -> statements, and revision -> changelog items."""


def _read_source(
    source: Source, revisions: Sequence[str], checkouts: Checkouts, cache: StatementCache
) -> _Read | str:
    """What one source holds at its pin, or why it cannot be read."""
    pin = checkouts.pin(source)
    if pin.checkout is None or pin.sha is None:
        return pin.problem or "no checkout"
    try:
        return _read_tree(pin.checkout, pin.sha, source, revisions, cache)
    except GitSourceError as err:
        return str(err)


def _read_tree(
    checkout: Checkout, sha: str, source: Source, revisions: Sequence[str], cache: StatementCache
) -> _Read:
    """One source's statement and changelog files at `sha`, each kept in the cache by its
    blob id; those it does not hold read in one batch."""
    blobs = listed_blobs(checkout.run_git("ls-tree", "-r", "-z", "--full-tree", sha))
    files, logs = statement_files(source, blobs, revisions)
    readers = {path: extract.reader(path, source.markdown) or "markdown" for path in files}
    readers.update((path, "changelog") for path in logs.values())
    unknown = [p for p, reader in readers.items() if key(reader, blobs[p]) not in cache.files]
    checkout.read_many([(sha, path) for path in unknown])
    readings = Readings()  # revisions repeat most paragraphs: each is parsed once

    def kept(path: str) -> list[Any]:
        name, changelog = key(readers[path], blobs[path]), readers[path] == "changelog"
        found = cache.get(name, path, Item if changelog else Statement)
        if found is None:
            lines = checkout.read_text(sha, path)
            text = "\n".join(lines) if lines is not None else ""
            if changelog:
                found = markdownpages.items(path, text)
            else:
                found = extract.statements(path, text, source.markdown, readings)
            cache.put(name, found)
        return found

    statements: dict[str, list[Statement]] = {}
    for path, revision in files.items():
        statements.setdefault(revision, []).extend(kept(path))
    return statements, {revision: kept(path) for revision, path in logs.items()}


def exclusion_problems(result: Coverage, registers: RegisterSet) -> list[Diagnostic]:
    """A warning at each exclusion of a statement an entry cites, or of none."""
    cited = {exclusion.citation.key for _, exclusion in result.both}
    stale = {c.citation.key for c in result.stale}
    found: list[Diagnostic] = []
    for exclusion in registers.exclusions.items if registers.exclusions else []:
        key = exclusion.citation.key
        if key in cited:
            code, problem = "exclusion-cited", "is cited by an entry too: drop the exclusion"
        elif key in result.used or key in stale or exclusion.citation.source is None:
            continue
        else:
            code, problem = "exclusion-unused", "names no statement (no keyword on these lines)"
        message = f"{exclusion.citation.text} {problem}"
        found.append(
            Diagnostic.at(exclusion.where, id=LABEL, code=code, message=message, severity="warning")
        )
    return found


def threshold_problems(
    result: Coverage, registers: RegisterSet, revisions: Sequence[str], minimum: float | None
) -> list[Diagnostic]:
    """At the first statement source: an error per revision below `minimum` percent
    covered, or without one a warning per revision with uncovered statements."""
    sources = statement_sources(registers)
    if not sources:
        message = (
            "no coverage is configured: no source names its statement files; add "
            "coverage: {statements: [GLOB]} to the specification's source (the sources.yaml "
            "of register init holds one, commented out; docs/coverage.md)"
        )
        where = Where(registers.sources.file, 1, 1)
        return [Diagnostic.at(where, id="sources", code="coverage-no-statements", message=message)]
    at = partial(Diagnostic.at, sources[0].where, id=sources[0].alias, code="coverage-low")
    found = []
    for revision, counts in result.summary().items():
        if revision not in revisions:
            continue
        share, uncovered = percent(counts), counts["uncovered"]
        if minimum is not None and share < minimum:
            message = f"{revision}: {share:.1f}% covered, below --min {minimum:g}%"
            found.append(at(message=message, severity="error"))
        elif minimum is None and uncovered:
            message = f"{revision}: {share:.1f}% covered, {uncovered} statements uncovered"
            found.append(at(message=message, severity="warning"))
    return found

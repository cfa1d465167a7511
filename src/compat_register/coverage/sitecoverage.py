"""What the Coverage pages show: the summary of every revision, each revision's files with
their counts, each file's statements by heading on a page of its own (a revision's 684
statements on one page made 550 KB of HTML), and the statements each entry covers. Pure."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ..model.claims import claimants
from ..model.registers import Sources
from ..statements.sentences import KEYWORDS
from .states import STATES as STATES  # the site shows them in this order
from .states import Coverage, Covered, Row, percent, tally


@dataclass
class Heading:
    """The statements of one file under one heading, in line order."""

    heading: str
    anchor: str
    rows: list[Row]


@dataclass
class File:
    """One statement file of a revision: its counts and its statements by heading."""

    source: str
    path: str
    shown: str
    """The path as a citation writes it."""
    tail: str
    """Its path after the revision's folder (`basic/index.mdx`): the revision's pages say
    the revision."""
    slug: str
    """Its page's name (`file_slugs`)."""
    counts: dict[str, int]
    headings: list[Heading] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return percent(self.counts)

    @property
    def keywords(self) -> list[str]:
        return _keywords(row for heading in self.headings for row in heading.rows)


@dataclass
class RevisionCoverage:
    """One revision's Coverage page."""

    revision: str
    counts: dict[str, int]
    files: list[File]
    keywords: list[str]
    look: list[Row]
    """Its statements that reword one cited the revision before."""
    changelog: list[Covered] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return percent(self.counts)


def revision_coverage(
    coverage: Coverage, revision: str, sources: Sources, changelog: Iterable[Covered] = ()
) -> RevisionCoverage:
    """A revision's statements grouped by file, then by heading, in the order met."""
    rows = coverage.of(revision)
    slugs = file_slugs(rows)
    files: dict[tuple[str, str], File] = {}
    for row in rows:
        key = (row.source, row.statement.path)
        if key not in files:
            shown = cited_as(row.source, row.statement.path, sources)
            tail = _after_revision(row.statement.path, row.revision)
            files[key] = File(row.source, row.statement.path, shown, tail, slugs[key], tally(()))
        file, statement = files[key], row.statement
        file.counts["statements"] += 1
        file.counts[row.state] += 1
        if not file.headings or file.headings[-1].heading != statement.heading:
            file.headings.append(Heading(statement.heading, statement.anchor, []))
        file.headings[-1].rows.append(row)
    look = [row for row in rows if row.was is not None and row.was.needs_a_look]
    by_file = list(files.values())
    return RevisionCoverage(revision, tally(rows), by_file, _keywords(rows), look, list(changelog))


def _keywords(rows: Iterable[Row]) -> list[str]:
    """The keywords `rows` hold, in RFC 2119's order."""
    held = {row.statement.keyword for row in rows}
    return [k for k in KEYWORDS if k in held]


def file_slugs(rows: Sequence[Row]) -> dict[tuple[str, str], str]:
    """(source, path) -> the name of its page among its revision's: the path after the
    revision's folder, its extension dropped (`basic-transports-streamable-http`), made
    unique in the revision by a number."""
    found: dict[tuple[str, str], str] = {}
    for row in rows:
        key = (row.source, row.statement.path)
        if key not in found:
            stem = slug = _stem(row.statement.path, row.revision)
            taken, n = set(found.values()), 1
            while slug in taken:
                n, slug = n + 1, f"{stem}-{n + 1}"
            found[key] = slug
    return found


def _stem(path: str, revision: str) -> str:
    stem = _after_revision(path, revision).rsplit(".", 1)[0]
    return re.sub(r"[^A-Za-z0-9_]+", "-", stem).strip("-") or "file"


def _after_revision(path: str, revision: str) -> str:
    """`path` after its last folder named `revision` (the whole path without one)."""
    parts = path.split("/")
    return "/".join(
        parts[len(parts) - parts[::-1].index(revision) :] if revision in parts else parts
    )


def cited_as(alias: str, path: str, sources: Sources) -> str:
    """A file's path as a citation writes it: relative to its source's claim when that
    reads back alone (`2025-06-18/basic/index.mdx`), else `ALIAS:PATH`."""
    source = sources.sources.get(alias)
    for claim in source.claims if source else ():
        if path.startswith(claim.under):
            relative = path[len(claim.under) :]
            if claimants(relative, sources.claims()) == [(alias, path)]:
                return relative
    return f"{alias}:{path}"


def summary(coverage: Coverage) -> list[tuple[str, dict[str, int], float]]:
    """(revision, counts, percent covered) of every revision, in sources.yaml's order."""
    return [(r, counts, percent(counts)) for r, counts in coverage.summary().items()]


@dataclass
class SiteCoverage:
    """What the site shows of coverage: every statement's state, or why there is none."""

    coverage: Coverage | None
    """None when no statement file could be read (`problems` says why)."""
    changelogs: dict[str, list[Covered]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    covered: dict[str, list[Row]] = field(init=False, default_factory=dict)
    """entry ID -> the statements its citations cover, revision by revision."""
    slugs: dict[tuple[str, str, str], str] = field(init=False, default_factory=dict)
    """(revision, source, path) -> its file's page name (`file_slugs`)."""

    def __post_init__(self) -> None:
        found = self.coverage
        if found is None:
            return
        for row in found.rows:
            for entry in row.entries:
                self.covered.setdefault(entry, []).append(row)
        for revision in found.revisions:
            slugs = file_slugs(found.of(revision))
            self.slugs.update({(revision, *key): slug for key, slug in slugs.items()})

    def revision(self, name: str, sources: Sources) -> RevisionCoverage | None:
        if self.coverage is None or name not in self.coverage.revisions:
            return None
        return revision_coverage(self.coverage, name, sources, self.changelogs.get(name, ()))

    def statements_of(self, entry_id: str) -> list[Row]:
        return self.covered.get(entry_id, [])

    def slug_of(self, row: Row) -> str:
        """The name of the page of the file holding `row`."""
        return self.slugs[row.revision, row.source, row.statement.path]


def statement_url(row: Row, sources: Sources) -> str | None:
    """The pinned permalink of a statement's lines, when its source's repo is public."""
    source, at = sources.sources.get(row.source), row.statement
    return None if source is None else source.blob_url(at.path, at.line, at.end)

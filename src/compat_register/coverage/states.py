"""Each statement's state and change, pure: *cited* when an entry's citation that reads as
cited overlaps its lines, *excluded* when an exclusion's does, else *out of scope* when its
source's `coverage.scope` does not hold it, else *uncovered*; each changelog item's entries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..model.claims import Scope
from ..model.exclusions import Exclusion
from ..model.registers import Citation, CitationKey, LinkPattern, RegisterSet
from ..statements.markdownpages import Item
from ..statements.revisions import Change, changes
from ..statements.statement import Statement
from ..verifying.outcome import AS_CITED

STATES = ("cited", "excluded", "out of scope", "uncovered")
COVERED = ("cited", "excluded")
OUT = "out of scope"
"""Counted apart: neither covered nor uncovered, and not in the share covered."""


@dataclass(frozen=True)
class Covering:
    """A citation that may cover statements, with the outcome verify gave it."""

    citation: Citation
    outcome: str
    exclusion: Exclusion | None = None


@dataclass
class Row:
    """One statement of one revision, with its state."""

    source: str
    revision: str
    statement: Statement
    state: str = "uncovered"
    entries: list[str] = field(default_factory=list)
    """The entries whose citations cover it, each once."""
    exclusion: Exclusion | None = None
    reason: str | None = None
    """Why it is excluded (the exclusion's reason) or out of scope (the scope's)."""
    change: Change = field(default_factory=lambda: Change("new"))
    reworded: list[Row] = field(default_factory=list)
    """The statements of the next revision that reword this one."""
    was: Row | None = None
    """For a changed statement, the row of the statement it rewords."""

    @property
    def needs_a_look(self) -> bool:
        """Cited, and reworded by the next revision (OpenFastTrace's "outdated")."""
        return self.state == "cited" and bool(self.reworded)


@dataclass
class Coverage:
    """Every statement of every revision with its state, and what it took to say so."""

    revisions: list[str]
    rows: list[Row]
    stale: list[Covering] = field(default_factory=list)
    """Citations that cover nothing, as they do not read as cited."""
    both: list[tuple[Row, Exclusion]] = field(default_factory=list)
    """Statements both cited and excluded (the exclusion then not counted)."""
    used: set[CitationKey] = field(default_factory=set)
    """The citations of the exclusions that name a statement."""

    def of(self, revision: str) -> list[Row]:
        return [row for row in self.rows if row.revision == revision]

    def summary(self) -> dict[str, dict[str, int]]:
        """revision -> {statements, cited, excluded, out of scope, uncovered}, every
        revision named."""
        return {revision: tally(self.of(revision)) for revision in self.revisions}


def tally(rows: Iterable[Row]) -> dict[str, int]:
    """How many `rows` there are, and in each state."""
    counts = dict.fromkeys(("statements", *STATES), 0)
    for row in rows:
        counts["statements"] += 1
        counts[row.state] += 1
    return counts


def percent(counts: Mapping[str, int]) -> float:
    """The share of the statements in scope covered (cited or excluded), 100 when there
    are none."""
    total = counts["statements"] - counts.get(OUT, 0)
    return 100.0 if not total else 100.0 * sum(counts[state] for state in COVERED) / total


def share(counts: Mapping[str, int]) -> str:
    """`5.2%` covered, or `none in scope` where a scope leaves out every statement (not
    100%: nothing of it is covered)."""
    if counts["statements"] and counts["statements"] == counts.get(OUT, 0):
        return "none in scope"
    return f"{percent(counts):.1f}%"


def counts_text(counts: Mapping[str, int]) -> str:
    """`290 statements: 12 cited, 3 excluded, 275 uncovered (5.2% covered)`, and `, 40 out
    of scope` after the uncovered where a scope leaves any out."""
    shown = (*COVERED, "uncovered", *([OUT] if counts.get(OUT) else []))
    states = ", ".join(f"{counts[state]} {state}" for state in shown)
    found = share(counts)
    covered = f"{found} covered" if found.endswith("%") else found
    return f"{counts['statements']} statements: {states} ({covered})"


def coverage(
    revisions: Sequence[str],
    statements: Mapping[str, Sequence[tuple[str, Statement]]],
    coverings: Iterable[Covering],
    scopes: Mapping[str, Scope] | None = None,
) -> Coverage:
    """The state of every statement, given revision -> (source alias, statement) pairs,
    the entries' and exclusions' citations, and the sources' scopes by alias."""
    cited, stale = by_file(coverings)
    found = changes(revisions, {r: [s for _, s in pairs] for r, pairs in statements.items()})
    rows = [
        Row(alias, revision, statement, change=change)
        for revision in revisions
        for (alias, statement), change in zip(
            statements.get(revision, ()), found[revision], strict=True
        )
    ]
    result = Coverage(list(revisions), rows, stale=stale)
    for row in rows:
        at, mine = row.statement, cited.get((row.source, row.statement.path), ())
        _state(row, [c for c in mine if at.overlaps(c.citation.start, c.citation.end)], result)
        scope = (scopes or {}).get(row.source)
        if row.state == "uncovered" and scope and not scope.holds(at.path, at.anchor):
            row.state, row.reason = OUT, scope.reason
    _link_rewordings(rows, revisions)
    return result


def by_file(
    coverings: Iterable[Covering],
) -> tuple[dict[tuple[str, str], list[Covering]], list[Covering]]:
    """The resolved citations that read as cited by (source, path), and the others."""
    found: dict[tuple[str, str], list[Covering]] = {}
    stale: list[Covering] = []
    for covering in coverings:
        source, path = covering.citation.source, covering.citation.repo_path
        if source is not None and path is not None:
            if covering.outcome in AS_CITED:
                found.setdefault((source, path), []).append(covering)
            else:
                stale.append(covering)
    return found, stale


def _state(row: Row, found: list[Covering], result: Coverage) -> None:
    entries = [c.citation.entry for c in found if c.exclusion is None]
    exclusions = [c.exclusion for c in found if c.exclusion is not None]
    result.used.update(exclusion.citation.key for exclusion in exclusions)
    if entries:
        row.state, row.entries = "cited", list(dict.fromkeys(entries))
        result.both.extend((row, exclusion) for exclusion in exclusions)
    elif exclusions:
        row.state, row.exclusion, row.reason = "excluded", exclusions[0], exclusions[0].reason


def _place(statement: Statement) -> tuple[str, int, int]:
    """What names a statement within its revision, cheap to hash."""
    return statement.path, statement.line, statement.end


def _link_rewordings(rows: list[Row], revisions: Sequence[str]) -> None:
    """Tell each statement the statements of the next revision that reword it."""
    by_place = {(row.revision, *_place(row.statement)): row for row in rows}
    before = dict(zip(revisions[1:], revisions, strict=False))
    for row in rows:
        if row.change.kind == "changed" and row.change.previous is not None:
            earlier = by_place.get((before.get(row.revision, ""), *_place(row.change.previous)))
            if earlier is not None:
                earlier.reworded.append(row)
                row.was = earlier


@dataclass
class Covered:
    """One changelog item and the entries covering it (none: "no entry")."""

    source: str
    revision: str
    item: Item
    entries: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    """What the item names through the link patterns (`SEP-2575`)."""


def named(text: str, links: Iterable[LinkPattern]) -> dict[str, str]:
    """URL -> the words that named it, for every link pattern's match in `text`."""
    found: dict[str, str] = {}
    for link in links:
        for match in link.pattern.finditer(text):
            found.setdefault(link.url_for(match), match.group(0))
    return found


def covered(
    source: str,
    changelogs: Mapping[str, Iterable[Item]],
    registers: RegisterSet,
    coverings: Iterable[Covering],
) -> dict[str, list[Covered]]:
    """revision -> each item of its changelog with the entries that cover it: by a citation
    that reads as cited over its lines, or by naming what it names through a `links:`
    pattern."""
    links = registers.sources.links
    mentions = _mentions(registers, links)
    cited = by_file(coverings)[0]
    found: dict[str, list[Covered]] = {}
    for revision, items in changelogs.items():
        found[revision] = []
        for item in items:
            names = named(item.text, links)
            entries = [
                c.citation.entry
                for c in cited.get((source, item.path), ())
                if c.exclusion is None
                and item.line <= c.citation.end
                and c.citation.start <= item.end
            ]
            entries += [entry for entry, urls in mentions.items() if urls & names.keys()]
            entries = list(dict.fromkeys(entries))
            found[revision].append(Covered(source, revision, item, entries, list(names.values())))
    return found


def _mentions(registers: RegisterSet, links: list[LinkPattern]) -> dict[str, set[str]]:
    """entry ID -> the URLs its prose names through the link patterns."""
    found: dict[str, set[str]] = {}
    for register in registers.registers:
        for entry in register.entries:
            texts = [entry.title, *(t for t in entry.prose().values() if t)]
            found[entry.id] = {url for text in texts for url in named(text, links)}
    return found

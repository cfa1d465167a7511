"""The citation-health pages' data: every citation's outcome, grouped for the page. The
health page lists the stale citations; each register's own page lists all of its own."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..model.positions import Where
from ..model.registers import Citation, CitationKey, Register
from ..verifying.outcome import NOT_STALE, OutcomeName

if TYPE_CHECKING:
    from ..verifying.verify import Outcome

OUTCOME_ORDER: tuple[OutcomeName, ...] = (
    "broken",
    "changed",
    "moved",
    "missing-file",
    "out-of-range",
    "unresolved",
    "unstamped",
    "unverified",
    "ok",
)
"""Health page order: what needs fixing first. Every outcome (`outcome.OUTCOMES`), once."""

STALE = tuple(name for name in OUTCOME_ORDER if name not in NOT_STALE)
"""The outcomes that say a citation needs fixing: listed on the health page itself."""


@dataclass
class HealthRow:
    """The lines an entry cites, and every place in the registers that cites them."""

    citation: Citation
    places: list[Where]
    message: str


@dataclass
class MessageGroup:
    """Citations of one outcome in one table: all with `message`, said once above it, or
    (None) each with its own."""

    message: str | None
    rows: list[HealthRow]


Groups = dict[str, list[MessageGroup]]
_place = attrgetter("file", "line", "col")


def outcome_groups(citations: Iterable[Citation], outcomes: dict[CitationKey, Outcome]) -> Groups:
    """The health page's groups, in `OUTCOME_ORDER`. Within an outcome, a message several
    citations share is one group (in order of first appearance), those with a message of
    their own share a last one; rows in file order, one per cited range, listing its places."""
    rows: dict[tuple[Any, ...], HealthRow] = {}
    for citation in citations:
        outcome = outcomes.get(citation.key)
        name = outcome.outcome if outcome else "unverified"
        message = outcome.message if outcome else ""
        if name == "unverified" and message in ("", "skipped"):
            message = "not verified in this build"
        cited = (citation.entry, citation.source, citation.repo_path or citation.path)
        key = (name, message, *cited, citation.start, citation.end)
        if key in rows:
            rows[key].places.append(citation.where)
        else:
            rows[key] = HealthRow(citation, [citation.where], message)
    by_outcome: dict[str, list[HealthRow]] = {name: [] for name in OUTCOME_ORDER}
    for (name, *_key), row in rows.items():
        row.places.sort(key=_place)
        by_outcome.setdefault(name, []).append(row)
    return {name: _message_groups(found) for name, found in by_outcome.items() if found}


def _message_groups(rows: list[HealthRow]) -> list[MessageGroup]:
    by_message: dict[str, list[HealthRow]] = {}
    for row in rows:
        by_message.setdefault(row.message, []).append(row)
    groups = [
        MessageGroup(message, _in_file_order(found))
        for message, found in by_message.items()
        if len(found) > 1 or len(by_message) == 1
    ]
    own = [row for found in by_message.values() if len(found) == 1 for row in found]
    if own and len(by_message) > 1:
        groups.append(MessageGroup(None, _in_file_order(own)))
    return groups


def _in_file_order(rows: list[HealthRow]) -> list[HealthRow]:
    return sorted(rows, key=lambda row: _place(row.places[0]))


def counts_of(groups: Groups) -> dict[str, int]:
    """Outcome -> how many rows the groups hold of it, in their order."""
    return {name: sum(len(g.rows) for g in found) for name, found in groups.items()}


@dataclass
class RegisterHealth:
    """One register's citations by outcome, for the health page's table."""

    register: Register
    counts: dict[str, int]

    @property
    def stale(self) -> int:
        return sum(count for name, count in self.counts.items() if name in STALE)

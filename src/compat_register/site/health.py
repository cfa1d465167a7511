"""The citation-health pages' data: every citation's outcome, grouped for the page.

The health page lists every register's stale citations and counts the rest; each
register's own page lists all its citations (one page of 20,000 weighed megabytes).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
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


@dataclass
class HealthRow:
    """One citation on the health page: the lines an entry cites, and every place in the
    registers that cites them (listed under `sources:` and again in prose, say)."""

    citation: Citation
    places: list[Where]
    message: str


@dataclass
class MessageGroup:
    """Citations of one outcome shown in one table. With a `message`, every row has that
    message and the page says it once, above the table; without (None), the rows' messages
    differ and each row shows its own."""

    message: str | None
    rows: list[HealthRow]


def outcome_groups(
    citations: Iterable[Citation], outcomes: dict[CitationKey, Outcome]
) -> dict[str, list[MessageGroup]]:
    """The health page's groups, in `OUTCOME_ORDER`. Within an outcome, a message shared by
    several citations (or all) is one group, in order of first appearance; the citations
    whose message is their own share a last group; rows in file order. A citation made at
    several places is one row listing them; one without an outcome is unverified."""
    rows: dict[tuple[Any, ...], HealthRow] = {}
    for citation in citations:
        name, message = _outcome_of(citation, outcomes)
        cited = (citation.entry, citation.source, citation.repo_path or citation.path)
        key = (name, message, *cited, citation.start, citation.end)
        if key in rows:
            rows[key].places.append(citation.where)
        else:
            rows[key] = HealthRow(citation, [citation.where], message)
    by_outcome: dict[str, list[HealthRow]] = {name: [] for name in OUTCOME_ORDER}
    for (name, *_key), row in rows.items():
        row.places.sort(key=_place_order)
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
    return sorted(rows, key=lambda row: _place_order(row.places[0]))


def _outcome_of(citation: Citation, outcomes: dict[CitationKey, Outcome]) -> tuple[str, str]:
    outcome = outcomes.get(citation.key)
    name = outcome.outcome if outcome else "unverified"
    message = outcome.message if outcome else ""
    if name == "unverified" and message in ("", "skipped"):
        message = "not verified in this build"
    return name, message


def _place_order(where: Where) -> tuple[str, int, int]:
    return (where.file, where.line, where.col)


STALE = tuple(name for name in OUTCOME_ORDER if name not in NOT_STALE)
"""The outcomes that say a citation needs fixing: listed on the health page itself."""


@dataclass
class RegisterHealth:
    """One register's citations by outcome, for the health page's table and its own page."""

    register: Register
    counts: dict[str, int]
    """Outcome -> citations (rows), in `OUTCOME_ORDER`, the outcomes it has."""

    @property
    def stale(self) -> int:
        return sum(count for name, count in self.counts.items() if name in STALE)


def register_health(register: Register, groups: dict[str, list[MessageGroup]]) -> RegisterHealth:
    counts = {name: sum(len(g.rows) for g in found) for name, found in groups.items()}
    return RegisterHealth(register, counts)

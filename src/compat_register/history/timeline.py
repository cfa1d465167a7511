"""A change in short phrases ("missing -> partial", "2 citations moved"), and each entry's
last changes, newest first (pure)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .diffing import EntryChange, Field

if TYPE_CHECKING:
    from .repository import Commit

ARROW = " -> "


def shown(value: Any) -> str:
    """A compared value as one short text: lists joined, mappings as `key value`."""
    if value in (None, "", [], {}):
        return "(none)"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):  # revisions: `added 2024-11-05, changed [2025-06-18]`
        return ", ".join(f"{k} {_inner(v)}" for k, v in value.items())
    return str(value)


def _inner(value: Any) -> str:
    return f"[{', '.join(str(v) for v in value)}]" if isinstance(value, list) else str(value)


def field_phrase(name: str, value: Field) -> str:
    """`status.state: missing -> partial`, or `what: changed` for prose."""
    if value is None:
        return f"{name}: changed"
    return f"{name}: {shown(value[0])}{ARROW}{shown(value[1])}"


def citation_counts(change: EntryChange) -> list[str]:
    """`2 citations moved`, `1 citation added`, ... for those that happened."""
    counts = (("moved", change.moved), ("added", change.added), ("removed", change.removed))
    return [f"{len(c)} citation{'s' * (len(c) != 1)} {verb}" for verb, c in counts if c]


@dataclass(frozen=True)
class EntryEvent:
    """One change of one entry, for the entry's own list of last changes."""

    commit: Commit
    change: EntryChange

    @property
    def phrase(self) -> str:
        """`added`, `removed`, or what changed, the state first without its field name
        (`missing -> partial; what changed`)."""
        change = self.change
        if change.change != "changed":
            return change.change
        parts: list[str] = []
        for name, value in change.fields.items():
            if name == "status.state" and value is not None:
                parts.insert(0, f"{shown(value[0])}{ARROW}{shown(value[1])}")
            elif value is None:
                parts.append(f"{name} changed")
            else:
                parts.append(field_phrase(name, value))
        return "; ".join([*parts, *citation_counts(change)])


def entry_events(commits: list[Commit], limit: int = 5) -> dict[str, list[EntryEvent]]:
    """Entry ID -> its last `limit` changes, newest first (`commits` newest first)."""
    found: dict[str, list[EntryEvent]] = {}
    for commit in commits:
        for change in commit.diff.entries:
            events = found.setdefault(change.id, [])
            if len(events) < limit:
                events.append(EntryEvent(commit, change))
    return found

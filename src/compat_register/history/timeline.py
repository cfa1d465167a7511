"""A change in short phrases ("missing -> partial", "2 citations moved"), worded once for
`register diff`'s text and Markdown and for the Changes page, and each entry's last changes,
newest first (pure)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..citations.quoting import code_span
from .diffing import EntryChange, Field, SourceChange

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


@dataclass(frozen=True)
class Wording:
    """How a change is worded: `code` marks a value or a citation, `arrow` leads from old to
    new, `sep` follows a field's name (`status.state: missing -> partial`)."""

    code: Callable[[str], str] = str
    arrow: str = ARROW
    sep: str = ": "

    def values(self, value: tuple[Any, Any]) -> str:
        return f"{self.code(shown(value[0]))}{self.arrow}{self.code(shown(value[1]))}"

    def field(self, name: str, value: Field) -> str:
        """`status.state: missing -> partial`, or `what: changed` for prose."""
        return f"{name}{self.sep}{'changed' if value is None else self.values(value)}"

    def source(self, s: SourceChange) -> str:
        """`source go: pin moved OLD -> NEW`, `source go: added (pin NEW)`."""
        code, said = self.code, f"source {self.code(s.alias)}: "
        if s.change == "moved":
            return f"{said}pin moved {code(s.old or '')}{self.arrow}{code(s.new or '')}"
        return f"{said}{s.change} (pin {code((s.new if s.change == 'added' else s.old) or '')})"

    def citations(self, change: EntryChange, noun: str = "citation ") -> list[str]:
        """`citation moved: A -> B`, `citation added: C`, ... one per citation."""
        code, sep = self.code, self.sep
        return [
            *(f"{noun}moved{sep}{code(a)}{self.arrow}{code(b)}" for a, b in change.moved),
            *(f"{noun}added{sep}{code(c)}" for c in change.added),
            *(f"{noun}removed{sep}{code(c)}" for c in change.removed),
        ]


PLAIN = Wording()
MARKDOWN = Wording(code_span, " → ", " ")
"""Pins, values and citations as code spans: a pull-request comment, the Changes page."""


def entry_phrases(
    change: EntryChange,
    field: Callable[[str, Field], str],
    state: Callable[[tuple[Any, Any]], str] | None = None,
) -> list[str]:
    """What changed in an entry: each field by `field` (the state first by `state`, when
    given, without its name), then the citations' counts (`2 citations moved`)."""
    fields = dict(change.fields)
    first = []
    if state is not None and (value := fields.get("status.state")) is not None:
        first.append(state(value))  # a None state (prose-like) stays among the fields
        del fields["status.state"]
    counts = (("moved", change.moved), ("added", change.added), ("removed", change.removed))
    cited = [f"{len(c)} citation{'s' * (len(c) != 1)} {verb}" for verb, c in counts if c]
    return [*first, *(field(n, v) for n, v in fields.items()), *cited]


def short_phrase(change: EntryChange) -> str:
    """`added`, `removed`, or what changed, the state first without its name
    (`missing -> partial; what changed`): an entry's own list of last changes."""
    if change.change != "changed":
        return change.change
    return "; ".join(entry_phrases(change, _short, PLAIN.values))


def _short(name: str, value: Field) -> str:
    return f"{name} changed" if value is None else PLAIN.field(name, value)


Event = tuple["Commit", EntryChange]
"""One change of one entry and its commit."""


def entry_events(commits: list[Commit], limit: int = 5) -> dict[str, list[Event]]:
    """Entry ID -> its last `limit` changes, newest first (`commits` newest first)."""
    found: dict[str, list[Event]] = {}
    for commit in commits:
        for change in commit.diff.entries:
            events = found.setdefault(change.id, [])
            if len(events) < limit:
                events.append((commit, change))
    return found

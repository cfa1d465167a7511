"""`register stamp`'s plan: the lock's new text and which citations it stamps (pure).

A citation is stamped only when its lines read as cited (`outcome.AS_CITED`, its lines
read); the others keep any old stamp. `api.stamp` writes the lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..citations.compare import source_kind
from ..model.registers import Sources
from ..reading.folder import LockText
from . import stamps
from .outcome import AS_CITED, Outcome


@dataclass
class StampPlan:
    """citations.lock after `register stamp`, and the citations chosen."""

    old_text: str
    """The lock's text as read ("" when there is none)."""
    text: str
    stamped: list[Outcome]
    """The chosen citations whose lines are stamped."""
    refused: list[Outcome]
    """Chosen citations that cannot be stamped: their lines are not readable as cited."""

    @property
    def changed(self) -> bool:
        return not stamps.same_lines(self.text, self.old_text)


def plan(
    outcomes: Sequence[Outcome],
    sources: Sources,
    lock: LockText | None,
    chosen: set[str] | None,
) -> StampPlan:
    """Stamp the citations of the `chosen` entries (every entry when None), given every
    citation's outcome in `RegisterSet.citations()` order. Raises `edit.EditError` when
    the lock cannot be read (it is not written over)."""
    mine = [o for o in outcomes if chosen is None or o.citation.entry in chosen]
    keys = stamps.keys(stamps.place(o.citation) for o in outcomes)
    current = [
        (key, _digest(outcome, sources))
        for outcome, key in zip(outcomes, keys, strict=True)
        if key is not None
    ]
    read = stamps.to_rewrite(lock)
    pins = {alias: s.commit for alias, s in sources.sources.items()}
    restamped = stamps.restamp(read.stamps if read else {}, current, chosen)
    stamped = [o for o in mine if stampable(o)]
    refused = [o for o in mine if not stampable(o) and o.citation.source is not None]
    old_text = read.text if read and read.text else ""
    return StampPlan(old_text, stamps.format_lock(restamped, pins), stamped, refused)


def stampable(outcome: Outcome) -> bool:
    """Whether a citation's lines read as cited (and so may be stamped)."""
    return outcome.outcome in AS_CITED and outcome.excerpt is not None


def _digest(outcome: Outcome, sources: Sources) -> str | None:
    """The stamp of a citation's lines by its file's kind, when they read as cited."""
    citation = outcome.citation
    if not stampable(outcome) or outcome.excerpt is None or citation.repo_path is None:
        return None
    kind = source_kind(sources.sources.get(citation.source or ""), citation.repo_path)
    return stamps.digest(outcome.excerpt, kind)

"""Exclusions: statements of the specification deliberately not covered, each with a reason.

Read from `registers/exclusions.yaml`. Each exclusion is a citation of the statement, so
`register verify`, `fix` and `bump` keep it true like every other citation; its entry
label is `exclusions` (what a diagnostic, a stamp and `register stamp exclusions` name).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .citation import Citation
from .positions import Where

LABEL = "exclusions"
"""The entry label of every exclusion's citation (no entry ID can be it: IDs are PREFIX-N)."""


@dataclass(frozen=True, eq=False)
class Exclusion:
    """A statement not covered on purpose: its citation, why, and where to read more."""

    citation: Citation
    reason: str
    link: str | None
    where: Where
    """Where the exclusion starts in exclusions.yaml. (Named by `citation.key`: two
    exclusions of the same lines are two, each with its own problems.)"""


@dataclass
class Exclusions:
    """registers/exclusions.yaml."""

    file: str
    items: list[Exclusion] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def citations(self) -> list[Citation]:
        return [exclusion.citation for exclusion in self.items]

"""Exclusions (`registers/exclusions.yaml`): statements deliberately not covered, each a
citation (kept true as every other is, labelled `exclusions`) with a reason."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .citation import Citation
from .positions import Where

LABEL = "exclusions"  # the entry label of every exclusion's citation (no ID can be it)


@dataclass(frozen=True, eq=False)
class Exclusion:
    """A statement not covered on purpose: its citation, why, and where to read more."""

    citation: Citation
    reason: str
    link: str | None
    where: Where


@dataclass
class Exclusions:
    """registers/exclusions.yaml."""

    file: str
    items: list[Exclusion] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def citations(self) -> list[Citation]:
        return [exclusion.citation for exclusion in self.items]

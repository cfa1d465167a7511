"""Concepts (`registers/concepts.yaml`): the pieces of the specification that entries of
several registers describe (`concept: ID`), each a row of the matrix."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .citation import Citation
from .positions import Where

MAX_DEPTH = 16
"""The most parents above one concept (a tree needs three or four): deeper is an error, and
shown at this depth, so no output grows with the square of a chain."""
LABEL = "concepts"  # the entry label of every concept statement's citation


@dataclass(frozen=True, eq=False)
class Concept:
    """One concept: its ID, title, parent's ID, the statements it cites, the suite's checks
    that measure it, where its `id` (else its item) and its `parent:` are written."""

    id: str
    title: str
    parent: str | None
    statements: tuple[Citation, ...]
    checks: tuple[str, ...]
    where: Where
    meta: dict[str, Any] = field(default_factory=dict)
    parent_where: Where | None = None


@dataclass(frozen=True)
class Concepts:
    """registers/concepts.yaml: its concepts in file order."""

    file: str
    concepts: tuple[Concept, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)

    def by_id(self) -> dict[str, Concept]:
        """Each concept by its ID; of two with one ID, the first (check reports the second)."""
        found: dict[str, Concept] = {}
        for concept in self.concepts:
            found.setdefault(concept.id, concept)
        return found

    def depths(self) -> tuple[dict[str, int], list[list[str]]]:
        """Each concept's depth (parents above it, a cycle's own at 0), and each cycle of
        parents; each concept followed once."""
        known = self.by_id()
        depth: dict[str, int] = {}
        cycles: list[list[str]] = []
        for start in known:
            path: dict[str, int] = {}  # the walk from `start` up, in order
            node = start
            while node in known and node not in depth and node not in path:
                path[node] = len(path)
                node = known[node].parent or ""
            walked = list(path)
            if node in path:  # ran round to a concept of this walk: a cycle
                cycles.append(walked[path[node] :])
                depth.update(dict.fromkeys(walked[path[node] :], 0))
                walked = walked[: path[node]]
            above = depth.get(node, -1)
            for offset, concept_id in enumerate(reversed(walked), 1):
                depth[concept_id] = above + offset
        return depth, cycles

    def citations(self) -> list[Citation]:
        """Every statement of every concept, in file order."""
        return [citation for concept in self.concepts for citation in concept.statements]

"""Concepts: the pieces of the specification that entries of several registers describe.

Read from `registers/concepts.yaml`. An entry names its concept (`concept: ID`), so
`META-07` and `GOMETA-01` (both traceparent) share a row of the matrix
(`views.conceptmatrix`). A concept may have a parent, the statements it is about
(citations) and the suite's checks that measure it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .citation import Citation
from .positions import Where

MAX_DEPTH = 16
"""The most parents above one concept (a specification's tree needs three or four): a
deeper one is an error of check, and the matrix shows it at this depth, so that no output
grows with the square of a chain a pull request may write."""
LABEL = "concepts"
"""The entry label of every concept statement's citation (no entry ID can be it)."""


@dataclass(frozen=True, eq=False)
class Concept:
    """One concept: its ID, what it is called, where it sits, what it cites and measures."""

    id: str
    title: str
    parent: str | None
    """The ID of the concept it belongs under (`concepts.consistency` holds it known, acyclic)."""
    statements: tuple[Citation, ...]
    """The specification's statements the concept is about, as listed citations."""
    checks: tuple[str, ...]
    """The conformance suite's check IDs that measure it (`server-initialize`)."""
    where: Where
    """Where its `id` is written in concepts.yaml (the item's start without one)."""
    meta: dict[str, Any] = field(default_factory=dict)
    parent_where: Where | None = None
    """Where `parent:` is written, when it is (an unknown parent is reported there)."""


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
        """Each concept's depth (how many parents above it, a cycle's own concepts at 0),
        and each cycle of parents; in one walk, each concept followed once."""
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

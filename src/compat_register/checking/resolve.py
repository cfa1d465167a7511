"""Resolving citations: each citation's source and full path, from its `ALIAS:` prefix or
the one source claiming it; an unknown, ambiguous or unsafe one stays unresolved."""

from __future__ import annotations

from dataclasses import replace

from ..model.claims import claimants
from ..model.concepts import Concepts
from ..model.exclusions import Exclusions
from ..model.registers import Citation, Register, Sources
from .safety import check_repo_path


def target(citation: Citation, sources: Sources) -> tuple[str, str] | None:
    """(alias, full repository path) the citation points into, safe or not; None when no
    single declared source is named or claims it."""
    if citation.alias:
        return (citation.alias, citation.path) if citation.alias in sources.sources else None
    found = claimants(citation.path, sources.claims())
    return found[0] if len(found) == 1 else None


def resolved(register: Register, sources: Sources) -> Register:
    """A new register, each citation with a safe target resolved."""
    entries = [
        replace(
            entry,
            citations=_resolved(entry.citations, sources),
            prose_citations=_resolved(entry.prose_citations, sources),
        )
        for entry in register.entries
    ]
    summary = _resolved(register.summary_citations, sources)
    return replace(register, summary_citations=summary, entries=entries)


def resolved_exclusions(exclusions: Exclusions, sources: Sources) -> Exclusions:
    """New exclusions, each exclusion's citation resolved as `resolved` does."""
    citations = _resolved(exclusions.citations(), sources)
    items = [
        replace(exclusion, citation=citation)
        for exclusion, citation in zip(exclusions.items, citations, strict=True)
    ]
    return replace(exclusions, items=items)


def resolved_concepts(concepts: Concepts, sources: Sources) -> Concepts:
    """New concepts, each concept's statements resolved as `resolved` does."""
    items = tuple(
        replace(concept, statements=tuple(_resolved(list(concept.statements), sources)))
        for concept in concepts.concepts
    )
    return replace(concepts, concepts=items)


def _resolved(citations: list[Citation], sources: Sources) -> list[Citation]:
    found = []
    for citation in citations:
        where = target(citation, sources)
        if where is not None and check_repo_path(where[1]) is None:
            citation = citation.resolved(*where)
        found.append(citation)
    return found

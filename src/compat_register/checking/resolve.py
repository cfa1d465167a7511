"""Resolving citations: each citation's source, as a new register holding resolved ones.

The source and full path come from the `ALIAS:` prefix or the one source whose claims
match the path; an unknown, ambiguous or unsafe one stays unresolved
(`rules.check_citation` says why).
"""

from __future__ import annotations

from dataclasses import replace

from ..model.claims import claimants
from ..model.concepts import Concepts
from ..model.exclusions import Exclusions
from ..model.registers import Citation, Register, Sources
from .safety import check_repo_path


def target(citation: Citation, sources: Sources) -> tuple[str, str] | None:
    """(alias, full repository path) the citation points into, whether or not the path is
    safe; None when no single declared source is named or claims it."""
    if citation.alias:
        return (citation.alias, citation.path) if citation.alias in sources.sources else None
    found = claimants(citation.path, sources.claims())
    return found[0] if len(found) == 1 else None


def resolved(register: Register, sources: Sources) -> Register:
    """The register with each citation's `source` and `repo_path` set, where it has a safe
    target (the register it was given is left as it was)."""
    summary = _resolved(register.summary_citations, sources)
    entries = [
        replace(
            entry,
            citations=_resolved(entry.citations, sources),
            prose_citations=_resolved(entry.prose_citations, sources),
        )
        for entry in register.entries
    ]
    return replace(register, summary_citations=summary, entries=entries)


def resolved_exclusions(exclusions: Exclusions, sources: Sources) -> Exclusions:
    """exclusions.yaml with each exclusion's citation resolved, as `resolved` does a
    register's (the value it was given is left as it was)."""
    citations = _resolved(exclusions.citations(), sources)
    items = [
        replace(exclusion, citation=citation)
        for exclusion, citation in zip(exclusions.items, citations, strict=True)
    ]
    return replace(exclusions, items=items)


def resolved_concepts(concepts: Concepts, sources: Sources) -> Concepts:
    """concepts.yaml with each concept's statements resolved (the value it was given is
    left as it was)."""
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

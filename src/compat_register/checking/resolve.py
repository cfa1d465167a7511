"""Resolving citations: each citation's source and full path, from its `ALIAS:` prefix or
the one source claiming it; an unknown, ambiguous or unsafe one stays unresolved."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..model.claims import claimants
from ..model.registers import Citation, Register, RegisterSet, Sources
from .safety import check_repo_path


def target(citation: Citation, sources: Sources) -> tuple[str, str] | None:
    """(alias, full repository path) the citation points into, safe or not; None when no
    single declared source is named or claims it."""
    if citation.alias:
        return (citation.alias, citation.path) if citation.alias in sources.sources else None
    found = claimants(citation.path, sources.claims())
    return found[0] if len(found) == 1 else None


def resolved(registers: RegisterSet) -> RegisterSet:
    """A new register set, each citation with a safe target resolved: the registers', the
    exclusions' and the concepts' statements."""
    sources, exclusions, concepts = registers.sources, registers.exclusions, registers.concepts
    if exclusions is not None:
        cited = zip(exclusions.items, _resolved(exclusions.citations(), sources), strict=True)
        exclusions = replace(exclusions, items=[replace(x, citation=c) for x, c in cited])
    if concepts is not None:
        items = tuple(
            replace(concept, statements=tuple(_resolved(concept.statements, sources)))
            for concept in concepts.concepts
        )
        concepts = replace(concepts, concepts=items)
    found = [_register(register, sources) for register in registers.registers]
    return replace(registers, registers=found, exclusions=exclusions, concepts=concepts)


def _register(register: Register, sources: Sources) -> Register:
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


def _resolved(citations: Iterable[Citation], sources: Sources) -> list[Citation]:
    found = []
    for citation in citations:
        where = target(citation, sources)
        if where is not None and check_repo_path(where[1]) is None:
            citation = citation.resolved(*where)
        found.append(citation)
    return found

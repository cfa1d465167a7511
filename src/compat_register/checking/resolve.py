"""Resolving citations: the one step of `checking` that changes the register set.

Each citation learns its source and its full path in that source's repository, from its
`ALIAS:` prefix or from the one source whose claims match its path. A citation whose
source is unknown, ambiguous or whose path git must not be handed stays unresolved;
`rules.check_citation` says why.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.claims import claimants
from ..model.registers import Citation, Sources
from .safety import check_repo_path


def target(citation: Citation, sources: Sources) -> tuple[str, str] | None:
    """(alias, full repository path) the citation points into, whether or not the path is
    safe; None when no single declared source is named or claims it."""
    if citation.alias:
        return (citation.alias, citation.path) if citation.alias in sources.sources else None
    found = claimants(citation.path, sources.claims())
    return found[0] if len(found) == 1 else None


def resolve_citations(citations: Iterable[Citation], sources: Sources) -> None:
    """Set each citation's `source` and `repo_path`, where it has a safe target."""
    for citation in citations:
        found = target(citation, sources)
        if found is not None and check_repo_path(found[1]) is None:
            citation.source, citation.repo_path = found

"""The register set as plain JSON-ready data, for other tools (`register export`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..model.concepts import Concept
from ..model.registers import Citation, Entry, EntryKey, Rated, Register, RegisterSet, Source
from ..model.vocabulary import RATED, RatedField

if TYPE_CHECKING:  # types only: `register export` need not import verify and bump
    from ..following.follow import Followed
    from ..rewriting.bump import Bump
    from ..verifying.verify import Outcome, Preview

EXPORT_VERSION = 1


def export(registers: RegisterSet) -> dict[str, Any]:
    """Everything a reader of the YAML knows, plus resolved citations and backlinks."""
    sources, concepts = registers.sources, registers.concepts
    return {
        "version": EXPORT_VERSION,
        "revisions": sources.revisions,
        "sources": {alias: source_data(s) for alias, s in sources.sources.items()},
        "pending": sources.pending,
        "registers": [register_data(r, registers.backlinks) for r in registers.registers],
        "concepts": None if concepts is None else [concept_data(c) for c in concepts.concepts],
    }


def concept_data(concept: Concept) -> dict[str, Any]:
    return {
        "id": concept.id,
        "title": concept.title,
        "parent": concept.parent,
        "statements": [citation_data(c) for c in concept.statements],
        "checks": list(concept.checks),
        "file": concept.where.file,
        "line": concept.where.line,
        "_meta": concept.meta,
    }


def source_data(source: Source) -> dict[str, Any]:
    return {
        "title": source.title,
        "repo": source.repo,
        "commit": source.commit,
        "claims": [{"glob": c.glob, "under": c.under} for c in source.claims],
        "_meta": source.meta,
    }


def register_data(
    register: Register, backlinks: Mapping[EntryKey, list[str]] | None = None
) -> dict[str, Any]:
    """A register as data; `backlinks`, those of a checked set (`RegisterSet.backlinks`)."""
    backlinks = backlinks or {}
    return {
        "slug": register.slug,
        "file": register.file,
        "title": register.title,
        "prefix": register.prefix,
        "description": register.description,
        "status": register.status,
        "tags": register.tags,
        "created": register.created,
        "last-updated": register.last_updated,
        "increment": register.increment,
        "subject": register.subject,
        "summary": register.summary,
        "summary_citations": [citation_data(c) for c in register.summary_citations],
        "entries": [entry_data(e, backlinks.get(e.key, [])) for e in register.entries],
        "_meta": register.meta,
    }


def _rated(rated: Rated, field: RatedField) -> dict[str, Any]:
    return {RATED[field]: rated.key, "note": rated.note, "_meta": rated.meta}


def entry_data(entry: Entry, backlinks: list[str]) -> dict[str, Any]:
    return {
        "id": entry.id,
        "title": entry.title,
        "what": entry.what,
        "where": entry.where_text,
        "revisions": entry.revisions.as_data(),
        "status": _rated(entry.status, "status"),
        "value": _rated(entry.value, "value"),
        "effort": _rated(entry.effort, "effort"),
        "risk": entry.risk,
        "detail": entry.detail,
        "next": entry.next_step,
        "notes": [{"title": n.title, "text": n.text} for n in entry.notes],
        "tags": entry.tags,
        "concept": entry.concept,
        "citations": [citation_data(c) for c in entry.all_citations()],
        "backlinks": backlinks,
        "file": entry.where.file,
        "line": entry.where.line,
        "_meta": entry.meta,
    }


def citation_data(citation: Citation) -> dict[str, Any]:
    return {
        "text": citation.text,
        "in_prose": citation.in_prose,
        "source": citation.source,
        "path": citation.repo_path or citation.path,
        "lines": [citation.start, citation.end],
        "quote": citation.quote,
        "file": citation.where.file,
        "line": citation.where.line,
        "col": citation.where.col,
    }


def placed_citation_data(citation: Citation) -> dict[str, Any]:
    """A citation with the register and entry it belongs to, for lists outside a register."""
    return {"register": citation.register, "entry": citation.entry, **citation_data(citation)}


def outcome_data(outcome: Outcome) -> dict[str, Any]:
    """A verified citation as in `register verify --format json`."""
    return {
        **placed_citation_data(outcome.citation),
        "outcome": outcome.outcome,
        "message": outcome.message,
        "proposed": list(outcome.proposed) if outcome.proposed else None,
    }


def preview_data(preview: Preview) -> dict[str, Any]:
    """`register verify --against` in `--format json`: the move and what it makes stale."""
    return {
        "source": preview.alias,
        "rev": preview.rev,
        "commit": preview.commit,
        "stale": [outcome_data(o) for o in preview.stale],
    }


def bump_data(bump: Bump, dry_run: bool) -> dict[str, Any]:
    """`register bump --format json`: the move, the counts, every citation, the files."""
    return {
        "source": bump.alias,
        "from": bump.old,
        "to": bump.new,
        "pin": bump.pin,
        "dry_run": dry_run,
        "summary": {**bump.counts(), "flagged": bump.flagged()},
        "renames": [{"from": a, "to": b, "commit": sha} for a, b, sha in bump.renames()],
        "citations": [followed_data(f) for f in bump.followed],
        "files": list(bump.files),
        "written": bump.written,
    }


def followed_data(followed: Followed) -> dict[str, Any]:
    return {
        **placed_citation_data(followed.citation),
        "kind": followed.kind,
        "new_path": followed.path,
        "new_lines": list(followed.lines) if followed.lines else None,
        "note": followed.note,
        "flags": list(followed.flags),
        "candidates": [
            {"path": p, "lines": [a, b], "commit": sha} for p, a, b, sha in followed.candidates
        ],
        "renames": [{"from": a, "to": b, "commit": sha} for a, b, sha in followed.renames],
    }

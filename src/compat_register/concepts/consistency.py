"""What a schema cannot say of concepts.yaml and the entries naming a concept: IDs unique,
parents known and acyclic, named concepts known; and the states that need a note."""

from __future__ import annotations

import difflib
from collections.abc import Iterator

from ..model.concepts import MAX_DEPTH, Concept, Concepts
from ..model.diagnostic import Diagnostic
from ..model.registers import Entry, RegisterSet
from ..model.vocabulary import NOTED, RATED
from ..reading.document import Document


def check(registers: RegisterSet, documents: dict[str, Document]) -> Iterator[Diagnostic]:
    """The concepts file's own rules, then each entry's concept and status note."""
    concepts = registers.concepts
    if concepts is not None:
        yield from check_unique(concepts)
        yield from check_parents(concepts)
    known = concepts.by_id() if concepts is not None else None  # once: entries are many
    for register in registers.registers:
        doc = documents[register.file]
        for entry in register.entries:
            yield from check_named(entry, known, doc)
            yield from check_note(entry, doc)


def check_unique(concepts: Concepts) -> Iterator[Diagnostic]:
    """A concept ID is given once."""
    first: dict[str, Concept] = {}
    for concept in concepts.concepts:
        if (seen := first.setdefault(concept.id, concept)) is not concept:
            message = f"duplicate concept ID {concept.id} (first defined at line {seen.where.line})"
            code = "duplicate-concept"
            yield Diagnostic.at(concept.where, id=concept.id, code=code, message=message)


def check_parents(concepts: Concepts) -> Iterator[Diagnostic]:
    """Each parent is a concept; parents form no cycle (said once, at its first concept)
    and stop within `MAX_DEPTH` (said once, at the first concept deeper)."""
    known = concepts.by_id()
    for concept in concepts.concepts:
        if concept.parent is not None and concept.parent not in known:
            message = f"unknown parent concept '{concept.parent}'{_guess(concept.parent, known)}"
            yield _at_parent(concept, "unknown-parent", message)
    depth, cycles = concepts.depths()
    order = {concept_id: index for index, concept_id in enumerate(known)}
    for cycle in cycles:
        first = min(range(len(cycle)), key=lambda n: order[cycle[n]])
        cycle = cycle[first:] + cycle[:first]
        message = "concept parents form a cycle: " + " -> ".join([*cycle, cycle[0]])
        yield _at_parent(known[cycle[0]], "concept-cycle", message)
    if deep := next((c for c in known.values() if depth[c.id] > MAX_DEPTH), None):
        message = (
            f"concept sits under {depth[deep.id]} parents, over the {MAX_DEPTH} a concept "
            "may: group the concepts in fewer levels"
        )
        yield _at_parent(deep, "concept-too-deep", message)


def _at_parent(concept: Concept, code: str, message: str) -> Diagnostic:
    where = concept.parent_where or concept.where
    return Diagnostic.at(where, id=concept.id, code=code, message=message)


def check_named(
    entry: Entry, known: dict[str, Concept] | None, doc: Document
) -> Iterator[Diagnostic]:
    """An entry's `concept:` is one of concepts.yaml's (`known`, None without the file)."""
    if entry.concept is None or (known is not None and entry.concept in known):
        return
    if known is None:
        message = f"unknown concept '{entry.concept}': no concepts.yaml beside the registers"
    else:
        message = f"unknown concept '{entry.concept}'{_guess(entry.concept, known)}"
    where = doc.where((*entry.field, "concept"))
    yield Diagnostic.at(where, id=entry.id, code="unknown-concept", message=message)


def check_note(entry: Entry, doc: Document) -> Iterator[Diagnostic]:
    """A `partial` or `n/a` state needs a note (a warning), but for a `note:` beside
    `status:`, whose unknown-field error says it all."""
    noted = entry.status.note and entry.status.note.strip()
    if entry.status.key not in NOTED or noted or (*entry.field, "note") in doc.values:
        return
    say = "what is there and what is not" if entry.status.key == "partial" else "why not"
    message = f"state '{entry.status.key}' needs a note: say {say}"
    where, code = doc.where((*entry.field, "status", RATED["status"])), "note-required"
    yield Diagnostic.at(where, id=entry.id, code=code, message=message, severity="warning")


def _guess(name: str, known: dict[str, Concept]) -> str:
    found = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean '{found[0]}'?)" if found else ""

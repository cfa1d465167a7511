"""Validate stage: the rules a JSON Schema cannot express, prose bounds and bidi controls
among them, each yielding diagnostics."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from functools import partial
from itertools import pairwise

from ..citations.bounds import over_bounds
from ..concepts import consistency
from ..model.claims import claimants
from ..model.diagnostic import Diagnostic
from ..model.display import BIDI
from ..model.positions import Path_
from ..model.registers import Citation, Entry, Register, RegisterSet, Sources
from ..model.vocabulary import EVIDENCED, RATED
from ..reading import ids, schema
from ..reading.document import Document
from . import resolve
from .safety import check_repo_path, check_repo_url

TIMESTAMP = re.compile(
    schema.python_pattern(schema.load_schema(schema.REGISTER)["$defs"]["timestamp"]["pattern"])
)
_BIDI = re.compile(f"[{BIDI}]")


def check(
    registers: RegisterSet, documents: dict[str, Document], sources_failed: bool = False
) -> Iterator[Diagnostic]:
    """Every cross-file and semantic rule, in no order (the caller sorts); with
    `sources_failed`, nothing that sources.yaml's own error explains (an unresolved
    citation, an unknown alias or revision)."""
    sources = registers.sources
    yield from check_sources(sources, documents.get(sources.file))
    yield from check_prefixes(registers)
    yield from check_unique_ids(registers)
    for register in registers.registers:
        doc = documents[register.file]
        yield from check_header(register, sources, doc)
        yield from check_prose(register, doc)
        for entry in register.entries:
            yield from check_entry(entry, register, sources, doc, sources_failed)
    yield from consistency.check(registers, documents)
    if sources.sources:  # else sources.yaml is missing, unreadable or empty: reported there
        concepts = registers.concepts.citations() if registers.concepts else []
        for citation in [*registers.citations(), *concepts]:
            yield from check_citation(citation, sources, sources_failed)


def check_sources(sources: Sources, doc: Document | None) -> Iterator[Diagnostic]:
    """Repo locations must be safe to hand to git; revision names unique (schema) and sane."""
    if doc is None:
        return
    for alias, source in sources.sources.items():
        if source.repo and (problem := check_repo_url(source.repo)):  # '' is the schema's
            where = doc.where(("sources", alias, "repo"))
            yield Diagnostic.at(where, id=alias, code="bad-repo", message=problem)


def check_prefixes(registers: RegisterSet) -> Iterator[Diagnostic]:
    """One register per prefix; a published prefix should leave the pending list."""
    seen: dict[str, Register] = {}
    for register in registers.registers:
        if not register.prefix:
            continue
        at = partial(Diagnostic.at, register.where, id=register.slug)
        if first := seen.get(register.prefix):
            message = f"prefix {register.prefix} is already used by {first.file}"
            yield at(code="duplicate-prefix", message=message)
        seen.setdefault(register.prefix, register)
        if register.prefix in registers.sources.pending:
            message = f"prefix {register.prefix} is published here but still listed as pending"
            yield at(code="pending-published", message=message, severity="warning")


def check_unique_ids(registers: RegisterSet) -> Iterator[Diagnostic]:
    """Entry IDs are unique across all registers."""
    seen: dict[str, Entry] = {}
    for register in registers.registers:
        for entry in register.entries:
            if first := seen.get(entry.id):
                where = f"{first.where.file}:{first.where.line}"
                message = f"duplicate ID {entry.id} (first defined at {where})"
                yield Diagnostic.at(entry.where, id=entry.id, code="duplicate-id", message=message)
            else:
                seen[entry.id] = entry


def check_header(register: Register, sources: Sources, doc: Document) -> Iterator[Diagnostic]:
    """Dates parse and are in order; the subject is a declared source."""
    dates = {}
    for key, text in (("created", register.created), ("last-updated", register.last_updated)):
        if not TIMESTAMP.match(text):
            continue  # empty or not of the form: the schema said so
        at = partial(Diagnostic.at, doc.where((key,)), id=register.slug)
        try:
            dates[key] = parse_timestamp(text)
        except ValueError:
            yield at(code="bad-date", message=f"'{key}' is not a real date: {text}")
            continue
        if key == "last-updated" and "created" in dates and dates[key] < dates["created"]:
            message = f"'last-updated' {text} is before 'created' {register.created}"
            yield at(code="date-order", message=message)
    if register.subject and sources.sources and register.subject not in sources.sources:
        known = _listed(sources.sources, "known: ")
        message = f"subject '{register.subject}' is not a source in sources.yaml{known}"
        where = doc.where(("subject",))
        yield Diagnostic.at(where, id=register.slug, code="unknown-source", message=message)


def parse_timestamp(text: str) -> datetime:
    """An ISO 8601 date or date-time; naive times are taken as UTC so all compare."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00").replace(" ", "T"))
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def check_prose(register: Register, doc: Document) -> Iterator[Diagnostic]:
    """A prose field over `citations.bounds` is an error; a bidi control character a
    warning: it makes text read in another order than it is stored (Trojan Source)."""
    yield from _check_field(register.description, ("description",), register.slug, doc)
    for entry in register.entries:
        for path, text in entry.prose().items():
            yield from _check_field(text, (*entry.field, *path), entry.id, doc)


def _check_field(text: str | None, path: Path_, owner: str, doc: Document) -> Iterator[Diagnostic]:
    if not text:
        return
    if problem := over_bounds(text):
        yield Diagnostic.at(doc.where(path), id=owner, code="prose-too-costly", message=problem)
    if not text.isascii() and (found := sorted({f"U+{ord(c):04X}" for c in _BIDI.findall(text)})):
        message = (
            f"bidi control character {', '.join(found)} in prose: it makes the text read in "
            "another order than it is written; remove it"
        )
        yield Diagnostic.at(
            doc.where(path), id=owner, code="bidi-control", message=message, severity="warning"
        )


def check_entry(
    entry: Entry, register: Register, sources: Sources, doc: Document, sources_failed: bool = False
) -> Iterator[Diagnostic]:
    """ID prefix; revision names declared and in order (unless sources.yaml failed and
    declares none: each name would be a false error); the evidence rule."""
    # an entry with no string `id`, or an ID not of its form, the schema reported
    prefix = ids.prefix_of(entry.id) if entry.named and ids.ID.match(entry.id) else None
    if prefix and ids.PREFIX.match(register.prefix) and prefix != register.prefix:
        message = f"ID {entry.id} does not use this register's prefix {register.prefix}"
        yield Diagnostic.at(entry.where, id=entry.id, code="wrong-prefix", message=message)
    if sources.revisions or not sources_failed:
        yield from _check_revisions(entry, sources, doc)
    yield from check_evidence(entry, register, sources, doc)


def _check_revisions(entry: Entry, sources: Sources, doc: Document) -> Iterator[Diagnostic]:
    """Every revision named is declared, and they run added < changed... < removed."""
    order = {name: index for index, name in enumerate(sources.revisions)}
    revisions = entry.revisions
    # (place under `revisions`, label, name) of each revision named, in the order they run
    named: list[tuple[Path_, str, str]] = [
        (("changed", i), f"changed[{i}]", name) for i, name in enumerate(revisions.changed)
    ]
    if revisions.added is not None:
        named.insert(0, (("added",), "added", revisions.added))
    if revisions.removed is not None:
        named.append((("removed",), "removed", revisions.removed))
    for key, _, name in named:
        if name not in order:
            listed = _listed(order)
            message = f"revision '{name}' is not declared in sources.yaml revisions{listed}"
            where = doc.where((*entry.field, "revisions", *key))
            yield Diagnostic.at(where, id=entry.id, code="unknown-revision", message=message)
    known = [(key, label, name) for key, label, name in named if name in order]
    for (before, earlier, first), (key, label, name) in pairwise(known):
        if order[name] <= order[first]:
            message = f"revision {label} ({name}) is not after {earlier} ({first})"
            if key[0] == "changed" and before[0] == "changed":
                message += ": list changed revisions oldest first"
            where = doc.where((*entry.field, "revisions", *key))
            yield Diagnostic.at(where, id=entry.id, code="revision-order", message=message)
            return  # one order problem per entry: the rest follow from it


def check_evidence(
    entry: Entry, register: Register, sources: Sources, doc: Document
) -> Iterator[Diagnostic]:
    """A warning unless a `done` or `partial` entry cites its register's subject (listed or
    in its status note); not judged while a citation is unresolved (reported already)."""
    if entry.status.key not in EVIDENCED or register.subject not in sources.sources:
        return
    in_note = [c for c in entry.prose_citations if c.field[2:] == ("status", "note")]
    cited = [citation.source for citation in (*entry.citations, *in_note)]
    if register.subject in cited or None in cited:
        return
    message = (
        f"state '{entry.status.key}' cites nothing of the subject {register.subject}: "
        f"list a citation of {register.subject} under sources, or cite it in the status note"
    )
    where = doc.where((*entry.field, "status", RATED["status"]))
    yield Diagnostic.at(where, id=entry.id, code="no-evidence", message=message, severity="warning")


def check_citation(
    citation: Citation, sources: Sources, sources_failed: bool = False
) -> Iterator[Diagnostic]:
    """A prefixed citation names a declared source; an unprefixed one is claimed once; the
    path is one git may be handed. A resolved citation is all three."""
    if citation.source is not None:
        return
    found = resolve.target(citation, sources)
    if found is None and sources_failed:
        return  # sources.yaml's own error is the cause
    if citation.alias and citation.alias not in sources.sources:
        known = _listed(sources.sources, "known: ")
        message = f"unknown source alias '{citation.alias}' in {citation.text}{known}"
        code = "unknown-source"
    elif found is None:
        code, message = "citation-unresolved", _claim_problem(citation, sources)
    elif problem := check_repo_path(found[1]):
        code, message = "bad-path", problem
    else:
        return
    yield Diagnostic.at(citation.where, id=citation.entry, code=code, message=message)


def _claim_problem(citation: Citation, sources: Sources) -> str:
    found = claimants(citation.path, sources.claims())
    if not found:
        aliases = _listed(sources.sources, "one of ")
        return f"no source claims {citation.path}: prefix it with ALIAS:{aliases}"
    names = ", ".join(alias for alias, _ in found)
    return f"{citation.path} is claimed by several sources ({names}): prefix it with ALIAS:"


def _listed(names: Iterable[str], lead: str = "") -> str:
    text = ", ".join(names)
    return f" ({lead}{text})" if text else ""

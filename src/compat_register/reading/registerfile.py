"""Build stage: a loaded, schema-checked register, sources.yaml or exclusions document -> its
typed `Register`, `Sources` or `Exclusions`, a field with a schema error read as empty
(`tolerant`); citations are read by `citing`."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from ..citations.nonprose import prose_fields
from ..model.claims import Claim, Scope
from ..model.diagnostic import Diagnostic
from ..model.exclusions import LABEL, Exclusion, Exclusions
from ..model.patterns import compile_pattern, glob_problem
from ..model.positions import Path_
from ..model.prose import Prose
from ..model.registers import (
    Citation,
    Entry,
    LinkPattern,
    Meta,
    Note,
    Rated,
    Register,
    RequirementFiles,
    Revisions,
    Source,
    Sources,
)
from ..model.vocabulary import RATED, RatedField
from . import schema
from .citing import CitationBuilder
from .document import Document
from .tolerant import as_dict, as_list, as_opt_text, as_text, value_at


def build_register(
    doc: Document, slug: str, out: list[Diagnostic], links: Sequence[LinkPattern] = ()
) -> Register:
    """The typed register of one file, its prose parsed (with sources.yaml's `links`);
    citation syntax errors are reported to `out`."""
    data = doc.data
    builder = CitationBuilder(doc, slug, out, links)
    summary, summary_citations = builder.in_prose(("summary",), slug)
    return Register(
        slug=slug,
        file=doc.file,
        title=as_text(data.get("title")) or slug,
        prefix=as_text(data.get("prefix")),
        description=as_text(data.get("description")),
        status=as_text(data.get("status")),
        tags=[t for t in as_list(data.get("tags")) if isinstance(t, str)],
        created=as_text(data.get("created")),
        last_updated=as_text(data.get("last-updated")),
        increment=data.get("increment") if isinstance(data.get("increment"), int) else 0,
        subject=as_text(data.get("subject")),
        summary=summary,
        entries=[
            _build_entry(doc, slug, index, entry, builder)
            for index, entry in enumerate(as_list(data.get("entries")))
            if isinstance(entry, dict)
        ],
        where=doc.where(("prefix",)),
        summary_citations=summary_citations,
        meta=_meta(data),
    )


def register_citations(doc: Document, slug: str, out: list[Diagnostic]) -> list[Citation]:
    """What one register file cites, as `build_register` reads it (an edit's read-back)."""
    return build_register(doc, slug, out).citations()


def part_citations(
    doc: Document, slug: str, part: Path_, value: Any, out: list[Diagnostic]
) -> list[Citation]:
    """The citations `register_citations` would read out of one part of `doc` (the summary, an
    entry's `sources` item or prose field) if it held `value`: an edited part's read-back."""
    builder = CitationBuilder(doc, slug, out)
    if part == ("summary",):
        return builder.in_prose(part, slug, value)[1] if isinstance(value, str) else []
    index = part[1] if len(part) > 2 and part[0] == "entries" else None
    entry = value_at(doc.data, ("entries", index)) if isinstance(index, int) else None
    if not isinstance(entry, dict) or not isinstance(index, int):
        return []
    entry_id, inner = _entry_id(slug, index, entry)[0], part[2:]
    if len(inner) == 2 and inner[0] == "sources" and isinstance(inner[1], int):
        found = builder.listed(part, value, entry_id)
        return [] if found is None else [found]
    if isinstance(value, str) and any(path == inner for path, _ in prose_fields(entry)):
        return builder.in_prose(part, entry_id, value)[1]
    return []


def listed_citation(
    doc: Document, slug: str, path: Path_, entry_id: str, out: list[Diagnostic]
) -> Citation | None:
    """The citation written at `path` of `doc`, read as an entry's `sources:` item; None,
    with its syntax error in `out`, when it does not parse."""
    return CitationBuilder(doc, slug, out).listed(path, value_at(doc.data, path), entry_id)


def build_exclusions(doc: Document, out: list[Diagnostic]) -> Exclusions:
    """The typed exclusions of a schema-checked document (an item with a schema error left
    out: the schema said why)."""
    items = []
    for index, data in enumerate(as_list(doc.data.get("exclusions"))):
        if not isinstance(data, dict):
            continue
        place: Path_ = ("exclusions", index)
        citation = listed_citation(doc, LABEL, (*place, "statement"), LABEL, out)
        reason = as_text(data.get("reason"))
        if citation is not None and reason:
            link = as_opt_text(data.get("link"))
            items.append(Exclusion(citation, reason, link, doc.where(place)))
    return Exclusions(doc.file, items, _meta(doc.data))


def _meta(data: dict[str, Any]) -> dict[str, Any]:
    """`data`'s `_meta` as a `Meta`; a plain `{}` when there is none, which the garbage
    collector does not track."""
    written = as_dict(data.get("_meta"))
    return Meta(written) if written else {}


def _entry_id(slug: str, index: int, data: dict[str, Any]) -> tuple[str, bool]:
    """An entry's ID, and whether it was written (else `slug[index]`; the schema says so)."""
    named = isinstance(data.get("id"), str) and data["id"] != ""
    return (data["id"] if named else f"{slug}[{index}]"), named


def build_entry(doc: Document, slug: str, index: int, out: list[Diagnostic]) -> Entry | None:
    """The typed entry `entries[index]` as `build_register` builds it; None when there is
    no such mapping."""
    data = value_at(doc.data, ("entries", index))
    if not isinstance(data, dict):
        return None
    return _build_entry(doc, slug, index, data, CitationBuilder(doc, slug, out))


def _rated(entry: dict[str, Any], field: RatedField, note: Prose | None) -> Rated:
    data = as_dict(entry.get(field))
    return Rated(as_text(data.get(RATED[field])), note, _meta(data))


def _revisions(data: Any) -> Revisions:
    data = as_dict(data)
    return Revisions(
        added=revision_name(data.get("added")),
        changed=revision_names(data.get("changed")),
        removed=revision_name(data.get("removed")),
        meta=_meta(data),
    )


def _build_entry(
    doc: Document, slug: str, index: int, data: dict[str, Any], builder: CitationBuilder
) -> Entry:
    base: Path_ = ("entries", index)
    entry_id, named = _entry_id(slug, index, data)
    listed = [
        c
        for number, item in enumerate(as_list(data.get("sources")))
        if (c := builder.listed((*base, "sources", number), item, entry_id)) is not None
    ]
    prose: list[Citation] = []
    texts: dict[Path_, Prose] = {}  # each prose field holding text, parsed, by its path
    for path, text in prose_fields(data):
        parsed, cited = builder.in_prose((*base, *path), entry_id, text)
        if parsed is not None:
            texts[path] = parsed
        prose.extend(cited)
    notes = [
        Note(as_text(n.get("title")), texts.get(("notes", number, "text"), ""))
        for number, n in enumerate(as_list(data.get("notes")))
        if isinstance(n, dict)
    ]
    return Entry(
        id=entry_id,
        title=as_text(data.get("title")),
        what=texts.get(("what",), ""),
        where_text=texts.get(("where",)),
        revisions=_revisions(data.get("revisions")),
        status=_rated(data, "status", texts.get(("status", "note"))),
        value=_rated(data, "value", texts.get(("value", "note"))),
        effort=_rated(data, "effort", texts.get(("effort", "note"))),
        risk=texts.get(("risk",), ""),
        detail=texts.get(("detail",)),
        notes=notes,
        tags=[t for t in as_list(data.get("tags")) if isinstance(t, str)],
        citations=listed,
        prose_citations=prose,
        register=slug,
        where=doc.where(base),
        field=base,
        named=named,
        meta=_meta(data),
        next_step=texts.get(("next",)),
        texts=tuple(texts.values()),
        concept=as_text(data.get("concept")) or None,
    )


_REVISION = re.compile(
    schema.python_pattern(schema.load_schema(schema.SOURCES)["$defs"]["revision"]["pattern"])
)
"""A revision name the schema allows; others (reported) are left out: a page title, which an
engine's template may print unescaped (material's `page.title | striptags`)."""


def build_sources(doc: Document | None, out: list[Diagnostic], display: str) -> Sources:
    """The typed sources.yaml; an unreadable file gives an empty one (already reported)."""
    if doc is None:
        return Sources(display, [], {}, [], [])
    data = doc.data
    sources = {
        alias: _build_source(doc, alias, value, out)
        for alias, value in as_dict(data.get("sources")).items()
        if isinstance(value, dict)
    }
    links = list(_build_links(doc, out))
    revisions = revision_names(data.get("revisions"))
    pending = [p for p in as_list(data.get("pending")) if isinstance(p, str)]
    return Sources(doc.file, revisions, sources, links, pending, _meta(data))


def revision_names(value: Any) -> list[str]:
    """The revision names of a list the schema allows (`_REVISION`), in order."""
    return [name for name in as_list(value) if revision_name(name) is not None]


def revision_name(value: Any) -> str | None:
    return value if isinstance(value, str) and _REVISION.match(value) else None


def _build_source(doc: Document, alias: str, data: dict[str, Any], out: list[Diagnostic]) -> Source:
    coverage = as_dict(data.get("coverage"))
    return Source(
        alias=alias,
        title=as_text(data.get("title")) or alias,
        repo=as_opt_text(data.get("repo")),
        commit=as_text(data.get("commit")),
        path=as_opt_text(data.get("path")),
        claims=tuple(_claims(data.get("claims"))),
        where=doc.where(("sources", alias), at_key=True),
        meta=_meta(data),
        markdown=_globs(data.get("markdown")),
        statements=_globs(coverage.get("statements")),
        changelog=as_opt_text(coverage.get("changelog")),
        version=as_opt_text(data.get("version")),
        requirements=_requirement_files(as_dict(data.get("requirements"))),
        scope=_build_scope(doc, alias, coverage.get("scope"), out),
    )


def _claims(data: Any) -> Iterator[Claim]:
    for claim in as_list(data):
        if isinstance(claim, str):
            yield Claim(claim)
        elif isinstance(claim, dict) and isinstance(claim.get("glob"), str):
            yield Claim(claim["glob"], as_text(claim.get("under")))


def _requirement_files(data: dict[str, Any]) -> RequirementFiles | None:
    seps, sets = as_text(data.get("seps")), as_text(data.get("sets"))
    trace = as_opt_text(data.get("traceability")) or None
    return RequirementFiles(seps, trace, sets) if seps and sets else None


def _build_scope(doc: Document, alias: str, data: Any, out: list[Diagnostic]) -> Scope | None:
    """`coverage.scope`, with an error at each glob RE2 cannot run (it would match nothing)."""
    if not isinstance(data, dict):
        return None
    covers = _globs(data.get("covers"))
    for index, pattern in enumerate(as_list(data.get("covers"))):
        globs = pattern.split("#", 1) if isinstance(pattern, str) else []
        for reason in filter(None, map(glob_problem, globs)):
            message = f"scope glob '{pattern}' matches nothing: {reason}"
            where = doc.where(("sources", alias, "coverage", "scope", "covers", index))
            out.append(Diagnostic.at(where, id=alias, code="bad-glob", message=message))
    return Scope(covers, as_text(data.get("reason")))


def _globs(value: Any) -> tuple[str, ...]:
    return tuple(g for g in as_list(value) if isinstance(g, str) and g)


def _build_links(doc: Document, out: list[Diagnostic]) -> Iterator[LinkPattern]:
    for index, link in enumerate(as_list(doc.data.get("links"))):
        if not isinstance(link, dict) or not isinstance(link.get("pattern"), str):
            continue
        pattern = compile_pattern(link["pattern"])
        if isinstance(pattern, str):
            message = (
                f"link pattern '{link['pattern']}' is not a regular expression RE2 can run: "
                f"{pattern} (RE2 matches in linear time: it has no backreferences or lookaround)"
            )
            where = doc.where(("links", index, "pattern"))
            out.append(Diagnostic.at(where, id="sources", code="bad-pattern", message=message))
            continue
        yield LinkPattern(pattern, as_text(link.get("url")))

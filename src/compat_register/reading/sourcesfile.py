"""sources.yaml's loaded, schema-checked document -> the typed `Sources` (tolerant, as
`registerfile` is)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..model.claims import Claim
from ..model.diagnostic import Diagnostic
from ..model.patterns import compile_pattern
from ..model.registers import LinkPattern, Source, Sources
from . import schema
from .document import Document
from .tolerant import as_dict, as_list, as_opt_text, as_text

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
        alias: _build_source(doc, alias, value)
        for alias, value in as_dict(data.get("sources")).items()
        if isinstance(value, dict)
    }
    links = list(_build_links(doc, out))
    revisions = revision_names(data.get("revisions"))
    pending = [p for p in as_list(data.get("pending")) if isinstance(p, str)]
    return Sources(doc.file, revisions, sources, links, pending, as_dict(data.get("_meta")))


def revision_names(value: Any) -> list[str]:
    """The revision names of a list the schema allows (`_REVISION`), in order."""
    return [name for name in as_list(value) if revision_name(name) is not None]


def revision_name(value: Any) -> str | None:
    """`value` when it is a revision name the schema allows, else None."""
    return value if isinstance(value, str) and _REVISION.match(value) else None


def _build_source(doc: Document, alias: str, data: dict[str, Any]) -> Source:
    claims = []
    for claim in as_list(data.get("claims")):
        if isinstance(claim, str):
            claims.append(Claim(claim))
        elif isinstance(claim, dict) and isinstance(claim.get("glob"), str):
            claims.append(Claim(claim["glob"], as_text(claim.get("under"))))
    return Source(
        alias=alias,
        title=as_text(data.get("title")) or alias,
        repo=as_opt_text(data.get("repo")),
        commit=as_text(data.get("commit")),
        path=as_opt_text(data.get("path")),
        claims=tuple(claims),
        where=doc.where(("sources", alias), at_key=True),
        meta=as_dict(data.get("_meta")),
        markdown=_globs(data.get("markdown")),
        statements=_globs(as_dict(data.get("coverage")).get("statements")),
        changelog=as_opt_text(as_dict(data.get("coverage")).get("changelog")),
    )


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

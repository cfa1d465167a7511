"""registers/concepts.yaml -> `Concepts`, read like every file of the folder, each
statement as an entry's `sources:` item is, so a citation means one thing everywhere."""

from __future__ import annotations

from typing import Any

from ..model.concepts import LABEL, Concept, Concepts
from ..model.diagnostic import Diagnostic
from ..reading import schema
from ..reading.document import Document
from ..reading.folder import display_path, read_document
from ..reading.registerfile import listed_citation
from ..reading.tolerant import as_list, as_text
from ..storage.layout import Paths


def read_concepts(
    paths: Paths, documents: dict[str, Document], out: list[Diagnostic]
) -> Concepts | None:
    """The concepts of a registers folder; None without concepts.yaml, none when it does not
    load (`out` says why); an item without a string ID is left out (the schema says why)."""
    path = paths.concepts
    if not path.exists() and not path.is_symlink():
        return None
    doc = read_document(path, schema.CONCEPTS, documents, out, paths.inside)
    if doc is None:
        return Concepts(display_path(path))
    data = doc.data if isinstance(doc.data, dict) else {}
    items = enumerate(as_list(data.get("concepts")))
    concepts = tuple(c for n, item in items if (c := _concept(doc, n, item, out)) is not None)
    meta = data.get("_meta")
    return Concepts(doc.file, concepts, meta if isinstance(meta, dict) else {})


def _concept(doc: Document, index: int, data: Any, out: list[Diagnostic]) -> Concept | None:
    concept_id = data.get("id") if isinstance(data, dict) else None
    if not isinstance(concept_id, str) or not concept_id:
        return None
    base = ("concepts", index)
    statements = tuple(
        citation
        for number in range(len(as_list(data.get("statements"))))
        if (citation := listed_citation(doc, LABEL, (*base, "statements", number), concept_id, out))
    )
    parent = data.get("parent")
    return Concept(
        id=concept_id,
        title=as_text(data.get("title")) or concept_id,
        parent=parent if isinstance(parent, str) and parent else None,
        statements=statements,
        checks=tuple(check for check in as_list(data.get("checks")) if isinstance(check, str)),
        where=doc.where((*base, "id")),
        meta=data["_meta"] if isinstance(data.get("_meta"), dict) else {},
        parent_where=doc.where((*base, "parent")) if "parent" in data else None,
    )

"""registers/exclusions.yaml -> `Exclusions`, read like a register file, each `statement` read
as an entry's `sources:` item is: a citation means one thing wherever it is written."""

from __future__ import annotations

from typing import Any

from ..model.diagnostic import Diagnostic
from ..model.exclusions import LABEL, Exclusion, Exclusions
from ..model.registers import Citation
from ..storage.layout import Paths
from . import schema
from .document import Document
from .folder import display_path, read_document
from .registerfile import listed_citation


def read_exclusions(
    paths: Paths, documents: dict[str, Document], out: list[Diagnostic]
) -> Exclusions | None:
    """The exclusions of a registers folder; None when it has no exclusions.yaml (an
    empty `Exclusions` when the file does not load: `out` says why)."""
    path = paths.exclusions
    if not path.exists() and not path.is_symlink():
        return None
    doc = read_document(path, schema.EXCLUSIONS, documents, out, paths.inside)
    if doc is None:
        return Exclusions(display_path(path))
    return build_exclusions(doc, out)


def build_exclusions(doc: Document, out: list[Diagnostic]) -> Exclusions:
    """The typed exclusions of a loaded, schema-checked document (tolerant, as registers
    are: an item with a schema error is left out, the schema having said why)."""
    items = []
    for index, data in _items(doc):
        citation = listed_citation(doc, LABEL, ("exclusions", index, "statement"), LABEL, out)
        reason = data.get("reason")
        if citation is None or not isinstance(reason, str) or not reason:
            continue
        link = data.get("link") if isinstance(data.get("link"), str) else None
        items.append(Exclusion(citation, reason, link, doc.where(("exclusions", index))))
    meta = doc.data.get("_meta") if isinstance(doc.data, dict) else None
    return Exclusions(doc.file, items, meta if isinstance(meta, dict) else {})


def exclusion_citations(doc: Document) -> list[Citation]:
    """The citations of an exclusions document (what an edit's read-back compares)."""
    return build_exclusions(doc, []).citations()


def _items(doc: Document) -> list[tuple[int, dict[str, Any]]]:
    data = doc.data.get("exclusions") if isinstance(doc.data, dict) else None
    if not isinstance(data, list):
        return []
    return [(index, item) for index, item in enumerate(data) if isinstance(item, dict)]

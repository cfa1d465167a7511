"""A register file's text -> its summary as JSON data, what `diffing` compares (pure).
Prose is a digest with its citations blanked: a citation re-pointed is no prose edit.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import replace
from typing import Any

from ..model.registers import Citation, Entry
from ..model.vocabulary import RATED, counted
from ..reading import schema
from ..reading.document import Document, LoadError
from ..reading.loader import parse
from ..reading.registerfile import build_entry, build_register
from ..storage.layout import SOURCES_FILE, slug_of

Summary = dict[str, Any]
"""`{"header", "entries", "counts"}`, `{"pins"}` (sources.yaml) or `{"problem": {...}}`."""

HEADER_FIELDS = ("title", "prefix", "status", "subject", "tags")
"""Header fields compared as values (`created` and the like move with every edit)."""

EntryMemo = dict[tuple[int, str], tuple[str, dict[str, Any]] | None]
"""(column, text) of an entry as written -> its ID and summary (None: no ID), so an entry a
commit did not change is summarised once per run."""


def summarise(name: str, data: bytes, memo: EntryMemo | None = None) -> Summary:
    """The summary of the file `name` holding `data`; `memo` carries entry summaries from
    one file version to the next."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        return _problem(line, 1, "not-utf8", "not UTF-8: save the file as UTF-8")
    try:
        doc = parse(text, name, schema.integer_keys())
    except LoadError as err:
        return _problem(err.mark.line, err.mark.col, err.code, err.message)
    if not isinstance(doc.data, dict):
        return _problem(1, 1, "not-a-mapping", "the file does not hold a YAML mapping")
    if name == SOURCES_FILE:
        return {"pins": _pins(doc.data)}
    return _register_summary(doc, slug_of(name), {} if memo is None else memo)


def _problem(line: int, col: int, code: str, message: str) -> Summary:
    return {"problem": {"line": line, "col": col, "code": code, "message": message}}


def _pins(data: dict[str, Any]) -> dict[str, str]:
    sources = data.get("sources")
    if not isinstance(sources, dict):
        return {}
    return {
        alias: str(source.get("commit"))
        for alias, source in sources.items()
        if isinstance(source, dict) and source.get("commit") is not None
    }


def _register_summary(doc: Document, slug: str, memo: EntryMemo) -> Summary:
    head = {key: value for key, value in doc.data.items() if key != "entries"}
    register = build_register(replace(doc, data=head), slug, [])  # the header alone
    entries: dict[str, dict[str, Any]] = {}
    for index, key in enumerate(_entry_texts(doc)):
        if key not in memo:
            entry = build_entry(doc, slug, index, [])
            memo[key] = (entry.id, _entry_summary(entry)) if entry and entry.named else None
        if (found := memo[key]) is not None:
            entries[found[0]] = found[1]
    tally = Counter(summary["state"] for summary in entries.values())
    counts = {state: tally[state] for state in counted(tally)}
    header: dict[str, Any] = {name: getattr(register, name) for name in HEADER_FIELDS}
    header["description"] = digest(register.description, register.summary_citations)
    header["summary"] = digest(register.summary or "", register.summary_citations)
    return {"header": header, "entries": entries, "counts": counts}


def _entry_texts(doc: Document) -> list[tuple[int, str]]:
    """(column, text) of each item of `entries` as written, up to the next one's start (the
    same lines read differently from another column)."""
    entries = doc.data.get("entries")
    count = len(entries) if isinstance(entries, list) else 0
    marks = [doc.mark(("entries", index)) for index in range(count)]
    starts = [mark.offset if mark else 0 for mark in marks] + [len(doc.text)]
    return [
        (mark.col if mark else 0, doc.text[starts[i] : starts[i + 1]])
        for i, mark in enumerate(marks)
    ]


def _entry_summary(entry: Entry) -> dict[str, Any]:
    return {
        "title": entry.title,
        **{key: getattr(entry, field).key for field, key in RATED.items()},
        "revisions": dict(sorted(entry.revisions.as_data().items())),
        "tags": list(entry.tags),
        "prose": _prose(entry),
        "citations": [_citation(c) for c in entry.all_citations()],
    }


def _prose(entry: Entry) -> dict[str, str]:
    """Each prose field's digest, named as `register diff` reports it (`status.note`; the
    notes as one)."""
    found = {}
    for path, text in entry.prose().items():
        if text and path[0] != "notes":
            cited = [c for c in entry.prose_citations if c.field[2:] == path]
            found[".".join(map(str, path))] = digest(text, cited)
    notes = [f"{note.title}\n{note.text}" for note in entry.notes]
    if notes:
        cited = [c for c in entry.prose_citations if c.field[2:3] == ("notes",)]
        found["notes"] = digest("\n\n".join(notes), cited)
    return found


def digest(text: str, cited: list[Citation]) -> str:
    """A short digest of prose with its in-prose citation tokens blanked."""
    for citation in cited:
        text = text.replace(citation.token, "\0")
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def _citation(citation: Citation) -> list[Any]:
    """[slot, text, alias, path, start, end, quote]: the slot is the field holding it."""
    c = citation
    return [".".join(map(str, c.field[2:])), c.text, c.alias, c.path, c.start, c.end, c.quote]

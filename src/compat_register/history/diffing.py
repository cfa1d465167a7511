"""A register file's text -> its summary, and two sets of summaries (`{file name: summary}`)
-> what changed (pure). Prose is a digest with its citations blanked: a citation re-pointed is
no prose edit. A citation removed and one added in one entry are a *move* when they agree on
alias, quote and file, or alias, quote and field.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
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
EntryMemo = dict[tuple[int, str], tuple[str, dict[str, Any]] | None]
"""(column, text) of an entry as written -> its ID and summary (None: no ID), so an entry a
commit did not change is summarised once per run."""
Field = tuple[Any, Any] | None
"""(old, new) of a compared value, or None: the prose changed (its text is not compared)."""

HEADER_VALUES = {name: name for name in ("title", "prefix", "status", "subject", "tags")}
"""Header fields compared as values (`created` and the like move with every edit)."""
ENTRY_VALUES = {
    "title": "title",
    **{f"{field}.{key}": key for field, key in RATED.items()},
    "revisions": "revisions",
    "tags": "tags",
}
"""An entry's values compared, by the name `register diff` reports them under."""


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
    if name != SOURCES_FILE:
        return _register_summary(doc, slug_of(name), {} if memo is None else memo)
    sources = doc.data.get("sources")
    pins = {
        alias: str(source.get("commit"))
        for alias, source in (sources.items() if isinstance(sources, dict) else ())
        if isinstance(source, dict) and source.get("commit") is not None
    }
    return {"pins": pins}


def _problem(line: int, col: int, code: str, message: str) -> Summary:
    return {"problem": {"line": line, "col": col, "code": code, "message": message}}


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
    header: dict[str, Any] = {name: getattr(register, name) for name in HEADER_VALUES}
    header["description"] = digest(register.description, register.summary_citations)
    header["summary"] = digest(register.summary or "", register.summary_citations)
    counts = {state: tally[state] for state in counted(tally)}
    return {"header": header, "entries": entries, "counts": counts}


def _entry_texts(doc: Document) -> list[tuple[int, str]]:
    """(column, text) of each item of `entries` as written, up to the next one's start (the
    same lines read differently from another column)."""
    entries = doc.data.get("entries")
    count = len(entries) if isinstance(entries, list) else 0
    marks = [doc.mark(("entries", index)) for index in range(count)]
    starts = [mark.offset for mark in marks] + [len(doc.text)]
    return [(mark.col, doc.text[starts[i] : starts[i + 1]]) for i, mark in enumerate(marks)]


def _entry_summary(entry: Entry) -> dict[str, Any]:
    return {
        "title": entry.title,
        **{key: getattr(entry, field).key for field, key in RATED.items()},
        "revisions": dict(sorted(entry.revisions.as_data().items())),
        "tags": list(entry.tags),
        "prose": _prose_digests(entry),
        "citations": [
            [".".join(map(str, c.field[2:])), c.text, c.alias, c.path, c.start, c.end, c.quote]
            for c in entry.all_citations()
        ],
    }


def _prose_digests(entry: Entry) -> dict[str, str]:
    """Each prose field's digest, named as `register diff` reports it (`status.note`; the
    notes as one)."""
    found = {}
    for path, text in entry.prose().items():
        if text and path[0] != "notes":
            cited = [c for c in entry.prose_citations if c.field[2:] == path]
            found[".".join(map(str, path))] = digest(text, cited)
    if notes := [f"{note.title}\n{note.text}" for note in entry.notes]:
        cited = [c for c in entry.prose_citations if c.field[2:3] == ("notes",)]
        found["notes"] = digest("\n\n".join(notes), cited)
    return found


def digest(text: str, cited: list[Citation]) -> str:
    """A short digest of prose with its in-prose citation tokens blanked."""
    for citation in cited:
        text = text.replace(citation.token, "\0")
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


@dataclass
class Unreadable:
    """A file that does not load at one side ("from" or "to") of a diff: where and why."""

    side: str
    line: int
    col: int
    code: str
    message: str


@dataclass
class RegisterChange:
    register: str
    change: str
    """added, removed, changed (header fields) or unreadable."""
    fields: dict[str, Field] = field(default_factory=dict)
    problems: list[Unreadable] = field(default_factory=list)


@dataclass
class EntryChange:
    register: str
    id: str
    change: str
    title: str
    fields: dict[str, Field] = field(default_factory=dict)
    added: list[str] = field(default_factory=list)
    """Citations as written; `moved` holds (as it was written, as it is written)."""
    removed: list[str] = field(default_factory=list)
    moved: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class SourceChange:
    alias: str
    change: str
    """added, removed or moved (its pin)."""
    old: str | None
    new: str | None


@dataclass
class Diff:
    registers: list[RegisterChange] = field(default_factory=list)
    entries: list[EntryChange] = field(default_factory=list)
    sources: list[SourceChange] = field(default_factory=list)
    source_problems: list[Unreadable] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.registers or self.entries or self.sources or self.source_problems)


def diff_sets(old: Mapping[str, Summary], new: Mapping[str, Summary]) -> Diff:
    """What changed from the set `old` to the set `new` (file name -> summary)."""
    diff = Diff()
    for name in sorted(set(old) | set(new)):
        before, after = old.get(name), new.get(name)
        if before != after and name == SOURCES_FILE:
            _diff_sources(diff, before or {"pins": {}}, after or {"pins": {}})
        elif before != after:
            _diff_register(diff, slug_of(name), before, after)
    return diff


def _diff_sources(diff: Diff, old: Summary, new: Summary) -> None:
    diff.source_problems.extend(_problems(old, new))
    if "problem" in old or "problem" in new:
        return
    before, after = old["pins"], new["pins"]
    for alias in sorted(set(before) | set(after)):
        was, now = before.get(alias), after.get(alias)
        if was != now:
            change = "added" if was is None else "removed" if now is None else "moved"
            diff.sources.append(SourceChange(alias, change, was, now))


def _problems(old: Summary | None, new: Summary | None) -> list[Unreadable]:
    sides = (("from", old), ("to", new))
    return [Unreadable(side, **s["problem"]) for side, s in sides if s and "problem" in s]


def _diff_register(diff: Diff, slug: str, old: Summary | None, new: Summary | None) -> None:
    if problems := _problems(old, new):
        diff.registers.append(RegisterChange(slug, "unreadable", problems=problems))
        return
    if old is None or new is None:
        diff.registers.append(RegisterChange(slug, "added" if old is None else "removed"))
    elif fields := _header_changes(old["header"], new["header"]):
        diff.registers.append(RegisterChange(slug, "changed", fields))
    before, after = (old or {}).get("entries", {}), (new or {}).get("entries", {})
    for entry_id in {**before, **after}:  # in the old file's order, then the new ones
        was, now = before.get(entry_id), after.get(entry_id)
        if was != now and (change := _diff_entry(slug, entry_id, was, now)):
            diff.entries.append(change)  # most entries of a changed file are equal: done in C


def _header_changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Field]:
    return _values(old, new, HEADER_VALUES) | _prose(old, new, ("description", "summary"))


def _diff_entry(
    slug: str, entry_id: str, old: dict[str, Any] | None, new: dict[str, Any] | None
) -> EntryChange | None:
    if old is None or new is None:  # its citations come or go with it: not listed
        title = (new or old or {})["title"]
        return EntryChange(slug, entry_id, "added" if old is None else "removed", title)
    prose = sorted({*old["prose"], *new["prose"]})
    fields = _values(old, new, ENTRY_VALUES) | _prose(old["prose"], new["prose"], prose)
    added, removed, moved = match_citations(old["citations"], new["citations"])
    if not (fields or added or removed or moved):
        return None
    return EntryChange(slug, entry_id, "changed", new["title"], fields, added, removed, moved)


def _values(old: dict[str, Any], new: dict[str, Any], names: Mapping[str, str]) -> dict[str, Field]:
    return {n: (old.get(k), new.get(k)) for n, k in names.items() if old.get(k) != new.get(k)}


def _prose(old: dict[str, Any], new: dict[str, Any], names: Iterable[str]) -> dict[str, Field]:
    return {name: None for name in names if old.get(name) != new.get(name)}


Cited = list[Any]
"""A citation of a summary: [slot, text, alias, path, start, end, quote]."""


def match_citations(
    old: list[Cited], new: list[Cited]
) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """(added, removed, moved) between two lists of citations, each in file order."""
    _, gone, came = _pair(old, new, _identity)  # those it still holds are no change
    moved: list[tuple[str, str]] = []
    for key in (_same_file, _same_field):  # a move within a file first, then from its field
        pairs, gone, came = _pair(gone, came, key)
        moved.extend((a[1], b[1]) for a, b in pairs)
    return [c[1] for c in came], [c[1] for c in gone], moved


def _identity(cited: Cited) -> tuple[Any, ...]:
    """Listed or in prose, and what it cites (not its field: a citation moved down the list
    is unchanged)."""
    return (cited[0].startswith("sources"), *cited[2:])


def _same_file(cited: Cited) -> tuple[Any, ...]:
    return (cited[0].startswith("sources"), cited[2], cited[6], cited[3])


def _same_field(cited: Cited) -> tuple[Any, ...]:
    return (cited[0], cited[2], cited[6])


def _pair(
    gone: list[Cited], came: list[Cited], key: Callable[[Cited], tuple[Any, ...]]
) -> tuple[list[tuple[Cited, Cited]], list[Cited], list[Cited]]:
    """Pair the k-th gone and k-th come citation of each key, in file order."""
    waiting: dict[tuple[Any, ...], deque[int]] = defaultdict(deque)
    for index, cited in enumerate(came):
        waiting[key(cited)].append(index)
    pairs, paired, left = [], set(), []
    for cited in gone:
        if queue := waiting.get(key(cited)):
            paired.add(queue[0])
            pairs.append((cited, came[queue.popleft()]))
        else:
            left.append(cited)
    return pairs, left, [c for i, c in enumerate(came) if i not in paired]


def diff_data(diff: Diff) -> dict[str, Any]:
    """The diff as JSON data: `register diff --format json`'s registers, entries, sources."""
    return {
        "registers": [_register_data(r) for r in diff.registers],
        "entries": [_entry_data(e) for e in diff.entries],
        "sources": [
            {"alias": s.alias, "change": s.change, "from": s.old, "to": s.new} for s in diff.sources
        ],
        "source_problems": [asdict(p) for p in diff.source_problems],
    }


def _register_data(change: RegisterChange) -> dict[str, Any]:
    found: dict[str, Any] = {"register": change.register, "change": change.change}
    if change.fields:
        found["fields"] = _fields_data(change.fields)
    if change.problems:
        found["problems"] = [asdict(p) for p in change.problems]
    return found


def _entry_data(change: EntryChange) -> dict[str, Any]:
    moved = [{"from": a, "to": b} for a, b in change.moved]
    return {
        "register": change.register,
        "id": change.id,
        "change": change.change,
        "title": change.title,
        "fields": _fields_data(change.fields),
        "citations": {"added": [*change.added], "removed": [*change.removed], "moved": moved},
    }


def diff_from_data(data: dict[str, Any]) -> Diff:
    """The `Diff` of `diff_data` (how the history cache stores it)."""
    registers = [
        RegisterChange(
            r["register"],
            r["change"],
            _fields_from(r.get("fields", {})),
            [Unreadable(**p) for p in r.get("problems", [])],
        )
        for r in data["registers"]
    ]
    sources = [SourceChange(s["alias"], s["change"], s["from"], s["to"]) for s in data["sources"]]
    problems = [Unreadable(**p) for p in data.get("source_problems", [])]
    return Diff(registers, [_entry_from(e) for e in data["entries"]], sources, problems)


def _entry_from(data: dict[str, Any]) -> EntryChange:
    cited, fields = data["citations"], _fields_from(data["fields"])
    moved = [(m["from"], m["to"]) for m in cited["moved"]]
    added, removed = [*cited["added"]], [*cited["removed"]]
    return EntryChange(
        data["register"], data["id"], data["change"], data["title"], fields, added, removed, moved
    )


def _fields_data(fields: dict[str, Field]) -> dict[str, Any]:
    return {k: "changed" if v is None else {"from": v[0], "to": v[1]} for k, v in fields.items()}


def _fields_from(data: dict[str, Any]) -> dict[str, Field]:
    return {k: None if v == "changed" else (v["from"], v["to"]) for k, v in data.items()}

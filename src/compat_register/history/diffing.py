"""Two register sets' summaries (`{file name: summary}`) -> what changed (pure). A citation
removed and one added in one entry are a *move* when they agree on alias, quote and file,
or alias, quote and field.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from ..model.diagnostic import Diagnostic
from ..model.positions import Where
from ..model.vocabulary import RATED
from ..storage.layout import SOURCES_FILE, slug_of
from .snapshot import HEADER_FIELDS, Summary

Field = tuple[Any, Any] | None
"""(old, new) of a compared value, or None: the prose changed (its text is not compared)."""

ENTRY_VALUES = {
    "title": "title",
    **{f"{field}.{key}": key for field, key in RATED.items()},
    "revisions": "revisions",
    "tags": "tags",
}
"""An entry's values compared, by the name `register diff` reports them under."""


@dataclass
class Unreadable:
    """A file that does not load at one side ("from" or "to") of a diff: where and why."""

    side: str
    line: int
    col: int
    code: str
    message: str

    def located(self, file: str, at: str) -> Diagnostic:
        """The problem as a diagnostic in `file`, naming `at`, the revision it was read at."""
        where, message = Where(file, self.line, self.col), f"{self.message} (at {at})"
        return Diagnostic.at(where, id=slug_of(file), code=self.code, message=message)


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
        if before == after:
            continue
        if name == SOURCES_FILE:
            _diff_sources(diff, before or {"pins": {}}, after or {"pins": {}})
        else:
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
    found = []
    for side, summary in (("from", old), ("to", new)):
        if summary is not None and "problem" in summary:
            found.append(Unreadable(side, **summary["problem"]))
    return found


def _diff_register(diff: Diff, slug: str, old: Summary | None, new: Summary | None) -> None:
    problems = _problems(old, new)
    if problems:
        diff.registers.append(RegisterChange(slug, "unreadable", problems=problems))
        return
    if old is None or new is None:
        diff.registers.append(RegisterChange(slug, "added" if old is None else "removed"))
    else:
        fields = _fields(old["header"], new["header"], {n: n for n in HEADER_FIELDS})
        fields.update(_prose(old["header"], new["header"], ("description", "summary")))
        if fields:
            diff.registers.append(RegisterChange(slug, "changed", fields))
    before = old["entries"] if old else {}
    after = new["entries"] if new else {}
    for entry_id in [*before, *(i for i in after if i not in before)]:
        old_entry, new_entry = before.get(entry_id), after.get(entry_id)
        if old_entry == new_entry:
            continue  # most entries of a changed file: one comparison, done in C
        change = _diff_entry(slug, entry_id, old_entry, new_entry)
        if change is not None:
            diff.entries.append(change)


def _diff_entry(
    slug: str, entry_id: str, old: dict[str, Any] | None, new: dict[str, Any] | None
) -> EntryChange | None:
    if old is None or new is None:  # its citations come or go with it: not listed
        title = (new or old or {})["title"]
        return EntryChange(slug, entry_id, "added" if old is None else "removed", title)
    fields = _fields(old, new, ENTRY_VALUES)
    fields.update(_prose(old["prose"], new["prose"], sorted({*old["prose"], *new["prose"]})))
    added, removed, moved = match_citations(old["citations"], new["citations"])
    if not (fields or added or removed or moved):
        return None
    return EntryChange(slug, entry_id, "changed", new["title"], fields, added, removed, moved)


def _fields(old: dict[str, Any], new: dict[str, Any], names: Mapping[str, str]) -> dict[str, Field]:
    return {
        shown: (old.get(key), new.get(key))
        for shown, key in names.items()
        if old.get(key) != new.get(key)
    }


def _prose(old: dict[str, Any], new: dict[str, Any], names: Iterable[str]) -> dict[str, Field]:
    return {name: None for name in names if old.get(name) != new.get(name)}


Cited = list[Any]
"""A citation of a summary: [slot, text, alias, path, start, end, quote]."""


def match_citations(
    old: list[Cited], new: list[Cited]
) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """(added, removed, moved) between two lists of citations, each in file order."""
    gone, came = _unmatched(old, new), _unmatched(new, old)
    moved: list[tuple[str, str]] = []
    # A move within a file first, then one to another file from the same field.
    for key in (_same_file, _same_field):
        pairs, gone, came = _pair(gone, came, key)
        moved.extend((a[1], b[1]) for a, b in pairs)
    return [c[1] for c in came], [c[1] for c in gone], moved


def _identity(cited: Cited) -> tuple[Any, ...]:
    """Listed or in prose, and what it cites (not its field: a citation moved down the list
    is unchanged)."""
    return (cited[0].startswith("sources"), *cited[2:])


def _unmatched(mine: list[Cited], theirs: list[Cited]) -> list[Cited]:
    """The citations of `mine` that `theirs` does not hold (as many times)."""
    left = Counter(map(_identity, theirs))
    found = []
    for cited in mine:
        key = _identity(cited)
        if left[key]:
            left[key] -= 1
        else:
            found.append(cited)
    return found


def _same_file(cited: Cited) -> tuple[Any, ...]:
    return (cited[0].startswith("sources"), cited[2], cited[6], cited[3])


def _same_field(cited: Cited) -> tuple[Any, ...]:
    return (cited[0], cited[2], cited[6])


def _pair(
    gone: list[Cited], came: list[Cited], key: Callable[[Cited], tuple[Any, ...]]
) -> tuple[list[tuple[Cited, Cited]], list[Cited], list[Cited]]:
    """Pair the k-th gone and k-th come citation of each key, in file order."""
    waiting: dict[tuple[Any, ...], list[int]] = defaultdict(list)
    for index, cited in enumerate(came):
        waiting[key(cited)].append(index)
    pairs, paired, left = [], set(), []
    for cited in gone:
        queue = waiting.get(key(cited))
        if queue:
            index = queue.pop(0)
            paired.add(index)
            pairs.append((cited, came[index]))
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


def diff_from_data(data: dict[str, Any]) -> Diff:
    """The `Diff` of `diff_data` (how the history cache stores it)."""
    return Diff(
        [
            RegisterChange(
                r["register"],
                r["change"],
                _fields_from(r.get("fields", {})),
                [Unreadable(**p) for p in r.get("problems", [])],
            )
            for r in data["registers"]
        ],
        [
            EntryChange(
                e["register"],
                e["id"],
                e["change"],
                e["title"],
                _fields_from(e["fields"]),
                list(e["citations"]["added"]),
                list(e["citations"]["removed"]),
                [(m["from"], m["to"]) for m in e["citations"]["moved"]],
            )
            for e in data["entries"]
        ],
        [SourceChange(s["alias"], s["change"], s["from"], s["to"]) for s in data["sources"]],
        [Unreadable(**p) for p in data.get("source_problems", [])],
    )


def _register_data(change: RegisterChange) -> dict[str, Any]:
    found: dict[str, Any] = {"register": change.register, "change": change.change}
    if change.fields:
        found["fields"] = _fields_data(change.fields)
    if change.problems:
        found["problems"] = [asdict(p) for p in change.problems]
    return found


def _entry_data(change: EntryChange) -> dict[str, Any]:
    return {
        "register": change.register,
        "id": change.id,
        "change": change.change,
        "title": change.title,
        "fields": _fields_data(change.fields),
        "citations": {
            "added": list(change.added),
            "removed": list(change.removed),
            "moved": [{"from": a, "to": b} for a, b in change.moved],
        },
    }


def _fields_data(fields: dict[str, Field]) -> dict[str, Any]:
    return {
        name: "changed" if value is None else {"from": value[0], "to": value[1]}
        for name, value in fields.items()
    }


def _fields_from(data: dict[str, Any]) -> dict[str, Field]:
    return {
        name: None if value == "changed" else (value["from"], value["to"])
        for name, value in data.items()
    }

"""A read page's bullets turned into a register's fields, in the schema's order (pure).

A state is taken only from what the page says (`vocabulary.STATE_WORDS`, or `— done` after
the effort size); an entry without one is listed in `Imported.unstated`, for the file to
say so and `register check` to report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..citations.syntax import CitationSyntaxError, parse_compact
from ..model.vocabulary import LEVELS, PAGE_STATES, RATED, REGISTER_STATUSES, SIZES, RatedField
from ..reading.schema import REGISTER, load_schema
from .page import Bullet, Page, PageEntry, PageError, Spot

LABELS = ("What", "Where", "Risk", "Detail", "Sources", "Effort", "Tags", "Revisions")
"""Bullet labels with a field of their own, besides `Value to X` and the subject's."""


def _either(words: tuple[str, ...]) -> str:
    """A pattern matching any one of `words`."""
    return "|".join(re.escape(word) for word in words)


_STATE = re.compile(rf"(?P<word>{_either(tuple(PAGE_STATES))})\.(?:[ \t\n]+|\Z)")
_VALUE = re.compile(
    rf"(?:\+[ \t]*)?(?P<level>{_either(LEVELS)})(?:\.?|:[ \t]+(?P<note>.+))\Z", re.S
)
_EFFORT = re.compile(rf"(?P<size>{_either(SIZES)})(?P<rest>(?:[ \t\n].*)?\.?)\Z", re.S)
_DASH = re.compile(r"[ \t]+(?:—|–|--)[ \t]+")
_DONE = re.compile(r"done\b", re.I)
_SUBJECT = re.compile(r"`?(?P<alias>[^\s@`]+)[ \t]+@[ \t]+(?P<commit>[0-9A-Fa-f]{7,40})`?")
_VALUE_LABEL = re.compile(r"Value to (?P<who>\S.*)")
_REVISION = re.compile(
    r"(?P<kind>added|changed|removed)[ \t]+(?P<names>[^\s,]+(?:,[ \t]+[^\s,]+)*)"
)
_INCREMENT = re.compile(r"[1-9][0-9]*")


@dataclass
class Imported:
    """A page read as register data."""

    data: dict[str, Any]
    """The register, keys in the schema's order."""
    unstated: dict[str, str] = field(default_factory=dict)
    """Entry ID -> its subject bullet as written, for each entry whose state the page does
    not give."""
    cues: dict[str, str] = field(default_factory=dict)
    """Entry ID -> the words of the page its state was read from."""
    errors: list[PageError] = field(default_factory=list)


def register_data(page: Page) -> Imported:
    """The register a page holds; problems collected in `Imported.errors`."""
    imported = Imported({})
    header = _header(page, imported.errors)
    prefix = page.entries[0].id.rsplit("-", 1)[0]
    entries = [_entry(page, entry, prefix, imported) for entry in page.entries]
    _unique_ids(page.entries, imported.errors)
    imported.data = _ordered(
        {
            "title": page.title,
            "prefix": prefix,
            **header,
            "subject": page.subject,
            "summary": page.summary,
            "entries": entries,
        },
        "register",
    )
    return imported


def _ordered(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """`data` without empty values, keys in the order the schema lists them."""
    schema = load_schema(REGISTER)
    keys = schema["properties"] if kind == "register" else schema["$defs"][kind]["properties"]
    return {key: data[key] for key in keys if data.get(key) not in (None, [], {})}


FILE_KEY = "file"


def _header(page: Page, errors: list[PageError]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, (value, at) in page.header.items():
        if key == FILE_KEY:  # names the file the page goes to (`plan`), not a field
            continue
        try:
            found[key] = _header_value(key, value)
        except ValueError as err:
            errors.append(PageError.at(at, str(err)))
    return found


def _header_value(key: str, value: str) -> Any:
    if key == "increment":
        if not _INCREMENT.fullmatch(value):
            raise ValueError(f"increment '{value}' is not a whole number from 1")
        return int(value)
    if key == "status" and value not in REGISTER_STATUSES:
        raise ValueError(f"status '{value}' is not one of {', '.join(REGISTER_STATUSES)}")
    if key in ("created", "last-updated"):
        pattern = load_schema(REGISTER)["$defs"]["timestamp"]["pattern"]
        if not re.fullmatch(pattern, value):
            raise ValueError(f"{key} '{value}' is not an ISO 8601 date or date-time")
    if key == "tags":
        return _tags(value)
    return value


def _tags(value: str) -> list[str]:
    tags = [t.strip("`") for t in re.split(r"[,\s]+", value.rstrip(".")) if t.strip("`")]
    if len(set(tags)) != len(tags):
        raise ValueError(f"a tag is given twice in '{value}'")
    return tags


def _unique_ids(entries: list[PageEntry], errors: list[PageError]) -> None:
    seen: set[str] = set()
    for entry in entries:
        if entry.id in seen:
            message = f"{entry.id} is given twice on this page"
            errors.append(PageError.at(entry.at, message, entry.id))
        seen.add(entry.id)


def _entry(page: Page, entry: PageEntry, prefix: str, imported: Imported) -> dict[str, Any]:
    errors = imported.errors
    if not entry.id.startswith(prefix + "-"):
        message = f"{entry.id} does not have the page's prefix {prefix} (from its first entry)"
        errors.append(PageError.at(entry.at, message, entry.id))
    data: dict[str, Any] = {"id": entry.id, "title": entry.title}
    notes: list[dict[str, str]] = []
    for bullet in entry.bullets:
        try:
            _take(page, entry, bullet, data, notes, imported)
        except PageError as err:
            errors.append(err)
            data.setdefault(_key_of(bullet.label), None)  # said once: not also "no bullet"
    data["notes"] = notes
    for key, label in _REQUIRED.items():
        if key not in data:
            wanted = label.format(alias=page.subject, commit=page.commit)
            message = f"{entry.id} has no '{wanted}' bullet"
            errors.append(PageError.at(entry.at, message, entry.id))
    _state_from_effort(entry, data, imported)
    return _ordered(data, "entry")


_REQUIRED = {
    "what": "What.",
    "status": "{alias} @ {commit}.",
    "value": "Value to {alias}.",
    "effort": "Effort.",
    "risk": "Risk.",
    "sources": "Sources.",
}


def _take(
    page: Page,
    entry: PageEntry,
    bullet: Bullet,
    data: dict[str, Any],
    notes: list[dict[str, str]],
    imported: Imported,
) -> None:
    """Put one bullet where it belongs in the entry's fields."""
    key, value = _field(page, entry, bullet, imported)
    if key == "notes":
        notes.append(value)
        return
    if data.get(key) is not None:
        raise PageError.at(bullet.at, f"a second '{bullet.label}.' bullet", entry.id)
    data[key] = value


def _key_of(label: str) -> str:
    """The field a bullet's label names (`notes` for any other label)."""
    if label in LABELS:
        return label.lower()
    if _VALUE_LABEL.fullmatch(label):
        return "value"
    return "status" if _SUBJECT.fullmatch(label) else "notes"


def _field(page: Page, entry: PageEntry, bullet: Bullet, imported: Imported) -> tuple[str, Any]:
    key, text = _key_of(bullet.label), bullet.text
    if key in _READERS:
        return key, _READERS[key](bullet, entry.id)
    if key == "status":
        subject = _SUBJECT.fullmatch(bullet.label)
        assert subject is not None
        return key, _status(page, entry, bullet, subject, imported)
    if key == "notes":
        return key, {"title": bullet.label, "text": text}
    return key, text


def _sources(bullet: Bullet, entry_id: str) -> list[str]:
    return list(_citations(bullet, entry_id))


def _value(bullet: Bullet, entry_id: str) -> dict[str, str]:
    match = _VALUE.fullmatch(bullet.text)
    if match is None:
        message = f"expected '+ LEVEL.' or '+ LEVEL: note', LEVEL one of {', '.join(LEVELS)}"
        raise PageError.at(bullet.text_at, message, entry_id)
    return _rated("value", match["level"], match["note"])


def _effort(bullet: Bullet, entry_id: str) -> dict[str, str]:
    match = _EFFORT.fullmatch(bullet.text)
    if match is None:
        message = f"expected 'SIZE.' or 'SIZE — note', SIZE one of {', '.join(SIZES)}"
        raise PageError.at(bullet.text_at, message, entry_id)
    rest = match["rest"]
    dash = _DASH.match(rest)
    note = rest[dash.end() :] if dash else rest.strip()
    return _rated("effort", match["size"], None if note in ("", ".") and not dash else note)


def _rated(field: RatedField, word: str, note: str | None) -> dict[str, str]:
    key = RATED[field]
    return {key: word, "note": note} if note else {key: word}


def _status(
    page: Page, entry: PageEntry, bullet: Bullet, subject: re.Match[str], imported: Imported
) -> dict[str, str]:
    if (subject["alias"], subject["commit"]) != (page.subject, page.commit):
        message = (
            f"the subject bullet names {subject['alias']} @ {subject['commit']}, the status "
            f"column {page.subject} @ {page.commit}"
        )
        raise PageError.at(bullet.at, message, entry.id)
    word = _STATE.match(bullet.text)
    if word is None:
        imported.unstated[entry.id] = f"{bullet.label}. {bullet.text}"
        return {"note": bullet.text}
    imported.cues[entry.id] = f"{word['word']}."
    note = bullet.text[word.end() :]
    return _rated("status", PAGE_STATES[word["word"]], note or None)


def _state_from_effort(entry: PageEntry, data: dict[str, Any], imported: Imported) -> None:
    """`Effort. S — done.` says the state when the subject bullet does not."""
    effort = next((b for b in entry.bullets if b.label == "Effort"), None)
    status = data.get("status")
    state = RATED["status"]
    if effort is None or status is None or state in status or entry.id not in imported.unstated:
        return
    size = _EFFORT.fullmatch(effort.text)
    dash = _DASH.match(size["rest"]) if size else None
    if size and dash and _DONE.match(size["rest"][dash.end() :]):
        data["status"] = {state: "done", **status}
        imported.cues[entry.id] = f"Effort. {effort.text}"
        del imported.unstated[entry.id]


def _bullet_tags(bullet: Bullet, entry_id: str) -> list[str]:
    try:
        return _tags(bullet.text)
    except ValueError as err:
        raise PageError.at(bullet.text_at, str(err), entry_id) from None


def _revisions(bullet: Bullet, entry_id: str) -> dict[str, Any]:
    """`added R1; changed R2, R3; removed R4.` -> {added: R1, changed: [R2, R3], removed: R4}."""
    found: dict[str, Any] = {}
    for part in re.split(r";[ \t]+", bullet.text.removesuffix(".")):
        match = _REVISION.fullmatch(part.strip())
        several = match is not None and match["kind"] != "changed" and "," in match["names"]
        if match is None or several or match["kind"] in found:
            message = (
                "expected 'added REVISION', 'changed REVISION, ...' and/or 'removed REVISION', "
                "separated by '; '"
            )
            raise PageError.at(bullet.text_at, message, entry_id)
        names = re.split(r",[ \t]+", match["names"])
        found[match["kind"]] = names if match["kind"] == "changed" else names[0]
    return found


_READERS: dict[str, Callable[[Bullet, str], Any]] = {
    "sources": _sources,
    "effort": _effort,
    "tags": _bullet_tags,
    "revisions": _revisions,
    "value": _value,
}
"""The fields read from a bullet's text alone."""


def _citations(bullet: Bullet, entry_id: str) -> Iterator[str]:
    """Each citation of a `Sources.` bullet: split at `; ` outside quotes and code spans,
    the closing full stop dropped, a code span around a citation taken off."""
    text = bullet.text
    end = len(text) - 1 if text.endswith(".") else len(text)
    for start, stop in split_items(text, end):
        item = unwrap_code(text[start:stop].strip())
        try:
            parse_compact(item)
        except CitationSyntaxError as err:
            at = offset_spot(bullet.text_at, text, start)
            raise PageError.at(at, str(err), entry_id) from None
        yield item


def split_items(text: str, end: int) -> Iterator[tuple[int, int]]:
    """(start, stop) of each `; `-separated item of `text[:end]`, outside quotes and code."""
    start, index, depth, straight, fence = 0, 0, 0, False, ""
    while index < end:
        char = text[index]
        if char == "`":
            run = re.match(r"`+", text[index:])
            assert run is not None
            fence = "" if run.group() == fence else (fence or run.group())
            index += len(run.group())
            continue
        if fence:
            pass
        elif straight:
            straight = char != '"'
        elif char == '"' and not depth:
            straight = True
        elif char in "“”":
            depth = depth + 1 if char == "“" else max(depth - 1, 0)
        elif char == ";" and text[index + 1 : index + 2] in (" ", "\n") and not depth:
            yield start, index
            start = index + 1
        index += 1
    yield start, end


def unwrap_code(item: str) -> str:
    """A citation written as a code span, without its backticks (and one padding space)."""
    run = re.match(r"`+", item)
    if run is None or not item.endswith(run.group()) or len(item) < 2 * len(run.group()):
        return item
    inner = item[len(run.group()) : -len(run.group())]
    if len(inner) > 2 and inner.startswith(" ") and inner.endswith(" "):
        inner = inner[1:-1]
    return inner


def offset_spot(start: Spot, text: str, offset: int) -> Spot:
    """Where character `offset` of a bullet's text is in the page."""
    before = text[:offset]
    newlines = before.count("\n")
    if newlines == 0:
        return Spot(start.line, start.col + offset)
    return Spot(start.line + newlines, offset - before.rfind("\n"))

"""A read page's bullets turned into a register's fields, in the schema's order (pure).

A state is taken only from the page's words; an entry without one is `Imported.unstated`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..citations.syntax import CitationSyntaxError, parse_compact
from ..model.vocabulary import LEVELS, PAGE_STATES, RATED, REGISTER_STATUSES, SIZES, RatedField
from ..reading.schema import REGISTER, load_schema
from .page import Bullet, Page, PageEntry, PageError, Spot

LABELS = ("What", "Where", "Risk", "Detail", "Sources", "Effort", "Tags", "Revisions")
"""Bullet labels with a field of their own, besides `Value to X` and the subject's."""


def _either(words: tuple[str, ...]) -> str:
    return "|".join(re.escape(word) for word in words)


_STATE = re.compile(rf"(?P<word>{_either(tuple(PAGE_STATES))})\.(?:[ \t\n]+|\Z)")
_VALUE = re.compile(
    rf"(?:\+[ \t]*)?(?P<level>{_either(LEVELS)})(?:\.?|:[ \t]+(?P<note>.+))\Z", re.S
)
_EFFORT = re.compile(rf"(?P<size>{_either(SIZES)})(?P<rest>(?:[ \t\n].*)?\.?)\Z", re.S)
_DASH = re.compile(r"[ \t]+(?:—|–|--)[ \t]+")
_DONE = re.compile(rf"(?:{_either(SIZES)}){_DASH.pattern}(?i:done)\b")
_SUBJECT = re.compile(r"`?(?P<alias>[^\s@`]+)[ \t]+@[ \t]+(?P<commit>[0-9A-Fa-f]{7,40})`?")
_VALUE_LABEL = re.compile(r"Value to (?P<who>\S.*)")
_REVISION = re.compile(
    r"(?P<kind>added|changed|removed)[ \t]+(?P<names>[^\s,]+(?:,[ \t]+[^\s,]+)*)"
)
_INCREMENT = re.compile(r"[1-9][0-9]*")
FILE_KEY = "file"
"""The header line naming the file the page goes to (`plan`), not a field."""


@dataclass
class Imported:
    """A page read as register data."""

    data: dict[str, Any]
    """The register, keys in the schema's order."""
    unstated: dict[str, str] = field(default_factory=dict)
    """Entry ID -> its subject bullet as written, for each entry the page gives no state."""
    cues: dict[str, str] = field(default_factory=dict)
    """Entry ID -> the words of the page its state was read from."""
    errors: list[PageError] = field(default_factory=list)


def register_data(page: Page) -> Imported:
    """The register a page holds; problems collected in `Imported.errors`."""
    imported = Imported({})
    header = {}
    for key, (value, at) in page.header.items():
        try:
            if key != FILE_KEY:
                header[key] = _header_value(key, value)
        except ValueError as err:
            imported.errors.append(PageError(at, str(err)))
    prefix = page.entries[0].id.rsplit("-", 1)[0]
    entries = [_entry(page, entry, prefix, imported) for entry in page.entries]
    seen: set[str] = set()
    for entry in page.entries:
        if entry.id in seen:
            imported.errors.append(
                PageError(entry.at, f"{entry.id} is given twice on this page", entry.id)
            )
        seen.add(entry.id)
    register = {"title": page.title, "prefix": prefix, **header, "subject": page.subject}
    register |= {"summary": page.summary, "entries": entries}
    imported.data = _ordered(register, "register")
    return imported


def _ordered(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """`data` without empty values, keys in the order the schema lists them."""
    schema = load_schema(REGISTER)
    keys = schema["properties"] if kind == "register" else schema["$defs"][kind]["properties"]
    return {key: data[key] for key in keys if data.get(key) not in (None, [], {})}


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
    return _tags(value) if key == "tags" else value


def _tags(value: str) -> list[str]:
    tags = [t.strip("`") for t in re.split(r"[,\s]+", value.rstrip(".")) if t.strip("`")]
    if len(set(tags)) != len(tags):
        raise ValueError(f"a tag is given twice in '{value}'")
    return tags


_REQUIRED = {
    "what": "What.",
    "status": "{alias} @ {commit}.",
    "value": "Value to {alias}.",
    "effort": "Effort.",
    "risk": "Risk.",
    "sources": "Sources.",
}


def _entry(page: Page, entry: PageEntry, prefix: str, imported: Imported) -> dict[str, Any]:
    errors = imported.errors
    if not entry.id.startswith(prefix + "-"):
        message = f"{entry.id} does not have the page's prefix {prefix} (from its first entry)"
        errors.append(PageError(entry.at, message, entry.id))
    data: dict[str, Any] = {"id": entry.id, "title": entry.title, "notes": []}
    for bullet in entry.bullets:
        key = _key_of(bullet.label)
        try:
            value = _field(page, entry, bullet, key, imported)
        except PageError as err:
            errors.append(err)
            data.setdefault(key, None)  # said once: not also "no bullet"
            continue
        if key == "notes":
            data["notes"].append(value)
        elif data.get(key) is not None:
            message = f"a second '{bullet.label}.' bullet"
            errors.append(PageError(bullet.at, message, entry.id))
        else:
            data[key] = value
    for key, label in _REQUIRED.items():
        if key not in data:
            wanted = label.format(alias=page.subject, commit=page.commit)
            errors.append(PageError(entry.at, f"{entry.id} has no '{wanted}' bullet", entry.id))
    _state_from_effort(entry, data, imported)
    return _ordered(data, "entry")


def _key_of(label: str) -> str:
    """The field a bullet's label names (`notes` for any other label)."""
    if label in LABELS:
        return label.lower()
    if _VALUE_LABEL.fullmatch(label):
        return "value"
    return "status" if _SUBJECT.fullmatch(label) else "notes"


def _field(page: Page, entry: PageEntry, bullet: Bullet, key: str, imported: Imported) -> Any:
    """A bullet's value; a ValueError of its reader is located at the bullet's text."""
    if key == "status":
        return _status(page, entry, bullet, imported)
    if key == "sources":
        return _citations(bullet, entry.id)
    if key == "notes":
        return {"title": bullet.label, "text": bullet.text}
    reader = {"effort": _effort, "tags": _tags, "revisions": _revisions, "value": _value}.get(key)
    try:
        return reader(bullet.text) if reader else bullet.text
    except ValueError as err:
        raise PageError(bullet.text_at, str(err), entry.id) from None


def _value(text: str) -> dict[str, str]:
    match = _VALUE.fullmatch(text)
    if match is None:
        raise ValueError(
            f"expected '+ LEVEL.' or '+ LEVEL: note', LEVEL one of {', '.join(LEVELS)}"
        )
    return _rated("value", match["level"], match["note"])


def _effort(text: str) -> dict[str, str]:
    match = _EFFORT.fullmatch(text)
    if match is None:
        raise ValueError(f"expected 'SIZE.' or 'SIZE — note', SIZE one of {', '.join(SIZES)}")
    rest = match["rest"]
    dash = _DASH.match(rest)
    note = rest[dash.end() :] if dash else rest.strip()
    return _rated("effort", match["size"], None if note in ("", ".") and not dash else note)


def _rated(field: RatedField, word: str, note: str | None) -> dict[str, str]:
    key = RATED[field]
    return {key: word, "note": note} if note else {key: word}


def _status(page: Page, entry: PageEntry, bullet: Bullet, imported: Imported) -> dict[str, str]:
    subject = _SUBJECT.fullmatch(bullet.label)
    assert subject is not None
    if (subject["alias"], subject["commit"]) != (page.subject, page.commit):
        message = (
            f"the subject bullet names {subject['alias']} @ {subject['commit']}, the status "
            f"column {page.subject} @ {page.commit}"
        )
        raise PageError(bullet.at, message, entry.id)
    word = _STATE.match(bullet.text)
    if word is None:
        imported.unstated[entry.id] = f"{bullet.label}. {bullet.text}"
        return {"note": bullet.text}
    imported.cues[entry.id] = f"{word['word']}."
    return _rated("status", PAGE_STATES[word["word"]], bullet.text[word.end() :] or None)


def _state_from_effort(entry: PageEntry, data: dict[str, Any], imported: Imported) -> None:
    """`Effort. S — done.` says the state when the subject bullet does not."""
    effort = next((b for b in entry.bullets if b.label == "Effort"), None)
    status, state = data.get("status"), RATED["status"]
    if effort is None or status is None or state in status or entry.id not in imported.unstated:
        return
    if _DONE.match(effort.text):
        data["status"] = {state: "done", **status}
        imported.cues[entry.id] = f"Effort. {effort.text}"
        del imported.unstated[entry.id]


def _revisions(text: str) -> dict[str, Any]:
    """`added R1; changed R2, R3; removed R4.` -> {added: R1, changed: [R2, R3], removed: R4}."""
    found: dict[str, Any] = {}
    for part in re.split(r";[ \t]+", text.removesuffix(".")):
        match = _REVISION.fullmatch(part.strip())
        several = match is not None and match["kind"] != "changed" and "," in match["names"]
        if match is None or several or match["kind"] in found:
            raise ValueError(
                "expected 'added REVISION', 'changed REVISION, ...' and/or 'removed REVISION', "
                "separated by '; '"
            )
        names = re.split(r",[ \t]+", match["names"])
        found[match["kind"]] = names if match["kind"] == "changed" else names[0]
    return found


def _citations(bullet: Bullet, entry_id: str) -> list[str]:
    """Each citation of a `Sources.` bullet, a code span around it taken off."""
    text, found = bullet.text, []
    for start, stop in split_items(text, len(text) - 1 if text.endswith(".") else len(text)):
        item = unwrap_code(text[start:stop].strip())
        try:
            parse_compact(item)
        except CitationSyntaxError as err:
            at = offset_spot(bullet.text_at, text, start)
            raise PageError(at, str(err), entry_id) from None
        found.append(item)
    return found


def split_items(text: str, end: int) -> Iterator[tuple[int, int]]:
    """(start, stop) of each `; `-separated item of `text[:end]`, outside quotes and code."""
    start, depth, straight, fence = 0, 0, False, ""
    for token in _ITEM_MARKS.finditer(text, 0, end):
        mark = token.group()
        if mark[0] == "`":
            fence = "" if mark == fence else (fence or mark)
        elif fence:
            pass
        elif straight:
            straight = mark != '"'
        elif mark == '"' and not depth:
            straight = True
        elif mark in "“”":
            depth = depth + 1 if mark == "“" else max(depth - 1, 0)
        elif mark == ";" and not depth:
            yield start, token.start()
            start = token.end()
    yield start, end


_ITEM_MARKS = re.compile(r'`+|["“”]|;(?=[ \n])')


def unwrap_code(item: str) -> str:
    """A code span's text, without its backticks (and one padding space)."""
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

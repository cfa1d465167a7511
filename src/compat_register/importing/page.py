"""A hand-written register page read into header, summary and entries of bullets (pure).

Plain text (`•` bullets, `What.` labels) and Markdown (`## META-01 Title`, `-` bullets,
`**What.**`) read alike. Hand-written: errors need a line and column, which no Markdown
parser gives, and the plain shape is no Markdown at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ..storage.errors import RegisterError

HEADER_KEYS = ("created", "last-updated", "increment", "status", "tags", "description", "file")
"""The header lines a page may hold; `file` names the register file it imports into."""
REQUIRED_HEADER = ("created", "last-updated", "increment", "status", "description")

_HEADING = re.compile(r"\A#{1,6}[ \t]+")
_HEADER_LINE = re.compile(r"(?:[-*•][ \t]+)?(?P<key>[a-z][a-z-]*):(?P<gap>[ \t]+)(?P<value>\S.*)")
_STATUS_LINE = re.compile(
    r"Status column:[ \t]+`?(?P<alias>[^\s@`]+)[ \t]+@[ \t]+(?P<commit>[0-9A-Fa-f]{7,40})`?\."
    r"(?:[ \t]+(?P<rest>.*))?"
)
_ENTRY = re.compile(r"(?:#{1,6}[ \t]+)?(?P<id>[A-Z][A-Z0-9]*-[0-9]+)[ \t]+(?P<title>\S.*)")
_BULLET = re.compile(r"(?P<marker>[ ]{0,3}(?P<dot>[•*-])[ \t]+)(?P<content>.*)")
_LABEL = re.compile(r"(?:\*\*(?P<bold>.+?\.)\*\*|(?P<plain>[^\s*].*?\.))(?:[ \t]+|\Z)")
OUTSIDE_BULLET = "text outside a bullet: each line of an entry is a bullet or continues one"


class PageError(RegisterError):
    """A page that cannot be read, `at` a place in the page (1-based)."""

    def __init__(self, at: Spot, message: str, id: str = "") -> None:
        super().__init__(message)
        self.at, self.message, self.id = at, message, id


class Spot(NamedTuple):
    line: int
    col: int


@dataclass
class Bullet:
    """One bullet: its label (without the full stop), its text, where each starts."""

    label: str
    text: str
    at: Spot
    text_at: Spot


@dataclass
class PageEntry:
    id: str
    title: str
    at: Spot
    bullets: list[Bullet] = field(default_factory=list)


@dataclass
class Page:
    title: str
    header: dict[str, tuple[str, Spot]]
    """Each header key's value and where the value starts."""
    summary: str | None
    subject: str
    commit: str
    status_at: Spot
    """Where the `Status column:` line's alias starts."""
    entries: list[PageEntry]


def parse_page(text: str) -> Page:
    """Read a page; raises PageError at the first place it does not have the page's shape."""
    reader = _Lines([line.rstrip() for line in text.replace("\r\n", "\n").split("\n")])
    title = _title(reader)
    header = _header(reader)
    summary, status = _summary(reader)
    status_at = Spot(reader.index, status.start("alias") + 1)  # the line just read
    _legend(reader, status)
    entries = _entries(reader)
    return Page(title, header, summary, status["alias"], status["commit"], status_at, entries)


@dataclass
class _Lines:
    """The page's lines with a cursor (`index`, 0-based)."""

    lines: list[str]
    index: int = 0

    def done(self) -> bool:
        return self.index >= len(self.lines)

    def current(self) -> str:
        return self.lines[self.index]

    def skip_blank(self) -> None:
        self.index = self.filled(self.index)

    def filled(self, index: int) -> int:
        """The first line at or after `index` that is not blank (the count when none is)."""
        while index < len(self.lines) and not self.lines[index].strip():
            index += 1
        return index

    def error(self, message: str, id: str = "") -> PageError:
        return PageError(Spot(self.index + 1, 1), message, id)

    def end(self) -> Spot:
        """Where the page ends, for `... missing` messages."""
        return Spot(len(self.lines), len(self.lines[-1]) + 1)  # split: one line at least


def _title(reader: _Lines) -> str:
    reader.skip_blank()
    if reader.done():
        raise PageError(Spot(1, 1), "empty page: expected a title line")
    line = reader.current()
    if _HEADER_LINE.fullmatch(line) or _ENTRY.fullmatch(line):
        raise reader.error("expected the register's title as the first line")
    reader.index += 1
    return _HEADING.sub("", line, count=1).strip()


def _header(reader: _Lines) -> dict[str, tuple[str, Spot]]:
    """The `key: value` lines after the title, up to the first blank line."""
    title_line = reader.index
    reader.skip_blank()
    header: dict[str, tuple[str, Spot]] = {}
    while not reader.done() and reader.current().strip():
        line = reader.current()
        reader.index += 1
        if line.startswith(" ") and header:  # a value's later line, indented
            key = next(reversed(header))
            header[key] = (f"{header[key][0]}\n{line.strip()}", header[key][1])
            continue
        match = _HEADER_LINE.fullmatch(line)
        if match is None or match["key"] not in HEADER_KEYS:
            what = f"unknown header key '{match['key']}'" if match else "not a header line"
            message = f"{what}: expected 'KEY: VALUE' with KEY one of {', '.join(HEADER_KEYS)}"
            raise PageError(Spot(reader.index, 1), message)
        key, at = match["key"], Spot(reader.index, match.start("value") + 1)
        if key in header:
            raise PageError(Spot(reader.index, 1), f"header key '{key}' given twice")
        header[key] = (match["value"].strip(), at)
    for key in REQUIRED_HEADER:
        if key not in header:
            raise PageError(Spot(title_line, 1), f"no '{key}:' line in the header under the title")
    return header


def _summary(reader: _Lines) -> tuple[str | None, re.Match[str]]:
    """The paragraphs up to the `Status column:` line (entries never come before it, so a
    line there that reads like an entry's heading is summary), and that line's match."""
    start, lines = reader.index, reader.lines
    status = next(
        (i for i in range(start, len(lines)) if lines[i].startswith("Status column:")), None
    )
    if status is None:
        entry = next((i for i in range(start, len(lines)) if _starts_entry(reader, i)), None)
        at = reader.end() if entry is None else Spot(entry + 1, 1)
        raise PageError(at, "no 'Status column: ALIAS @ COMMIT.' line before the entries")
    reader.index = status
    match = _STATUS_LINE.fullmatch(lines[status])
    if match is None:
        raise reader.error("expected 'Status column: ALIAS @ COMMIT.' (COMMIT: 7 to 40 hex digits)")
    reader.index += 1
    return "\n".join(lines[start:status]).strip("\n") or None, match


def _starts_entry(reader: _Lines, index: int) -> bool:
    """Whether line `index` heads an entry: `PREFIX-NN Title` with a bullet under it."""
    if not _ENTRY.fullmatch(reader.lines[index]):
        return False
    after = reader.filled(index + 1)
    return after < len(reader.lines) and _BULLET.fullmatch(reader.lines[after]) is not None


def _legend(reader: _Lines, status: re.Match[str]) -> None:
    """Skip the legend pointer: the rest of the status line, or a line of its own."""
    reader.skip_blank()
    if not reader.done() and reader.current().startswith("Legend"):
        if status["rest"]:
            raise reader.error("a second legend line")
        reader.index += 1


def _entries(reader: _Lines) -> list[PageEntry]:
    entries: list[PageEntry] = []
    reader.skip_blank()
    while not reader.done():
        match = _ENTRY.fullmatch(reader.current())
        if match is None:  # only ever the first line: an entry's bullets end at the next
            raise reader.error("expected an entry heading 'PREFIX-NN Title'")
        at = Spot(reader.index + 1, match.start("id") + 1)
        entry = PageEntry(match["id"], match["title"].strip(), at)
        reader.index += 1
        reader.skip_blank()
        while not reader.done() and not _ENTRY.fullmatch(reader.current()):  # its bullets
            bullet = _BULLET.fullmatch(reader.current())
            if bullet is None:
                raise reader.error(OUTSIDE_BULLET, entry.id)
            entry.bullets.append(_bullet(reader, bullet, entry.id))
            reader.skip_blank()
        if not entry.bullets:
            raise PageError(entry.at, f"entry {entry.id} holds no bullets", entry.id)
        entries.append(entry)
    if not entries:
        message = "no entries: expected 'PREFIX-NN Title' blocks after the status line"
        raise PageError(reader.end(), message)
    return entries


def _bullet(reader: _Lines, match: re.Match[str], entry_id: str) -> Bullet:
    number, indent, content = reader.index + 1, len(match["marker"]), match["content"]
    label = _LABEL.match(content)
    if label is None:
        message = "a bullet starts with a label ending in a full stop ('What.')"
        raise PageError(Spot(number, indent + 1), message, entry_id)
    reader.index += 1
    text = "\n".join([content[label.end() :], *_continuation(reader, indent)]).strip("\n")
    text_at = Spot(number, indent + label.end() + 1)
    name = label["bold"] or label["plain"]
    if not text.strip():
        raise PageError(text_at, f"'{name}' has no text after its label", entry_id)
    return Bullet(name[:-1], text, Spot(number, match.start("dot") + 1), text_at)


def _continuation(reader: _Lines, indent: int) -> list[str]:
    """The lines that continue a bullet: indented ones (after blank lines too) and, right
    after it, unindented ones that start no bullet or entry; dedented by up to `indent`."""
    taken: list[str] = []
    while not reader.done():
        line = reader.current()
        if not line.strip():
            after = reader.filled(reader.index + 1)
            if after >= len(reader.lines) or not reader.lines[after].startswith(" "):
                break
            taken.extend([""] * (after - reader.index))
            reader.index = after
            continue
        width = len(line) - len(line.lstrip(" "))
        if _BULLET.fullmatch(line) and width < indent or _ENTRY.fullmatch(line):
            break
        taken.append(line[min(indent, width) :])
        reader.index += 1
    return taken

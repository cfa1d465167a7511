"""A hand-written register page read into its parts: header, summary, entries of bullets.

Pure: text in, a `Page` or a located `PageError` out. Both shapes of the seed page read
alike: plain text (`•` bullets, `What.` labels, `META-01 Title` lines) and Markdown
(`## META-01 Title`, `-`/`*` bullets, `**What.**`, citations in code spans).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..storage.errors import RegisterError

HEADER_KEYS = ("created", "last-updated", "increment", "status", "tags", "description", "file")
"""The header lines a page may hold, in the order a page writes them. `file` is not a
field: it names the register file (`core.yaml`) the page imports into, as `register render
--plain` writes it, so that a page keeps its register's name through a round trip."""

REQUIRED_HEADER = ("created", "last-updated", "increment", "status", "description")

_HEADING = re.compile(r"#{1,6}[ \t]+")
_HEADER_LINE = re.compile(r"(?:[-*•][ \t]+)?(?P<key>[a-z][a-z-]*):(?P<gap>[ \t]+)(?P<value>\S.*)")
_STATUS_LINE = re.compile(
    r"Status column:[ \t]+`?(?P<alias>[^\s@`]+)[ \t]+@[ \t]+(?P<commit>[0-9A-Fa-f]{7,40})`?\."
    r"(?:[ \t]+(?P<rest>.*))?"
)
_ENTRY = re.compile(r"(?:#{1,6}[ \t]+)?(?P<id>[A-Z][A-Z0-9]*-[0-9]+)[ \t]+(?P<title>\S.*)")
_BULLET = re.compile(r"(?P<marker>[ ]{0,3}[•*-][ \t]+)(?P<content>.*)")
_BOLD_LABEL = re.compile(r"\*\*(?P<label>.+?\.)\*\*(?:[ \t]+|\Z)")
_PLAIN_LABEL = re.compile(r"(?P<label>[^\s*].*?\.)(?:[ \t]+|\Z)")
OUTSIDE_BULLET = "text outside a bullet: each line of an entry is a bullet or continues one"


class PageError(RegisterError):
    """A page that cannot be read; `line` and `col` are 1-based, in the page."""

    def __init__(self, line: int, col: int, message: str, id: str = "") -> None:
        super().__init__(message)
        self.line, self.col, self.message, self.id = line, col, message, id

    @classmethod
    def at(cls, spot: Spot, message: str, id: str = "") -> PageError:
        return cls(spot.line, spot.col, message, id)


@dataclass(frozen=True)
class Spot:
    """A place in the page."""

    line: int
    col: int


@dataclass
class Bullet:
    """One bullet of an entry: its label (without the full stop) and its text."""

    label: str
    text: str
    at: Spot
    """Where the bullet's marker is."""
    text_at: Spot
    """Where its text starts (after the label)."""


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
    legend: str | None
    entries: list[PageEntry]


def parse_page(text: str) -> Page:
    """Read a page; raises PageError at the first place it does not have the page's shape."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    reader = _Lines(lines)
    title = _title(reader)
    header = _header(reader)
    summary, status = _summary(reader)
    legend = _legend(reader, status)
    entries = _entries(reader)
    status_at = Spot(reader.status_line, status.start("alias") + 1)
    subject, commit = status["alias"], status["commit"]
    return Page(title, header, summary, subject, commit, status_at, legend, entries)


class _Lines:
    """The page's lines with a cursor; numbers are 1-based."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.index = 0
        self.status_line = 0

    @property
    def number(self) -> int:
        return self.index + 1

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
        """A problem at the start of the current line."""
        return PageError(self.number, 1, message, id)

    def end(self) -> Spot:
        """Where the page ends (the last line's end), for `... missing` messages."""
        last = len(self.lines)
        return Spot(last, len(self.lines[-1]) + 1 if self.lines else 1)


def _title(reader: _Lines) -> str:
    reader.skip_blank()
    if reader.done():
        raise PageError(1, 1, "empty page: expected a title line")
    line = reader.current()
    heading = _HEADING.match(line)
    title = line[heading.end() :] if heading else line.strip()
    if _HEADER_LINE.fullmatch(line) or _ENTRY.fullmatch(line):
        raise reader.error("expected the register's title as the first line")
    reader.index += 1
    return title.strip()


def _header(reader: _Lines) -> dict[str, tuple[str, Spot]]:
    """The `key: value` lines after the title, up to the first blank line."""
    title_line = reader.number - 1
    reader.skip_blank()
    header: dict[str, tuple[str, Spot]] = {}
    while not reader.done() and reader.current().strip():
        line = reader.current()
        if line.startswith(" ") and header:  # a value's later line, indented
            key = next(reversed(header))
            value, at = header[key]
            header[key] = (f"{value}\n{line.strip()}", at)
            reader.index += 1
            continue
        match = _HEADER_LINE.fullmatch(line)
        if match is None or match["key"] not in HEADER_KEYS:
            known = ", ".join(HEADER_KEYS)
            what = f"unknown header key '{match['key']}'" if match else "not a header line"
            raise reader.error(f"{what}: expected 'KEY: VALUE' with KEY one of {known}")
        if match["key"] in header:
            raise reader.error(f"header key '{match['key']}' given twice")
        at = Spot(reader.number, match.start("value") + 1)
        header[match["key"]] = (match["value"].strip(), at)
        reader.index += 1
    for key in REQUIRED_HEADER:
        if key not in header:
            raise PageError(title_line, 1, f"no '{key}:' line in the header under the title")
    return header


def _summary(reader: _Lines) -> tuple[str | None, re.Match[str]]:
    """The paragraphs up to the `Status column:` line, and that line's match."""
    start = reader.index
    while not reader.done():
        line = reader.current()
        if line.startswith("Status column:"):
            match = _STATUS_LINE.fullmatch(line)
            if match is None:
                message = "expected 'Status column: ALIAS @ COMMIT.' (COMMIT: 7 to 40 hex digits)"
                raise reader.error(message)
            reader.status_line = reader.number
            text = "\n".join(reader.lines[start : reader.index]).strip("\n")
            reader.index += 1
            return (text or None), match
        if _starts_entry(reader) and not _status_below(reader):
            break
        reader.index += 1
    at = Spot(reader.number, 1) if not reader.done() else reader.end()
    raise PageError.at(at, "no 'Status column: ALIAS @ COMMIT.' line before the entries")


def _status_below(reader: _Lines) -> bool:
    """Whether a `Status column:` line follows: entries never come before it, so a summary
    line that reads like an entry's heading (`META-03 a: b` over a `- ` line) is summary."""
    return any(line.startswith("Status column:") for line in reader.lines[reader.index + 1 :])


def _starts_entry(reader: _Lines) -> bool:
    """Whether the current line heads an entry: `PREFIX-NN Title` with a bullet under it."""
    if not _ENTRY.fullmatch(reader.current()):
        return False
    after = reader.filled(reader.index + 1)
    return after < len(reader.lines) and _BULLET.fullmatch(reader.lines[after]) is not None


def _legend(reader: _Lines, status: re.Match[str]) -> str | None:
    """The legend pointer: the rest of the status line, or a line of its own after it."""
    legend = status["rest"]
    reader.skip_blank()
    if not reader.done() and reader.current().startswith("Legend"):
        if legend:
            raise reader.error("a second legend line")
        legend = reader.current()
        reader.index += 1
    return legend


def _entries(reader: _Lines) -> list[PageEntry]:
    entries: list[PageEntry] = []
    reader.skip_blank()
    while not reader.done():
        line = reader.current()
        match = _ENTRY.fullmatch(line)
        if match is None:
            message = "expected an entry heading 'PREFIX-NN Title'"
            if entries and _BULLET.fullmatch(line) is None:
                message = OUTSIDE_BULLET
            raise reader.error(message, entries[-1].id if entries else "")
        at = Spot(reader.number, match.start("id") + 1)
        entry = PageEntry(match["id"], match["title"].strip(), at)
        reader.index += 1
        entry.bullets = _bullets(reader, entry.id)
        if not entry.bullets:
            raise PageError.at(at, f"entry {entry.id} holds no bullets", entry.id)
        entries.append(entry)
        reader.skip_blank()
    if not entries:
        at = reader.end()
        message = "no entries: expected 'PREFIX-NN Title' blocks after the status line"
        raise PageError.at(at, message)
    return entries


def _bullets(reader: _Lines, entry_id: str) -> list[Bullet]:
    bullets: list[Bullet] = []
    reader.skip_blank()
    while not reader.done():
        line = reader.current()
        if _ENTRY.fullmatch(line) and not _BULLET.fullmatch(line):
            break
        match = _BULLET.fullmatch(line)
        if match is None:
            raise reader.error(OUTSIDE_BULLET, entry_id)
        bullets.append(_bullet(reader, match, entry_id))
        reader.skip_blank()
    return bullets


def _bullet(reader: _Lines, match: re.Match[str], entry_id: str) -> Bullet:
    number, indent = reader.number, len(match["marker"])
    content = match["content"]
    label = _BOLD_LABEL.match(content) or _PLAIN_LABEL.match(content)
    if label is None:
        message = "a bullet starts with a label ending in a full stop ('What.')"
        raise PageError(number, indent + 1, message, entry_id)
    reader.index += 1
    text = "\n".join([content[label.end() :], *_continuation(reader, indent)]).strip("\n")
    text_at = Spot(number, indent + label.end() + 1)
    if not text.strip():
        message = f"'{label['label']}' has no text after its label"
        raise PageError(number, text_at.col, message, entry_id)
    marker_col = len(match["marker"]) - len(match["marker"].lstrip(" ")) + 1
    return Bullet(label["label"][:-1], text, Spot(number, marker_col), text_at)


def _continuation(reader: _Lines, indent: int) -> list[str]:
    """The lines that continue a bullet: indented ones (after blank lines too) and, right
    after it, unindented ones that start no bullet or entry. Dedented by the bullet's
    content column, so that the text keeps its own indentation."""
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
        if not line.startswith(" ") and (_BULLET.fullmatch(line) or _ENTRY.fullmatch(line)):
            break
        if line.startswith(" ") and _BULLET.fullmatch(line) and _indent(line) < indent:
            break
        width = min(indent, len(line) - len(line.lstrip(" ")))
        taken.append(line[width:])
        reader.index += 1
    return taken


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())

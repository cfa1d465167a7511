"""Load stage: YAML text -> plain data, with the line and column of every key and value.

PyYAML's own constructors are not used: they accept duplicate keys, resolve aliases,
and turn `2026-07-28`, `0512345` and `1_000` into dates and numbers. We walk the parser's
events instead, which gives one place to reject what registers must not contain and to
keep every scalar as the text its author wrote.
"""

from __future__ import annotations

import bisect
import errno
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from ..model.diagnostic import Diagnostic
from ..model.notation import MAX_DIGITS
from ..model.positions import Path_
from ..storage import regular
from . import quotes

try:  # the C parser is an order of magnitude faster; fall back where libyaml is absent
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_FILE_BYTES = 4 * 1024 * 1024
"""Larger files are refused: a register is hand-written, and a runaway generated file
would otherwise cost seconds on every `mkdocs serve` reload."""

MAX_DEPTH = 50
"""Deeper nesting is refused: a register needs six levels, and thousands of `[` would
exhaust Python's recursion limit here and in the schema validator."""


MAX_META_DIGITS = 18
"""Most digits in a number under `_meta`, which any JSON reader holds as a 64-bit integer."""

"""Where a value sits in a document: keys and list indexes from the top."""

_NULLS = {"", "~", "null", "Null", "NULL"}
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)\Z")
_STR_TAG = "tag:yaml.org,2002:str"
_ODD_BREAKS = {
    "\x85": "next line character U+0085",
    "\u2028": "line separator U+2028",
    "\u2029": "paragraph separator U+2029",
}
"""Characters libyaml (YAML 1.1) reads as line breaks and YAML 1.2 tools as text."""
_ODD_BREAK = re.compile("[\x85\u2028\u2029]")
_SCALAR, _SEQUENCE_START = yaml.ScalarEvent, yaml.SequenceStartEvent
_SEQUENCE_END, _MAPPING_END = yaml.SequenceEndEvent, yaml.MappingEndEvent
_new_mark = tuple.__new__
"""`Mark(...)` without the Python-level `__new__` of a named tuple: one per value read."""


class Mark(NamedTuple):
    """A 1-based position in a file, with the character offset for editors of the text.

    A named tuple, not a dataclass: the loader makes one per value, tens of thousands per run.
    """

    line: int
    col: int
    offset: int = 0


@dataclass
class Document:
    """One loaded YAML file: its data and where each part of it was written."""

    file: str
    text: str
    data: Any
    values: dict[Path_, Mark] = field(default_factory=dict)
    """Start of every value (mapping, sequence or scalar) by path."""
    keys: dict[Path_, Mark] = field(default_factory=dict)
    """Start of the key that introduced each mapping value."""
    ends: dict[Path_, int] = field(default_factory=dict)
    """Character offset just past each scalar value, for byte-preserving edits."""
    styles: dict[Path_, str] = field(default_factory=dict)
    """Quoting style of each scalar: '' plain, "'", '"', '|' or '>'."""
    _starts: list[int] = field(default_factory=list, repr=False)

    def mark(self, path: Path_) -> Mark:
        """The position of `path`, or of its nearest written ancestor."""
        while path and path not in self.values:
            path = path[:-1]
        return self.values.get(path, Mark(1, 1))

    def key_mark(self, path: Path_) -> Mark:
        """The position of the key introducing `path` (for unknown-field messages)."""
        return self.keys.get(path) or self.mark(path)

    def raw(self, path: Path_) -> tuple[int, int]:
        """The character span of the scalar at `path` as written, quotes included."""
        start = self.values[path].offset
        return start, self.ends.get(path, start)

    def find(self, path: Path_, token: str, occurrence: int = 0) -> int | None:
        """Character offset of the `occurrence`-th `token` inside the scalar at `path`.

        Tokens without spaces (IDs, `path:line`) appear verbatim in the written scalar
        whatever its quoting or folding, which lets edits and messages find them.
        """
        if path not in self.values:
            return None
        start, end = self.raw(path)
        offset = start - 1
        for _ in range(occurrence + 1):
            offset = self.text.find(token, offset + 1, end)
            if offset < 0:
                return None
        return offset

    def position(self, index: int) -> Mark:
        """The line and column of a character offset: the one way lines are counted here.

        Only `\\n` ends a line (`\\r\\n` too, as its `\\r` is the end of the line before), as
        editors, `grep -n` and GitHub count; libyaml also counts a lone `\\r`, U+0085, U+2028
        and U+2029, so its own line numbers are used only for a file without them.
        """
        starts = self._line_starts()
        line = bisect.bisect_right(starts, index)
        return Mark(line, index - starts[line - 1] + 1, index)

    def token_mark(self, path: Path_, token: str, occurrence: int = 0) -> Mark:
        """Where a token inside a scalar was written, else where the scalar starts."""
        index = self.find(path, token, occurrence)
        return self.mark(path) if index is None else self.position(index)

    def _line_starts(self) -> list[int]:
        if not self._starts:
            self._starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        return self._starts


class LoadError(Exception):
    """A file that cannot be read as a register document, with where it went wrong."""

    def __init__(self, mark: Mark, code: str, message: str):
        super().__init__(message)
        self.mark, self.code, self.message = mark, code, message


def load_file(path: Path, display: str, integer_keys: frozenset[str]) -> Document | Diagnostic:
    """Read and parse one file; a problem comes back as a `Diagnostic`, never raised."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            mb = size / 1024 / 1024
            raise LoadError(Mark(1, 1), "file-too-large", _too_large(mb))
        text = _decode(_read(path))
        return parse(text, display, integer_keys)
    except LoadError as err:
        stem = Path(display).stem
        return Diagnostic(
            file=display,
            line=err.mark.line,
            col=err.mark.col,
            severity="error",
            id=stem,
            code=err.code,
            message=err.message,
        )
    except OSError as err:
        stem = Path(display).stem
        reason = err.strerror or str(err)
        return Diagnostic(
            file=display,
            line=1,
            col=1,
            severity="error",
            id=stem,
            code="unreadable",
            message=f"cannot read file: {reason}",
        )


def _read(path: Path) -> bytes:
    """The file's bytes: a regular file's only, at most the limit (it may grow after the
    size was asked); a device, FIFO or socket is refused without being read."""
    try:
        return regular.read_bytes(path, MAX_FILE_BYTES)
    except regular.Refused as err:
        code = "file-too-large" if err.errno == errno.EFBIG else "not-a-file"
        raise LoadError(Mark(1, 1), code, err.strerror or str(err)) from None


def _too_large(mb: float) -> str:
    limit = MAX_FILE_BYTES // 1024 // 1024
    return f"file is {mb:.1f} MB, over the {limit} MB limit for one register file: split it"


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        data: bytes = err.object  # after a byte order mark, offsets count from its end
        line = data.count(b"\n", 0, err.start) + 1
        before = data[data.rfind(b"\n", 0, err.start) + 1 : err.start]
        col = len(before.decode("utf-8")) + 1  # in characters, as editors count
        byte = data[err.start : err.start + 1].hex()
        message = f"not UTF-8: byte 0x{byte} cannot be decoded; save the file as UTF-8"
        raise LoadError(Mark(line, col, err.start), "not-utf8", message) from None


def parse(text: str, display: str, integer_keys: frozenset[str]) -> Document:
    """Parse YAML text into a `Document`; raises `LoadError` on any rejected construct."""
    doc = Document(display, text, None)
    # Events are consumed as parsed, so a rejected construct stops the parser early: libyaml
    # takes time quadratic in the nesting depth to get to the end of `[[[[...`.
    parser = _Loader(text)
    # The parser's own get_event, not yaml.parse(): that generator adds a Python frame and
    # a second call into libyaml per event, a quarter of the parse for a large register.
    builder = _Builder(doc, parser.get_event, integer_keys)
    error: LoadError | None = None
    try:
        doc.data = builder.build()
    except yaml.MarkedYAMLError as err:
        error = _syntax_error(doc, err)
    except yaml.reader.ReaderError as err:
        error = _reader_error(doc, err)
    except LoadError as err:
        error = err
    finally:
        parser.dispose()
    if builder.quoted is not None:  # an odd line break before the error is its likely cause
        builder.reject_odd_breaks(len(text) if error is None else error.mark.offset)
    if error is not None:
        raise error
    return doc


def _syntax_error(doc: Document, err: yaml.MarkedYAMLError) -> LoadError:
    mark = err.problem_mark or err.context_mark
    if mark is None:
        return LoadError(Mark(1, 1), "yaml-syntax", f"invalid YAML: {err}")
    where = doc.position(mark.index)
    problem = (err.problem or "invalid YAML").strip()
    if doc.text[mark.index : mark.index + 1] == "\t" and ("tab" in problem or "token" in problem):
        # libyaml says "found character that cannot start any token" or "found a tab
        # character that violates indentation", neither of which says what to do.
        message = "tab character in indentation: YAML indents with spaces only"
        return LoadError(where, "tab-indent", message)
    if unclosed := quotes.unclosed_opening(doc.text, err):
        opened, closed_at = unclosed
        message = quotes.message(doc.text[opened], closed_at)
        return LoadError(doc.position(opened), "yaml-syntax", message)
    if "expected '-' indicator" in problem and (item := _deeper_item(doc, err)):
        return item
    deeper = "mapping values are not allowed" in problem and _deeper_key(doc, mark.index)
    if cause := deeper or _closed_early(doc, mark.index):
        return cause
    hint = context = ""
    if "mapping values are not allowed" in problem:
        hint = ": a value holding ': ' must be quoted; write the whole scalar in single quotes"
    elif "found character" in problem and "cannot start any token" in problem:
        hint = ": a value starting with this character must be quoted"
    elif err.context:
        context = f" ({err.context.strip()}{_opened(doc, err, where)})"
        if "flow" in err.context:
            hint = ": close it, or quote the value if its '{' or '[' is text"
    return LoadError(where, "yaml-syntax", f"invalid YAML: {problem}{context}{hint}")


_KEY_LINE = re.compile(r"( *)(?:- +)?([^\s:#'\"-][^:#]*?):(?: |$)")


def _deeper_key(doc: Document, index: int) -> LoadError | None:
    """A key indented deeper than the key above it, whose plain value it then continues:
    libyaml sees a ': ' inside that value ("mapping values are not allowed")."""
    start = doc.text.rfind("\n", 0, index) + 1
    key = _KEY_LINE.fullmatch(doc.text[start : index + 2].rstrip("\n"))
    if key is None or doc.text[index] != ":":
        return None
    above = _line_above(doc, start)
    if above is None:
        return None
    above_key = _KEY_LINE.match(above[1])
    indent = len(key.group(1))
    if above_key is None or len(above_key.group(1)) >= indent:
        return None
    value = above[1][above_key.end() :].strip()
    if not value or value[0] in "[{'\"|>&*!#":
        return None  # not a plain value that the line below could continue
    line = doc.position(start).line
    message = (
        f"invalid YAML: '{key.group(2)}:' is indented more than '{above_key.group(2)}:' on "
        f"line {line - above[0]}, so YAML reads it as more of that value: keys of one mapping "
        "start in the same column (if it is text of that value, quote the whole value)"
    )
    return LoadError(doc.position(start + indent), "yaml-syntax", message)


def _deeper_item(doc: Document, err: yaml.MarkedYAMLError) -> LoadError | None:
    """A list item whose '-' is indented more than the list's first (its block opened at
    `context_mark`): libyaml finds no '-' where it expects the next item."""
    if err.problem_mark is None or err.context_mark is None:
        return None
    at = err.problem_mark.index
    start = doc.text.rfind("\n", 0, at) + 1
    end = doc.text.find("\n", at)
    line = doc.text[start : end if end >= 0 else None]
    indent = len(line) - len(line.lstrip(" "))
    opened = doc.position(err.context_mark.index)
    if not line.lstrip(" ").startswith("- ") or indent + 1 <= opened.col:
        return None
    message = (
        f"invalid YAML: this '-' is indented more than the list's first '-' (line "
        f"{opened.line}, column {opened.col}): items of one list start in the same column"
    )
    return LoadError(doc.position(start + indent), "yaml-syntax", message)


def _line_above(doc: Document, start: int) -> tuple[int, str] | None:
    """(how many lines up, text) of the nearest line above that is neither blank nor a
    comment, or None."""
    up, end = 0, start - 1
    while end > 0:
        begin = doc.text.rfind("\n", 0, end) + 1
        up += 1
        line = doc.text[begin:end]
        if line.strip() and not line.lstrip().startswith("#"):
            return up, line
        end = begin - 1
    return None


def _closed_early(doc: Document, index: int) -> LoadError | None:
    """A quoted value that ended at a quote meant as text inside it, with more text after
    it on the line: libyaml then finds no key or '-' where that text starts."""
    start = doc.text.rfind("\n", 0, index) + 1
    before = doc.text[start:index].rstrip(" ")
    end = doc.text.find("\n", index)
    after = doc.text[index : len(doc.text) if end < 0 else end].strip()
    if not before or before[-1] not in "'\"" or not after or after.startswith("#"):
        return None
    quote = before[-1]
    opened = before.rfind(quote, 0, len(before) - 1)
    if opened < 0 or before[:opened].rstrip()[-1:] not in (":", "-", ""):
        return None
    if quote == "'":
        advice = "inside single quotes, write a ' as two ('')"
    else:
        advice = 'inside double quotes, write a " as \\", or put the whole value in single quotes'
    message = (
        f"invalid YAML: the quoted value ends at this {quote}, and more text follows it: {advice}"
    )
    return LoadError(doc.position(start + len(before) - 1), "yaml-syntax", message)


def _opened(doc: Document, err: yaml.MarkedYAMLError, problem: Mark) -> str:
    # "while parsing a flow mapping" is only useful with where that mapping opened.
    if err.context_mark is None:
        return ""
    opened = doc.position(err.context_mark.index)
    if opened.line == problem.line:
        return ""
    return f" opened at line {opened.line}, column {opened.col}"


def _reader_error(doc: Document, err: yaml.reader.ReaderError) -> LoadError:
    # libyaml reports a byte offset here, not a character one: find the character instead.
    code = err.character if isinstance(err.character, int) else 0
    index = max(doc.text.find(chr(code)), 0)
    message = f"control character U+{code:04X} is not allowed in YAML: remove it"
    return LoadError(doc.position(index), "yaml-syntax", message)


class _Builder:
    """Turns a stream of parser events into nested dicts, lists and scalars."""

    def __init__(self, doc: Document, next_event: Callable[[], Any], integer_keys: frozenset[str]):
        self.doc, self.next = doc, next_event
        self.integer_keys = integer_keys
        text = doc.text
        odd = any(char in text for char in _ODD_BREAKS)
        self.libyaml_lines = not odd and text.count("\r") == text.count("\r\n")
        """libyaml counts lines as `Document.position` does: no lone CR, no odd break."""
        self.quoted: list[tuple[int, int]] | None = [] if odd else None
        """Character spans of the quoted scalars, kept only when there are odd breaks."""
        self.values, self.keys = doc.values, doc.keys
        self.ends, self.styles = doc.ends, doc.styles

    def mark(self, ev: yaml.Event) -> Mark:
        m: Any = ev.start_mark
        if self.libyaml_lines:  # the same numbers, without a search per event
            return _new_mark(Mark, (m.line + 1, m.column + 1, m.index))
        return self.doc.position(m.index)

    def reject_odd_breaks(self, before: int) -> None:
        """Refuse U+0085, and U+2028 or U+2029 outside quotes, found before `before`.

        libyaml ends a line at them where YAML 1.2 and editors see one line, so the same
        text would mean one thing here and another in an editor. Quoted, U+2028 and U+2029
        are kept as text by both; libyaml folds U+0085 into a space even there.
        """
        quoted = self.quoted or []
        starts = [start for start, _ in quoted]
        for found in _ODD_BREAK.finditer(self.doc.text, 0, before):
            index, char = found.start(), found.group()
            span = bisect.bisect_right(starts, index) - 1
            if char != "\x85" and span >= 0 and index < quoted[span][1]:
                continue
            where = "in YAML" if char == "\x85" else "outside quotes"
            message = (
                f"{_ODD_BREAKS[char]} is not allowed {where}: "
                "YAML parsers disagree on whether it ends a line; remove it"
            )
            raise LoadError(self.doc.position(index), "odd-line-break", message)

    def build(self) -> Any:
        self.next()  # StreamStart
        ev = self.next()
        if isinstance(ev, yaml.StreamEndEvent):
            raise LoadError(Mark(1, 1), "empty-file", "file is empty: expected a mapping")
        data = self.node(self.next(), (), in_meta=False, key=None)
        self.next()  # DocumentEnd
        if not isinstance(ev := self.next(), yaml.StreamEndEvent):
            raise LoadError(
                self.mark(ev), "multiple-documents", "more than one YAML document in file"
            )
        if data is None:
            raise LoadError(Mark(1, 1), "empty-file", "file is empty: expected a mapping")
        if not isinstance(data, dict):
            kind = "a list" if isinstance(data, list) else "a single value"
            raise LoadError(Mark(1, 1), "not-a-mapping", f"top level is {kind}: expected a mapping")
        return data

    def node(self, ev: Any, path: Path_, in_meta: bool, key: str | None) -> Any:
        # The hot loop of every run (one call per value): attribute and method look-ups are
        # kept out of it, which made the walk over libyaml's events a third faster.
        if ev.anchor is not None or ev.tag is not None:  # an alias always has an anchor
            self._reject_anchor_and_tag(ev)
        if len(path) > MAX_DEPTH:
            message = f"nested more than {MAX_DEPTH} levels deep: registers are shallow data"
            raise LoadError(self.mark(ev), "too-deep", message)
        self.values[path] = self.mark(ev)
        kind = type(ev)
        if kind is _SCALAR:
            self.ends[path] = ev.end_mark.index
            style = ev.style
            self.styles[path] = style or ""
            if self.quoted is not None:
                self._note_quoted(ev)
            if style:  # quoted or a block: text as written
                return ev.value
            return self.scalar(ev, in_meta, key)
        if kind is _SEQUENCE_START:
            return self.sequence(path, in_meta)
        return self.mapping(path, in_meta)

    def _reject_anchor_and_tag(self, ev: yaml.Event) -> None:
        anchor = getattr(ev, "anchor", None)
        if anchor is None and getattr(ev, "tag", None) is None:
            return  # nearly every event: no anchor, alias or explicit tag
        if isinstance(ev, yaml.AliasEvent):
            message = f"alias '*{anchor}' is not allowed: write the value out in full"
            raise LoadError(self.mark(ev), "yaml-alias", message)
        if anchor:
            message = f"anchor '&{anchor}' is not allowed: registers are plain data"
            raise LoadError(self.mark(ev), "yaml-anchor", message)
        tag = getattr(ev, "tag", None)
        if tag and tag not in (_STR_TAG, "!") and not _is_implicit_tag(ev):
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise LoadError(
                self.mark(ev), "yaml-tag", f"tag '{shown}' is not allowed: registers are plain data"
            )

    def scalar(self, ev: yaml.ScalarEvent, in_meta: bool, key: str | None) -> Any:
        value: str = ev.value
        if ev.style or ev.tag == _STR_TAG:
            return value
        if value in _NULLS:
            return None
        if value in _BOOLS:
            return _BOOLS[value]
        if (in_meta or key in self.integer_keys) and _INT.match(value):
            return self.integer(ev, value, key if not in_meta else None)
        return value

    def integer(self, ev: yaml.ScalarEvent, value: str, key: str | None) -> int:
        """`value` as a number, refused when it has more digits than `key` takes."""
        digits = len(value.lstrip("+-"))
        limit = MAX_DIGITS if key else MAX_META_DIGITS
        if digits <= limit:
            return int(value)
        where = f"'{key}' takes" if key else "a number in _meta takes"
        hint = "" if key else "; quote it to keep it as text"
        message = f"number too large: {where} at most {limit} digits, not {digits}{hint}"
        raise LoadError(self.mark(ev), "number-too-large", message)

    def sequence(self, path: Path_, in_meta: bool) -> list[Any]:
        items: list[Any] = []
        next_event, node = self.next, self.node
        while type(ev := next_event()) is not _SEQUENCE_END:
            items.append(node(ev, (*path, len(items)), in_meta, None))
        return items

    def mapping(self, path: Path_, in_meta: bool) -> dict[str, Any]:
        result: dict[str, Any] = {}
        next_event, node, keys, mark = self.next, self.node, self.keys, self.mark
        while type(ev := next_event()) is not _MAPPING_END:
            if type(ev) is not _SCALAR or ev.anchor is not None or ev.tag is not None:
                self._check_key(ev)
            if self.quoted is not None:
                self._note_quoted(ev)
            key = str(ev.value)
            child = (*path, key)
            if key in result:
                first = keys[child]
                message = f"duplicate key '{key}' (first set on line {first.line})"
                raise LoadError(mark(ev), "duplicate-key", message)
            keys[child] = mark(ev)
            value_meta = in_meta or key == "_meta"
            result[key] = node(next_event(), child, value_meta, key)
        return result

    def _check_key(self, ev: Any) -> None:
        self._reject_anchor_and_tag(ev)
        if type(ev) is not _SCALAR:
            raise LoadError(self.mark(ev), "complex-key", "a key must be a plain string")

    def _note_quoted(self, ev: yaml.ScalarEvent) -> None:
        if self.quoted is not None and ev.style in ("'", '"'):  # quoted: a span to skip
            start: Any = ev.start_mark
            end: Any = ev.end_mark
            self.quoted.append((start.index, end.index))


def _is_implicit_tag(ev: yaml.Event) -> bool:
    implicit = getattr(ev, "implicit", None)
    if isinstance(implicit, tuple):
        return any(implicit)
    return bool(implicit)

"""The YAML event walker: libyaml's parser events -> plain data, and the position of every
key and value in the `Document`.

PyYAML's own constructors are not used: they accept duplicate keys, resolve aliases,
and turn `2026-07-28`, `0512345` and `1_000` into dates and numbers. Walking the parser's
events gives one place to reject what registers must not contain and to keep every scalar
as the text its author wrote.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from typing import Any

import yaml

from ..model.notation import MAX_DIGITS
from ..model.positions import Path_
from .document import Document, LoadError, Mark

MAX_DEPTH = 50
"""Deeper nesting is refused: a register needs six levels, and thousands of `[` would
exhaust Python's recursion limit here and in the schema validator."""

MAX_META_DIGITS = 18
"""Most digits in a number under `_meta`, which any JSON reader holds as a 64-bit integer."""

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


class Walker:
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

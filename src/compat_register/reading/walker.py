"""libyaml's node graph -> plain data, and each key's and value's place from the nodes' marks.
Not PyYAML's constructors: they accept duplicate keys, follow aliases and make `0512345` a
number; here every scalar stays the text its author wrote."""

from __future__ import annotations

import re
from typing import Any

import yaml

from ..model.notation import MAX_DIGITS
from ..model.positions import Path_
from .document import Document, LoadError, Mark

try:  # libyaml's composer is an order of magnitude faster; fall back where it is absent
    from yaml import CSafeLoader as Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as Loader  # type: ignore[assignment]

MAX_DEPTH = 50
"""Deeper nesting is refused: a register needs six levels; thousands would exhaust Python's
recursion limit here and in the schema validator."""
SAFE_NESTING = 1_000
"""Nesting libyaml's composer is given as it is: it recurses in C, and far deeper overflows
the stack; a text that could nest deeper is first read event by event."""
MAX_META_DIGITS = 18  # a number under `_meta`: what any JSON reader holds as a 64-bit integer

_NULLS = {"", "~", "null", "Null", "NULL"}
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)\Z")
_STR_TAG = "tag:yaml.org,2002:str"
# An anchor among a node's properties (after a tag), where its mark starts: the node graph
# keeps no anchor's name, and an anchor no alias uses leaves no other trace.
_ANCHOR = re.compile(r"(?:!\S*\s+)?&([0-9A-Za-z_-]+)")
_PROPERTY = ("&", "!")  # how an anchor or a tag starts
_SCALAR, _SEQUENCE = yaml.ScalarNode, yaml.SequenceNode


class Composer(Loader):
    """libyaml's composer, leaving a tag its author did not write as None."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> None:
        return None


class Walker:
    """Turns the node graph of one document into nested dicts, lists and scalars."""

    def __init__(self, doc: Document, integer_keys: frozenset[str]):
        self.doc, self.text, self.integer_keys = doc, doc.text, integer_keys
        self.values, self.keys = doc.values, doc.keys
        self.ends, self.styles = doc.ends, doc.styles

    def mark(self, node: yaml.Node | yaml.Event) -> Mark:
        return self.doc.position(node.start_mark.index)  # type: ignore[union-attr]

    def build(self, composer: Composer) -> Any:
        """The document's data; raises `LoadError` on a construct registers refuse."""
        if nesting_bound(self.text) > SAFE_NESTING:
            self.refuse_deep_nesting()
        root = composer.get_node() if composer.check_node() else None
        if root is None:
            raise LoadError(Mark(1, 1), "empty-file", "file is empty: expected a mapping")
        data = self.node(root, (), in_meta=False, key=None)
        after: Any = composer.peek_event()
        if not isinstance(after, yaml.StreamEndEvent):
            message = "more than one YAML document in file"
            raise LoadError(self.mark(after), "multiple-documents", message)
        if data is None:
            raise LoadError(Mark(1, 1), "empty-file", "file is empty: expected a mapping")
        if not isinstance(data, dict):
            kind = "a list" if isinstance(data, list) else "a single value"
            raise LoadError(Mark(1, 1), "not-a-mapping", f"top level is {kind}: expected a mapping")
        return data

    def node(self, node: Any, path: Path_, in_meta: bool, key: str | None) -> Any:
        offset = node.start_mark.index
        if node.tag is not None or self.text.startswith(_PROPERTY, offset):
            self._reject_anchor_and_tag(node, self.mark(node))
        if len(path) > MAX_DEPTH:
            raise _too_deep(self.mark(node))
        self.values[path] = offset
        kind = type(node)
        if kind is _SCALAR:
            self.ends[path] = node.end_mark.index
            self.styles[path] = node.style or ""
            return self.scalar(node, in_meta, key)
        if kind is _SEQUENCE:
            items, node.value = node.value, []  # read once: see `mapping`
            return [self.node(item, (*path, n), in_meta, None) for n, item in enumerate(items)]
        return self.mapping(node, path, in_meta)

    def refuse_deep_nesting(self) -> None:
        """Raise the walker's `too-deep` refusal at the same value, read from libyaml's events."""
        open_: list[list[int]] = []  # per open collection: [is a mapping, nodes read in it]
        for event in yaml.parse(self.text, Loader=Loader):
            if isinstance(event, yaml.CollectionEndEvent):
                open_.pop()
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue
            if open_:
                is_mapping, read = open_[-1]
                open_[-1][1] += 1
                is_value = not is_mapping or read % 2 == 1
                if is_value and len(open_) > MAX_DEPTH:
                    raise _too_deep(self.mark(event))
            if isinstance(event, yaml.CollectionStartEvent):
                open_.append([isinstance(event, yaml.MappingStartEvent), 0])

    def _reject_anchor_and_tag(self, node: yaml.Node, mark: Mark) -> None:
        if anchor := _ANCHOR.match(self.text, mark.offset):
            raise _refusal(mark, "&" + anchor[1])
        if node.tag not in (None, _STR_TAG):
            shown = node.tag.replace("tag:yaml.org,2002:", "!!")
            message = f"tag '{shown}' is not allowed: registers are plain data"
            raise LoadError(mark, "yaml-tag", message)

    def scalar(self, node: yaml.ScalarNode, in_meta: bool, key: str | None) -> Any:
        value: str = node.value
        if node.style or node.tag == _STR_TAG:  # quoted, a block, or tagged !!str: as written
            return value
        if value in _NULLS:
            return None
        if value in _BOOLS:
            return _BOOLS[value]
        if (in_meta or key in self.integer_keys) and _INT.match(value):
            return self.integer(node, value, key if not in_meta else None)
        return value

    def integer(self, node: yaml.ScalarNode, value: str, key: str | None) -> int:
        """`value` as a number, refused with more digits than `key` (else `_meta`) takes."""
        digits = len(value.lstrip("+-"))
        limit = MAX_DIGITS if key else MAX_META_DIGITS
        if digits <= limit:
            return int(value)
        where = f"'{key}' takes" if key else "a number in _meta takes"
        hint = "" if key else "; quote it to keep it as text"
        message = f"number too large: {where} at most {limit} digits, not {digits}{hint}"
        raise LoadError(self.mark(node), "number-too-large", message)

    def mapping(self, node: yaml.MappingNode, path: Path_, in_meta: bool) -> dict[str, Any]:
        result: dict[str, Any] = {}
        keys = self.keys
        # Each collection lets its nodes go once walked, so a large document's graph is freed
        # as it is read, not kept (and scanned by the GC) to the end.
        pairs, node.value = node.value, []
        for key_node, value_node in pairs:
            offset = key_node.start_mark.index
            if key_node.tag is not None or self.text.startswith(_PROPERTY, offset):
                self._reject_anchor_and_tag(key_node, self.mark(key_node))
            if type(key_node) is not _SCALAR:
                raise LoadError(self.mark(key_node), "complex-key", "a key must be a plain string")
            key = key_node.value
            child = (*path, key)
            if key in result:
                first = self.doc.position(keys[child]).line
                message = f"duplicate key '{key}' (first set on line {first})"
                raise LoadError(self.mark(key_node), "duplicate-key", message)
            keys[child] = offset
            result[key] = self.node(value_node, child, in_meta or key == "_meta", key)
        return result


def nesting_bound(text: str) -> int:
    """How deep `text` can nest at most: each `[` or `{`, and twice per column of the longest
    line (a block collection starts right of its holder, or at its column but not twice)."""
    longest = max(map(len, text.splitlines()), default=0)
    return text.count("[") + text.count("{") + 2 * (longest + 1)


def first_anchor_or_alias(doc: Document) -> LoadError | None:
    """The refusal of the first anchor or alias in `doc`, when the composer fails on one (an
    alias to no anchor, an anchor given twice)."""
    for token in tokens_before(doc.text, len(doc.text)):
        if isinstance(token, yaml.AnchorToken | yaml.AliasToken):
            sign = "&" if isinstance(token, yaml.AnchorToken) else "*"
            return _refusal(doc.position(token.start_mark.index), sign + token.value)
    return None


def tokens_before(text: str, failed_at: int) -> list[yaml.Token]:
    """The scanner's tokens that start before `failed_at`, but the block ends it adds."""
    tokens: list[yaml.Token] = []
    try:
        for token in yaml.scan(text, Loader=Loader):
            if token.start_mark.index >= failed_at:
                break
            if not isinstance(token, yaml.BlockEndToken):
                tokens.append(token)
    except yaml.YAMLError:
        pass
    return tokens


def _too_deep(mark: Mark) -> LoadError:
    message = f"nested more than {MAX_DEPTH} levels deep: registers are shallow data"
    return LoadError(mark, "too-deep", message)


def _refusal(mark: Mark, written: str) -> LoadError:
    """The refusal of the anchor (`&name`) or alias (`*name`) written at `mark`."""
    if written.startswith("&"):
        message = f"anchor '{written}' is not allowed: registers are plain data"
        return LoadError(mark, "yaml-anchor", message)
    message = f"alias '{written}' is not allowed: write the value out in full"
    return LoadError(mark, "yaml-alias", message)

"""loader.parse: data as written, and the line and column of every key, value and token."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

import tiers
from compat_register.model.diagnostic import Diagnostic
from compat_register.model.positions import Path_
from compat_register.reading import loader, walker
from compat_register.reading.document import Document, LoadError

INTS = frozenset({"increment", "lines"})


def parse(text: str) -> Document:
    return loader.parse(text, "t.yaml", INTS)


def at(doc: Document, path: Path_) -> tuple[int, int]:
    mark = doc.mark(path)
    return mark.line, mark.col


def key_at(doc: Document, path: Path_) -> tuple[int, int]:
    mark = doc.key_mark(path)
    return mark.line, mark.col


def token_at(doc: Document, path: Path_, token: str, occurrence: int = 0) -> tuple[int, int]:
    mark = doc.token_mark(path, token, occurrence)
    return mark.line, mark.col


def refused(read: Callable[[], object]) -> tuple[int, int, str, str] | None:
    """Where and why `read` raised its `LoadError`; None when it raised none."""
    try:
        read()
    except LoadError as err:
        return err.mark.line, err.mark.col, err.code, err.message
    return None


def error_of(text: str) -> tuple[int, int, str, str]:
    found = refused(lambda: parse(text))
    assert found is not None, f"no LoadError for {text!r}"
    return found


# --- positions ----------------------------------------------------------------------------

NESTED = """\
title: T
entries:
  - id: A-1
    status: {state: done, note: kept}
    sources:
      - x.go:1
      -   'y.go:2 “q”'
"""


def test_positions_of_keys_and_values() -> None:
    doc = parse(NESTED)
    assert key_at(doc, ("title",)) == (1, 1)
    assert at(doc, ("title",)) == (1, 8)
    assert key_at(doc, ("entries",)) == (2, 1)
    assert at(doc, ("entries",)) == (3, 3)
    assert at(doc, ("entries", 0)) == (3, 5)
    assert key_at(doc, ("entries", 0, "id")) == (3, 5)
    assert at(doc, ("entries", 0, "id")) == (3, 9)
    assert at(doc, ("entries", 0, "status")) == (4, 13)
    assert key_at(doc, ("entries", 0, "status", "note")) == (4, 27)
    assert at(doc, ("entries", 0, "status", "note")) == (4, 33)
    assert at(doc, ("entries", 0, "sources", 0)) == (6, 9)
    assert at(doc, ("entries", 0, "sources", 1)) == (7, 11)


def test_a_missing_path_points_at_its_nearest_written_ancestor() -> None:
    doc = parse(NESTED)
    assert at(doc, ("entries", 0, "status", "missing", "deeper")) == (4, 13)
    assert at(doc, ("nothing",)) == (1, 1)
    assert key_at(doc, ("entries", 0, "effort")) == (3, 5)


def test_columns_count_characters_not_bytes() -> None:
    doc = parse("a: “é” 🔑\nb: {c: ✓, d: x}\n")
    assert at(doc, ("b", "d")) == (2, 14)
    assert key_at(doc, ("b", "d")) == (2, 11)
    assert doc.data["a"] == "“é” 🔑"


def test_positions_are_kept_as_offsets_the_collector_does_not_walk() -> None:
    """One position per value and key is kept, tens of thousands per run: as offsets (made
    a line and column when asked), not objects the garbage collector walks on every pass."""
    doc = parse("a: 1\nb:\n  c: [x, y]\n")
    kept = [*doc.values.values(), *doc.keys.values()]
    assert len(kept) == 9 and not any(gc.is_tracked(offset) for offset in kept)
    assert key_at(doc, ("a",)) == (1, 1) and at(doc, ("b", "c", 1)) == (3, 10)


@pytest.mark.parametrize("odd", ["\r", "\u2028"])
def test_lines_after_a_break_libyaml_counts_and_editors_do_not(odd: str) -> None:
    """libyaml ends a line at a lone CR, or at U+2028 in quotes; positions count only \\n."""
    doc = parse(f"a: 'x{odd}y'\nb: [p,\n  q]\nc: z\n")
    assert at(doc, ("b", 1)) == (3, 3)
    assert at(doc, ("c",)) == (4, 4)
    assert key_at(doc, ("c",)) == (4, 1)
    assert error_of(f"a: 'x{odd}y'\nb: [p,\n  q\n")[:2] == (4, 1)


@pytest.mark.parametrize(
    ("text", "where", "name"),
    [
        ("a: x\u2028y\nb: 1\n", (1, 5), "line separator U+2028"),
        ("a: x # c\u2029b: 1\n", (1, 9), "paragraph separator U+2029"),
        ("a: |\n  x\u2028y\nb: 1\n", (2, 4), "line separator U+2028"),
        ("a: 'x'\nb: \"p\x85q\"\n", (2, 6), "next line character U+0085"),
    ],
)
def test_breaks_libyaml_reads_and_editors_do_not_are_refused(
    text: str, where: tuple[int, int], name: str
) -> None:
    line, col, code, message = error_of(text)
    assert (line, col, code) == (*where, "odd-line-break")
    assert message.startswith(f"{name} is not allowed")
    assert message.endswith("YAML parsers disagree on whether it ends a line; remove it")


def test_line_and_paragraph_separators_in_quotes_are_text() -> None:
    doc = parse("a: 'x\u2028y'\nb: \"p\u2029q\"\n")
    assert doc.data == {"a": "x\u2028y", "b": "p\u2029q"}


def test_crlf_line_ends() -> None:
    doc = parse("a: 1\r\nb:\r\n  c: x.go:3\r\n")
    assert at(doc, ("b", "c")) == (3, 6)
    assert token_at(doc, ("b", "c"), "x.go:3") == (3, 6)
    assert doc.data == {"a": "1", "b": {"c": "x.go:3"}}


# --- tokens inside scalars ----------------------------------------------------------------

BLOCKS = """\
literal: |
  first line
  see META-03 here
    and x.go:4-5 indented
folded: >-
  folded text
  names META-04
quoted: "a double
  quoted META-05"
single: 'it''s META-06'
plain: one
  two META-07
"""


@pytest.mark.parametrize(
    ("key", "token", "where"),
    [
        ("literal", "META-03", (3, 7)),
        ("literal", "x.go:4-5", (4, 9)),
        ("folded", "META-04", (7, 9)),
        ("quoted", "META-05", (9, 10)),
        ("single", "META-06", (10, 16)),
        ("plain", "META-07", (12, 7)),
    ],
)
def test_token_mark_inside_every_scalar_style(key: str, token: str, where: tuple[int, int]) -> None:
    assert token_at(parse(BLOCKS), (key,), token) == where


def test_block_scalar_values_and_styles() -> None:
    doc = parse(BLOCKS)
    assert doc.data["literal"] == "first line\nsee META-03 here\n  and x.go:4-5 indented\n"
    assert doc.data["folded"] == "folded text names META-04"
    assert doc.data["quoted"] == "a double quoted META-05"
    assert doc.data["single"] == "it's META-06"
    assert doc.data["plain"] == "one two META-07"
    styles = {key: doc.styles[(key,)] for key in doc.data}
    assert styles == {
        "literal": "|",
        "folded": ">",
        "quoted": '"',
        "single": "'",
        "plain": "",
    }


def test_token_mark_counts_occurrences_and_falls_back_to_the_scalar() -> None:
    doc = parse("what: |\n  META-01 and\n  META-01 again\n")
    assert token_at(doc, ("what",), "META-01") == (2, 3)
    assert token_at(doc, ("what",), "META-01", occurrence=1) == (3, 3)
    assert token_at(doc, ("what",), "META-01", occurrence=2) == (1, 7)
    assert token_at(doc, ("what",), "META-99") == (1, 7)


def test_token_mark_stays_inside_its_own_scalar() -> None:
    doc = parse("a: x.go:1\nb: y x.go:1\n")
    assert token_at(doc, ("b",), "x.go:1") == (2, 6)
    assert doc.find(("a",), "y") is None


def test_raw_span_holds_the_quotes() -> None:
    doc = parse("a: 'q: x'  # comment\n")
    start, end = doc.raw(("a",))
    assert doc.text[start:end] == "'q: x'"


def test_position_of_an_offset() -> None:
    doc = parse("ab: c\nde: f\n")
    assert doc.position(0)[:2] == (1, 1)
    assert doc.position(doc.text.index("f"))[:2] == (2, 5)


@given(
    st.text(alphabet="ab\n\r\u2028 ", max_size=60),
    st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=30),
)
def test_a_position_counts_only_newlines(text: str, offsets: list[int]) -> None:
    """A position looked up in the list of line starts is the one counted in the text, where
    only `\\n` ends a line (`\\r` and U+2028 do not), everywhere."""
    doc = Document("t.yaml", text, {})
    for offset in (min(o, len(text)) for o in offsets):
        line = text.count("\n", 0, offset) + 1
        assert doc.position(offset) == (line, offset - text.rfind("\n", 0, offset), offset)


# --- scalars as written -------------------------------------------------------------------


def test_scalars_keep_the_text_their_author_wrote() -> None:
    doc = parse(
        "created: 2026-09-30T08:00:00-05:00\nday: 2026-09-30\ncommit: 0512345\n"
        "digits: 1234567\nfloat: 1.50\nunderscored: 1_000\nhex: 0x1F\nyes: yes\non: on\n"
    )
    assert doc.data == {
        "created": "2026-09-30T08:00:00-05:00",
        "day": "2026-09-30",
        "commit": "0512345",
        "digits": "1234567",
        "float": "1.50",
        "underscored": "1_000",
        "hex": "0x1F",
        "yes": "yes",
        "on": "on",
    }


def test_integers_only_under_integer_keys_and_in_meta() -> None:
    doc = parse("increment: 3\nlines: '4'\ncommit: 5\n_meta: {n: 6, deep: [7, '8'], m: 0512}\n")
    assert doc.data == {
        "increment": 3,
        "lines": "4",
        "commit": "5",
        "_meta": {"n": 6, "deep": [7, "8"], "m": "0512"},
    }


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("increment: 1234567890\n", (1, 12), "'increment' takes at most 9 digits, not 10"),
        ("a:\n  lines: " + "9" * 5000 + "\n", (2, 10), "'lines' takes at most 9 digits, not 5000"),
        (
            "_meta: {n: -1234567890123456789}\n",
            (1, 12),
            "a number in _meta takes at most 18 digits, not 19; quote it to keep it as text",
        ),
    ],
)
def test_numbers_too_large(text: str, where: tuple[int, int], message: str) -> None:
    assert error_of(text) == (*where, "number-too-large", f"number too large: {message}")


def test_numbers_up_to_the_limits() -> None:
    doc = parse("increment: 999999999\nlines: '" + "9" * 5000 + "'\n_meta: [123456789012345678]\n")
    assert doc.data == {"increment": 999999999, "lines": "9" * 5000, "_meta": [123456789012345678]}


def test_nulls_and_booleans() -> None:
    doc = parse("a:\nb: ~\nc: null\nd: true\ne: False\nf: 'null'\ng: 'true'\n")
    assert doc.data == {
        "a": None,
        "b": None,
        "c": None,
        "d": True,
        "e": False,
        "f": "null",
        "g": "true",
    }


def test_keys_are_strings() -> None:
    assert parse("1: a\ntrue: b\n2026-01-01: c\n").data == {
        "1": "a",
        "true": "b",
        "2026-01-01": "c",
    }


def test_explicit_str_tag_is_allowed() -> None:
    assert parse("increment: !!str 3\n").data == {"increment": "3"}


# --- rejected constructs ------------------------------------------------------------------


def test_duplicate_key_in_a_nested_mapping() -> None:
    assert error_of("a:\n  b: 1\n  c: 2\n  b: 3\n") == (
        4,
        3,
        "duplicate-key",
        "duplicate key 'b' (first set on line 2)",
    )


def test_same_key_in_two_mappings_is_fine() -> None:
    assert parse("a: {b: 1}\nc: {b: 2}\n").data == {"a": {"b": "1"}, "c": {"b": "2"}}


def test_anchor_on_a_key_and_alias_as_a_key() -> None:
    assert error_of("&k a: 1\n")[2:] == (
        "yaml-anchor",
        "anchor '&k' is not allowed: registers are plain data",
    )
    assert error_of("a: 1\n*k : 2\n")[2] == "yaml-alias"


@pytest.mark.parametrize(
    ("text", "where", "code", "written"),
    [
        ("a: &x 1\nb: *x\n", (1, 4), "yaml-anchor", "anchor '&x'"),
        ("a: !!str &x 1\n", (1, 4), "yaml-anchor", "anchor '&x'"),
        ("a: [1, ! &x 2]\n", (1, 8), "yaml-anchor", "anchor '&x'"),
        ("a: &x 1\nb: &x 2\n", (1, 4), "yaml-anchor", "anchor '&x'"),
        ("a: 1\nb: *y\nc: &y 2\n", (2, 4), "yaml-alias", "alias '*y'"),
    ],
)
def test_anchors_and_aliases_are_refused_at_the_first(
    text: str, where: tuple[int, int], code: str, written: str
) -> None:
    """The first anchor or alias is named, whether the composer accepted the document
    (an anchor, used or not) or failed on it (an alias to no anchor, an anchor twice)."""
    line, col, found, message = error_of(text)
    assert (line, col, found) == (*where, code)
    assert message.startswith(f"{written} is not allowed")


TAB_MESSAGE = "tab character in indentation: YAML indents with spaces only"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("a:\n\t b: 1\n", (2, 1)),
        ("a:\n  \tb: 1\n", (2, 3)),
        ("a:\n  b: 1\n\tc: 2\n", (3, 1)),
        ("a: |\n  x\n\tfoo\n", (3, 1)),
        ("é🔑: x\n\tb: 1\n", (2, 1)),
    ],
)
def test_tab_in_indentation(text: str, where: tuple[int, int]) -> None:
    assert error_of(text) == (*where, "tab-indent", TAB_MESSAGE)


def test_tab_inside_text_is_text() -> None:
    go = "detail: |\n  func f() {\n  \treturn\n  }\nnext: x\ty\n"
    assert parse(go).data == {"detail": "func f() {\n\treturn\n}\n", "next": "x\ty"}
    assert parse("a: x\n  \t\nb: 'p\n\tq'\n").data == {"a": "x", "b": "p q"}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty-file"),
        ("# only a comment\n", "empty-file"),
        ("---\n", "empty-file"),
        ("~\n", "empty-file"),
        ("- a\n", "not-a-mapping"),
        ("text\n", "not-a-mapping"),
        ("a: 1\n---\nb: 2\n", "multiple-documents"),
        ("? [a]\n: b\n", "complex-key"),
        ("a: !!binary aGk=\n", "yaml-tag"),
        ("a: !custom x\n", "yaml-tag"),
    ],
)
def test_rejected_documents(text: str, code: str) -> None:
    assert error_of(text)[2] == code


# --- load_file ----------------------------------------------------------------------------


def load(tmp_path: Path, data: bytes) -> Document | Diagnostic:
    path = tmp_path / "r.yaml"
    path.write_bytes(data)
    return loader.load_file(path, "r.yaml", INTS)


def test_load_file_strips_a_byte_order_mark(tmp_path: Path) -> None:
    doc = load(tmp_path, "\ufeffa: b\n".encode())
    assert isinstance(doc, Document)
    assert doc.data == {"a": "b"}
    assert at(doc, ("a",)) == (1, 4)


def test_not_utf8_names_the_byte_and_its_column_in_characters(tmp_path: Path) -> None:
    found = load(tmp_path, "a: ok\nb: “é” \xff\n".encode().replace(b"\xc3\xbf", b"\xff"))
    assert isinstance(found, Diagnostic)
    assert (found.line, found.col, found.code) == (2, 8, "not-utf8")
    assert found.message == "not UTF-8: byte 0xff cannot be decoded; save the file as UTF-8"


def test_not_utf8_after_a_byte_order_mark(tmp_path: Path) -> None:
    found = load(tmp_path, b"\xef\xbb\xbfa: \xff\n")
    assert isinstance(found, Diagnostic)
    assert (found.line, found.col, found.code) == (1, 4, "not-utf8")


def test_utf16_is_not_utf8(tmp_path: Path) -> None:
    found = load(tmp_path, "a: b\n".encode("utf-16"))
    assert isinstance(found, Diagnostic)
    assert (found.line, found.col, found.code) == (1, 1, "not-utf8")


def test_too_large_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 1024 * 1024)
    found = load(tmp_path, b"a: b\n" + b"#" * (3 * 1024 * 1024) + b"\n")
    assert isinstance(found, Diagnostic)
    assert (found.line, found.col, found.code) == (1, 1, "file-too-large")
    assert found.message == "file is 3.0 MB, over the 1 MB limit for one register file: split it"


def test_a_control_character_is_an_error_where_it_is(tmp_path: Path) -> None:
    found = load(tmp_path, "a: “é”\nb: x\x07y\n".encode())
    assert isinstance(found, Diagnostic)
    assert (found.line, found.col, found.code) == (2, 5, "yaml-syntax")
    assert found.message == "control character U+0007 is not allowed in YAML: remove it"


def _nested(blocks: str, flows: str) -> str:
    """YAML under the key `a`, nesting one collection per letter, outermost first: `m` a
    block mapping, `s` a block sequence, then (a flow holds no block) `f` a flow sequence,
    `g` a flow mapping."""
    text = "x"
    for kind in reversed(flows):
        text = f"[{text}]" if kind == "f" else f"{{k: {text}}}"
    for n, kind in enumerate(reversed(blocks)):
        first, *rest = text.split("\n")
        if kind == "s":
            text = "\n".join([f"- {first}", *(f"  {line}" for line in rest)])
        elif n:  # a block collection goes on the lines under its key
            text = "\n".join(["k:", *(f"  {line}" for line in [first, *rest])])
        else:
            text = f"k: {text}"
    return "a:\n" + "\n".join(f"  {line}" for line in text.split("\n")) + "\n"


def refusal(text: str) -> tuple[int, int, str, str] | None:
    return refused(lambda: parse(text))


NESTINGS = st.tuples(st.text("ms", max_size=walker.MAX_DEPTH + 3), st.text("fg", max_size=8))


def flat_refusal(text: str) -> tuple[int, int, str, str] | None:
    return refused(walker.Walker(Document("t.yaml", text, None), INTS).refuse_deep_nesting)


@given(NESTINGS)
@example(("m" * (walker.MAX_DEPTH + 2), ""))
@example(("s" * walker.MAX_DEPTH, "fg"))
@settings(max_examples=tiers.examples(60), deadline=None)
def test_the_flat_reading_refuses_deep_nesting_where_the_walker_does(
    nesting: tuple[str, str],
) -> None:
    """Read flat, event by event, a text is refused as too deep at the value the walker
    refuses, and passes where the walker finds it shallow enough."""
    text = _nested(*nesting)
    walked = refusal(text)
    assert flat_refusal(text) == (walked if walked and walked[2] == "too-deep" else None)


def test_a_text_that_could_nest_past_the_composer_is_read_flat_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """libyaml's composer recurses in C: tens of thousands of levels crash the process, so
    such a text never reaches it (PyYAML 6.0.3's scanner has no depth limit of its own)."""
    flat: list[str] = []
    read = walker.Walker.refuse_deep_nesting
    monkeypatch.setattr(
        walker.Walker, "refuse_deep_nesting", lambda self: flat.append(self.text) or read(self)
    )
    text = _nested("ms", "fg")
    padded = text + "# " + "-" * walker.SAFE_NESTING + "\n"  # the same data, a long line
    assert walker.nesting_bound(text) <= walker.SAFE_NESTING < walker.nesting_bound(padded)
    assert parse(text).data == parse(padded).data and flat == [padded]
    deep = _nested("m" * (walker.MAX_DEPTH + 1), "") + "# " + "-" * walker.SAFE_NESTING + "\n"
    assert refusal(deep) == flat_refusal(deep) and refusal(deep)[2] == "too-deep"  # type: ignore[index]


@given(NESTINGS)
@settings(max_examples=tiers.examples(60), deadline=None)
def test_the_nesting_bound_is_never_below_the_depth(nesting: tuple[str, str]) -> None:
    text = _nested(*nesting)
    depth = deepest = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        depth += isinstance(event, yaml.CollectionStartEvent)
        depth -= isinstance(event, yaml.CollectionEndEvent)
        deepest = max(deepest, depth)
    assert deepest == len("".join(nesting)) + 1 <= walker.nesting_bound(text)


@pytest.mark.parametrize("depth", [walker.MAX_DEPTH + 1, 100_000])
def test_deep_nesting_is_refused_without_recursion_error(depth: int) -> None:
    line, col, code, message = error_of("a: " + "[" * depth + "]" * depth + "\n")
    if code == "yaml-syntax":  # PyYAML >= 6.0.4 stops at its own depth limit while scanning
        assert line == 1 and "nesting depth" in message
    else:
        assert (line, col, code) == (1, 4 + walker.MAX_DEPTH, "too-deep")


def test_nesting_up_to_the_limit_loads() -> None:
    depth = walker.MAX_DEPTH
    value = parse("a: " + "[" * depth + "]" * depth + "\n").data["a"]
    for _ in range(depth - 1):
        (value,) = value
    assert value == []


@pytest.mark.parametrize("before", ["a: &x 1\n", "a: 1\na: 2\n", "a: !!int 1\n"])
def test_a_syntax_error_comes_before_the_refusals(before: str) -> None:
    """The refusals are looked for in the document once it parses (docs/authoring.md)."""
    end = before.count("\n") + 2  # the line after the unclosed list
    assert error_of(before + "b: [\n")[:3] == (end, 1, "yaml-syntax")


def test_the_node_graph_is_freed_as_it_is_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A walked entry's nodes are gone before the next is read: a large register's graph is
    not kept whole (and scanned by every GC pass) until its walk ends."""
    text = "entries:\n" + "".join(f"  - id: E-{n}\n    what: w{n}\n" for n in range(200))
    alive: list[int] = []
    scalar = walker.Walker.scalar

    def counting(self: walker.Walker, node: yaml.ScalarNode, *args: object) -> object:
        if node.value == "w199":
            alive.append(sum(isinstance(o, yaml.ScalarNode) for o in gc.get_objects()))
        return scalar(self, node, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(walker.Walker, "scalar", counting)
    gc.collect()  # no graph left over from another test
    assert parse(text).data["entries"][199] == {"id": "E-199", "what": "w199"}
    assert alive and alive[0] < 50  # of the graph's 401 scalars, the last entry's and a few

"""The rule of what counts as the same text, by file kind (`citations.compare`)."""

from __future__ import annotations

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from compat_register.citations.compare import (
    KINDS,
    Kind,
    block,
    comparable,
    empty_quote,
    file_kind,
    find_quote,
    quoted,
    same_text,
)


@pytest.mark.parametrize(
    ("path", "globs", "kind"),
    [
        ("docs/a.md", (), "markdown"),
        ("docs/specification/2026-07-28/basic/index.mdx", (), "markdown"),
        ("README.MARKDOWN", (), "markdown"),
        ("internal/server.go", (), "code"),
        ("schema/schema.ts", (), "code"),
        ("notes.txt", (), "code"),
        ("notes.txt", ("*.txt",), "markdown"),
        ("docs/spec.rst", ("docs/**",), "markdown"),
        ("src/docs/spec.rst", ("docs/**",), "code"),  # a glob matches the full path
        ("tools/gen.py", (), "indented"),
        (".github/workflows/ci.yml", (), "indented"),
        ("config/app.yaml", (), "indented"),
        ("Makefile", (), "indented"),
        ("sub/GNUmakefile", (), "indented"),
        ("src/lib.nim", (), "indented"),
        ("views/page.haml", (), "indented"),
        ("md", (), "code"),  # a name, not a suffix
    ],
)
def test_file_kind(path: str, globs: tuple[str, ...], kind: Kind) -> None:
    assert file_kind(path, globs) == kind


# --- the four real edits, and Markdown's markup ---------------------------------

CODE_EDITS = [
    ("func (s conn) Close() error {", "func (s *conn) Close() error {"),
    ("\t\topts: *opts,", "\t\topts: opts,"),
    ("\tinitialized bool", "\t_initialized bool"),
    ("func (c *Client) List() ([]Tool, error) {", "func (c *Client) List() ([]*Tool, error) {"),
]


@pytest.mark.parametrize(("old", "new"), CODE_EDITS)
def test_a_pointer_or_underscore_edit_in_code_is_a_change(old: str, new: str) -> None:
    assert not same_text([old], [new], "code")
    assert not quoted(old.strip(), [new], "code")
    assert same_text([old], [new], "markdown")  # what the one rule for all files said


@pytest.mark.parametrize(("old", "new"), CODE_EDITS)
def test_the_four_edits_are_changes_in_indented_files_too(old: str, new: str) -> None:
    assert not same_text([old], [new], "indented")


def test_markdown_ignores_emphasis_code_spans_and_quote_style() -> None:
    assert same_text(["Servers **MUST** reply."], ["Servers MUST reply."], "markdown")
    assert same_text(["the `tools/list` method"], ["the tools/list method"], "markdown")
    assert same_text(["“quoted” and ‘single’"], ["\"quoted\" and 'single'"], "markdown")
    assert quoted("MUST reply", ["Servers **MUST** reply."], "markdown")
    assert not same_text(["a MUST"], ["a SHOULD"], "markdown")


def test_code_ignores_whitespace_runs_indentation_and_line_breaks() -> None:
    assert same_text(["\treturn  nil"], ["    return nil"], "code")
    assert same_text(["x := f(a,", "\tb)"], ["x := f(a, b)"], "code")  # re-wrapped
    assert same_text(["a", "", "b"], ["a", "b"], "code")
    assert not same_text(["return nil"], ["return err"], "code")
    assert not same_text(["a + b"], ["a+b"], "code")  # a space appearing is a change


def test_indented_code_counts_relative_indentation() -> None:
    body = ["if ready:", "    start()", "stop()"]
    # the whole block re-indented (moved into a class): the same
    assert same_text(body, ["    " + line for line in body], "indented")
    assert same_text(body, ["\t" + line for line in body], "indented")
    # a line re-indented against its neighbours: stop() now inside the if
    assert not same_text(body, ["if ready:", "    start()", "    stop()"], "indented")
    assert not same_text(body, ["if ready:", "  start()", "stop()"], "indented")
    # a block cited from inside, its dedent counts too
    inner = ["        start()", "    stop()"]
    assert same_text(inner, ["      start()", "  stop()"], "indented")
    assert not same_text(inner, ["        start()", "        stop()"], "indented")
    # a tab is not four spaces (a Makefile's recipe needs its tab)
    assert not same_text(["all:", "\tmake x"], ["all:", "    make x"], "indented")
    # inside a line, whitespace runs still do not count; blank lines do not either
    assert same_text(["x  =  1", "", "y = 2"], ["x = 1", "y = 2"], "indented")
    # the first line that holds text sets the base
    assert same_text(["", "  a", "    b"], ["a", "  b"], "indented")


def test_markdown_counts_blank_lines_between_paragraphs() -> None:
    two = ["First paragraph.", "", "Second paragraph."]
    assert not same_text(two, ["First paragraph.", "Second paragraph."], "markdown")
    assert same_text(two, ["First", "paragraph.", "", "", "Second paragraph."], "markdown")
    assert not same_text(["", "Text."], ["Text."], "markdown")  # at the edge too
    assert not same_text(["Text.", ""], ["Text."], "markdown")
    assert same_text(["Re-wrapped", "text."], ["Re-wrapped text."], "markdown")


def test_a_quote_in_code_starts_and_ends_at_word_edges() -> None:
    assert not quoted("initialized bool", ["\t_initialized bool"], "code")
    assert not quoted("initialized", ["uninitialized"], "code")
    assert quoted("initialized bool", ["\tinitialized bool // set once"], "code")
    assert quoted("s.Close()", ["defer s.Close()"], "code")
    assert quoted("*conn) Close", ["func (s *conn) Close()"], "code")
    assert quoted("func (s *co…", ["func (s *conn) Close()"], "code")  # cut short: may end inside
    assert not quoted("unc (s *co…", ["func (s *conn) Close()"], "code")  # but not start inside
    assert quoted("initialized", ["_initialized"], "markdown")  # `_x_` is emphasis there


def test_a_quote_of_code_may_omit_the_backticks_its_line_holds() -> None:
    """What a hand-written page's code span cannot hold (docs/pins.md): a Go struct tag, a
    TypeScript doc comment naming `_meta`; a quote holding a backtick stays exact."""
    tag = ['\tProgressToken any `json:"progressToken"`']
    doc = ["   * See [General fields: `_meta`](/x#meta) for notes on `_meta` usage."]
    for kind in ("code", "indented"):
        assert quoted('ProgressToken any json:"progressToken"', tag, kind)
        assert quoted('any `json:"progressToken"`', tag, kind)
        assert not quoted('any json:"progressToken"`', tag, kind)  # one kept: all must be
        assert not quoted("`any json", tag, kind)
        assert quoted("for notes on _meta usage.", doc, kind)
        assert not quoted("notes on meta usage", doc, kind)  # only backticks may go
        assert not quoted("Token any json", tag, kind)  # word edges still hold
    # what bump, stamps and `verify --against` compare keeps every backtick
    assert not same_text(tag, ['\tProgressToken any json:"progressToken"'], "code")


def test_a_quote_spans_lines_in_every_kind() -> None:
    for kind in KINDS:
        assert quoted("a b", ["a", "  b"], kind)


def test_find_quote_goes_on_past_a_match_inside_a_word() -> None:
    text = comparable("x_initialized = initialized", "code")
    assert find_quote(text, "initialized", "code") == text.rindex("initialized")


# --- properties ---------------------------------------------------------------------------

CODE_CHARS = "ab_*&()[]{}.,:;=<>!\"'`-+/ \t"
code_lines = st.lists(st.text(alphabet=CODE_CHARS, max_size=20), min_size=1, max_size=6)
WORDS = st.text(alphabet="abcXYZ019 .,;:()/-", min_size=1, max_size=12)


def _visible(lines: list[str]) -> list[str]:
    """The non-whitespace characters of a block, in order."""
    return [c for line in lines for c in line if not c.isspace()]


@given(old=code_lines, new=code_lines)
@example(old=["func (s conn) Close()"], new=["func (s *conn) Close()"])
@example(old=["initialized bool"], new=["_initialized bool"])
def test_code_that_differs_in_a_visible_character_is_never_the_same(
    old: list[str], new: list[str]
) -> None:
    assume(_visible(old) != _visible(new))
    for kind in ("code", "indented"):
        assert not same_text(old, new, kind)


@given(lines=code_lines, data=st.data())
def test_code_re_spaced_inside_its_lines_is_the_same(lines: list[str], data: st.DataObject) -> None:
    spaces = st.text(alphabet=" \t", min_size=1, max_size=3)
    respaced = [" ".join(line.split()) for line in lines]
    respaced = [data.draw(spaces).join(line.split(" ")) if line else line for line in respaced]
    assert same_text(lines, respaced, "code")
    indent = data.draw(st.sampled_from(["", "  ", "\t", "        "]))
    shifted = [indent + line.strip() if line.strip() else line for line in lines]
    assert same_text([line.strip() for line in lines], shifted, "indented")


@given(
    paragraphs=st.lists(st.lists(WORDS, min_size=1, max_size=4), min_size=1, max_size=4),
    data=st.data(),
)
def test_markdown_only_emphasised_or_re_wrapped_is_the_same(
    paragraphs: list[list[str]], data: st.DataObject
) -> None:
    marks = st.sampled_from(["", "*", "**", "_", "__", "`"])
    plain: list[str] = []
    marked: list[str] = []
    for paragraph in paragraphs:
        for words in paragraph:
            mark = data.draw(marks)
            plain.append(words)
            # emphasis wraps whole words: `_` marks only at a word's edge
            marked.append(f"{mark}{words.strip()}{mark[::-1]}" if words.strip() else words)
        plain.append("")
        marked.extend([""] * data.draw(st.integers(1, 2)))
    assume(all(line.strip() for p in paragraphs for line in p))
    assert same_text(plain, marked, "markdown")


@given(
    paragraphs=st.lists(st.lists(WORDS, min_size=1, max_size=3), min_size=2, max_size=4),
    at=st.integers(min_value=0),
)
def test_markdown_with_a_blank_line_removed_is_changed(
    paragraphs: list[list[str]], at: int
) -> None:
    assume(all(line.strip() for p in paragraphs for line in p))
    lines: list[str] = []
    for paragraph in paragraphs:
        lines.extend([*paragraph, ""])
    lines.pop()  # the range ends on text
    blanks = [i for i, line in enumerate(lines) if not line]
    gone = blanks[at % len(blanks)]
    assert not same_text(lines, lines[:gone] + lines[gone + 1 :], "markdown")


@given(
    words=st.lists(st.text(alphabet='ab_*:(){}"`', min_size=1, max_size=8), min_size=1),
    data=st.data(),
)
def test_a_quote_of_code_without_its_backticks_is_in_its_lines(
    words: list[str], data: st.DataObject
) -> None:
    """Any run of words of cited code, backticks dropped, is quoted (docs/pins.md)."""
    start = data.draw(st.integers(0, len(words) - 1))
    end = data.draw(st.integers(start + 1, len(words)))
    quote = " ".join(words[start:end]).replace("`", "")
    assume(not empty_quote(quote))
    lines = [" ".join(words[: len(words) // 2]), " ".join(words[len(words) // 2 :])]
    for kind in ("code", "indented"):
        assert quoted(quote, lines, kind)


@given(lines=st.lists(st.text(max_size=30), max_size=6))
def test_each_kind_reads_a_block_the_same_each_time(lines: list[str]) -> None:
    for kind in KINDS:
        assert block(lines, kind) == block(list(lines), kind)
        assert same_text(lines, lines, kind)

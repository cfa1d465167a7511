"""What in register prose is code or otherwise not prose: `prose.code_ranges`, checked against
Python-Markdown itself, and `prose.non_prose_ranges`, which every scanner skips."""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import tiers
from compat_register.citations import mdcode
from compat_register.citations import nonprose as prose
from compat_register.site.extensions import MARKDOWN_EXTENSIONS
from pagehtml import to_html


def code(text: str) -> list[str]:
    return [text[start:end] for start, end in prose.code_ranges(text)]


def not_prose(text: str) -> list[str]:
    return [text[start:end] for start, end in prose.non_prose_ranges(text)]


# --- inline code spans --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("a `b` c ``d`e`` f", ["`b`", "``d`e``"]),
        ("a `b\nc` d", ["`b\nc`"]),  # a span crosses a line break
        ("a `b\n\nc` d", []),  # but not a blank line
        ("a `b\n  \nc` d", []),  # a line of spaces is blank
        ("\\`a` b`", ["` b`"]),  # an escaped backtick opens nothing
        ("\\\\`a` b", ["`a`"]),  # an escaped backslash escapes no backtick
        ("a `b\\` c`", ["`b\\`"]),  # inside a span a backslash is a character
        ("``a`", ["``a`"]),  # Python-Markdown: a shorter run closes when no equal one does
        ("``a```b```", []),  # ... and no longer one: the opener is text, and so is the rest
        ("`a ``b`` c` d", ["`a ``b`` c`"]),
        ("a ` b", []),
        # an unpaired run, then a span on the next line: the old model gave up on the
        # paragraph (it searched on at twice the run's length, as pymdown-extensions < 13
        # did); Python-Markdown searches on past the run and shows the span as code
        ("`\n``b``", ["``b``"]),
        ("`` ```` `", ["``` `"]),  # the opener a longer run's last backtick, as the page reads it
    ],
)
def test_code_spans_pair_as_python_markdown_pairs_them(text: str, spans: list[str]) -> None:
    assert code(text) == spans


# --- fences and indented blocks -----------------------------------------------------------


def test_a_fence_is_code_wherever_it_stands_in_a_paragraph() -> None:
    text = "see\n```yaml\nref: META-04\n\n```\nafter `x`"
    assert code(text) == ["```yaml\nref: META-04\n\n```", "`x`"]


def test_a_fence_closes_only_on_its_own_marker() -> None:
    assert code("a\n````\nx\n```\ny\n````\n") == ["````\nx\n```\ny\n````"]
    assert code("a\n~~~\nx\n```\n~~~") == ["~~~\nx\n```\n~~~"]


def test_an_unclosed_fence_is_text() -> None:
    assert code("a\n```\nMETA-02 `x`\n") == []


def test_a_fence_superfences_refuses_is_text() -> None:
    # an option pymdownx.highlight does not know makes the line no fence at all
    assert code('a\n```py x="1"\nMETA-02\n```\n') == []
    assert code('a\n```py title="t"\nMETA-02\n```\n') == ['```py title="t"\nMETA-02\n```']


def test_fences_are_read_by_superfences_as_the_pages_set_it_up() -> None:
    """mdcode asks pymdownx.superfences itself, with the pages' extensions that decide where
    code is (highlight's options the pages set change how code looks, not where it is)."""
    for name, options in mdcode.EXTENSIONS.items():
        assert options.items() <= MARKDOWN_EXTENSIONS[name].items()
    rows = ["a", "~~~ {.py}", "x", "~~~", "```", "y"]
    assert mdcode.fences(rows) == {1: 3}


def test_a_fence_dropped_when_a_line_is_indented_less() -> None:
    assert code("a\n  ```\n  x\ny\n  ```\n") == []


def test_a_fence_on_the_first_line_is_not_one_in_a_list_item() -> None:
    # after `- **What.** ` the second fence line opens a fence that never closes
    assert code("```\nx\n```") == []


def test_an_indented_block_after_a_paragraph_is_code() -> None:
    assert code("para\n\n    META-04 <b>\n    more\n\nafter") == ["    META-04 <b>\n    more"]


@pytest.mark.parametrize(
    "text",
    [
        "    first block",  # the text's first block: a paragraph in a list item
        "- item\n\n    continuation",  # a list item's second paragraph
        "!!! note\n\n    admonition body",
        "para\n\n    indented\nnot indented",
    ],
)
def test_an_indented_block_that_may_be_prose_is_not_code(text: str) -> None:
    assert code(text) == []


# --- blocks other than paragraphs ---------------------------------------------------------


def test_list_items_are_paragraphs_of_their_own() -> None:
    assert code("- a `b\n- c` <x> `d`") == ["` <x> `"]
    assert code("1. `a`\n   lazy `b`\n2. `c`") == ["`a`", "`b`", "`c`"]


def test_a_quote_is_one_paragraph() -> None:
    assert code("> a `b\n> c` d") == ["`b\n> c`"]


def test_a_heading_alone_is_one_paragraph() -> None:
    assert code("# `META-01` heading") == ["`META-01`"]


@pytest.mark.parametrize(
    "text",
    [
        "a `b\n- c` d",  # a paragraph, or a nested list in a list item
        "a `b\n> c` d",
        "a `b\n# c` d",
        "a `b\n---\nc` d",
        "| `a` | b |\n| --- | --- |",
        "<div>\n`a`\n</div>",
        "[ref]: `x`\n`y`",
        "> a\n>\n> `b`",
    ],
)
def test_a_block_read_differently_in_a_page_and_a_list_item_has_no_code(text: str) -> None:
    assert code(text) == []


# --- line breaks, tabs, speed -------------------------------------------------------------


def test_offsets_are_in_the_text_as_written() -> None:
    text = "a\r\n\r\n\tcode `x`\r\n\r\nb `y`"
    assert code(text) == ["\tcode `x`", "`y`"]


def test_long_texts_of_many_markers_are_read_whole() -> None:
    """The texts that once took quadratic time (bench/prose.py times them) read as their
    first hundred periods do: nothing far along changes how the start is read."""
    assert prose.code_ranges("``a " * 20000) == [(8 * i, 8 * i + 6) for i in range(10000)]
    assert prose.code_ranges("`a\n" * 40000) == [(6 * i, 6 * i + 4) for i in range(20000)]
    fences = prose.code_ranges("```\nx\n" * 20000)
    assert fences[:90] == prose.code_ranges("```\nx\n" * 200)[:90]


# --- Python-Markdown itself ---------------------------------------------------------------

_TOKENS = (
    ["`"] * 6
    + ["``"] * 3
    + ["```", "\\", "\t", "*", "=", "|", "<", "](", "---", "~~~"]
    + [" "] * 6
    + ["\n"] * 5
    + ["\n\n"] * 2
    + ["- ", "> ", "# ", "    ", "1. ", "\n```\n", "\n```py\n", '\n```py x="1"\n']
    + ["WORD"] * 16
)


class _CodeText(HTMLParser):
    """The text Python-Markdown put inside <code> or <pre>, and the rest."""

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.code, self.text = 0, [], []  # type: ignore[var-annotated]

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.depth += tag in ("code", "pre")

    def handle_endtag(self, tag: str) -> None:
        self.depth -= tag in ("code", "pre")

    def handle_data(self, data: str) -> None:
        (self.code if self.depth else self.text).append(data)


def _rendered_code(text: str, list_item: bool) -> tuple[set[str], set[str]]:
    """The marker characters Python-Markdown shows as code, and all it shows."""
    if list_item:  # as render.PageFormatter.item lays out an entry's field
        text = "- **What.** " + re.sub(r"\n[ ]+\n", "\n\n", text.replace("\n", "\n    "))
    parser = _CodeText()
    parser.feed(to_html(text))
    code, rest = "".join(parser.code), "".join(parser.text)
    return _markers(code), _markers(code + rest)


def _markers(text: str) -> set[str]:
    return {char for char in text if "\u4e00" <= char <= "\u9fff"}


def _random_text(rng: random.Random) -> str:
    """Markdown-ish noise whose every word is one distinct marker character."""
    words = iter(chr(0x4E00 + n) for n in range(1000))
    tokens = (rng.choice(_TOKENS) for _ in range(rng.randint(3, 40)))
    return "".join(next(words) if token == "WORD" else token for token in tokens)


def test_what_is_called_code_is_code_in_python_markdown() -> None:
    """Text taken for code would reach the page unescaped: code_ranges must never say code
    where Python-Markdown, in a page or in a list item, shows text."""
    rng = random.Random(20261001)
    for _ in range(300):
        text = _random_text(rng)
        ours = _markers("".join(text[start:end] for start, end in prose.code_ranges(text)))
        for list_item in (False, True):
            shown_as_code, shown = _rendered_code(text, list_item)
            assert ours & shown <= shown_as_code, (text, list_item)


# Words of noise that reach every rule mdcode models: backtick runs (opening, closing, the
# fallback to a shorter closer), escapes before them, raw HTML and entities, indented code
# and tabs, fences (with headers superfences takes and refuses), lists, quotes and headings.
_PIECES = st.sampled_from(
    [
        "`",
        "``",
        "```",
        "\\",
        "\\`",
        "\\\\",
        "<b>",
        "</b>",
        "<code>",
        "&amp;",
        "\t",
        "    ",
        "*",
        "|",
        "](",
        "---",
        "~~~",
        " ",
        " ",
        "\n",
        "\n",
        "\n\n",
        "- ",
        "* ",
        "1. ",
        "> ",
        "# ",
        "\n```\n",
        "\n```py\n",
        '\n```py x="1"\n',
        "\n~~~\n",
        "\n    ",
        "\n\t",
        "\n- ",
        "\n> ",
    ]
)


@st.composite
def _noise(draw: st.DrawFn) -> str:
    """Markdown-ish noise whose every word is one distinct marker character."""
    pieces = draw(st.lists(st.one_of(_PIECES, st.just("WORD")), min_size=1, max_size=40))
    words = iter(chr(0x4E00 + n) for n in range(len(pieces)))
    return "".join(next(words) if piece == "WORD" else piece for piece in pieces)


@settings(max_examples=tiers.examples(400), deadline=None)
@given(text=_noise())
@example(text="\u4e00`\u4e01``\u4e02`")  # a shorter closer after a longer run
@example(text="\\\\`\u4e00`")  # an escaped backslash, then a span
@example(text="    \u4e00\n\n    `\u4e01`")  # an indented block first: its own reading
@example(text="```\n\u4e00\n```")  # a fence on the first line: no fence in a list item
@example(text="\u4e00``\u4e01 \u4e02`\u4e03`\u4e04```")  # pymdown-extensions < 13 pair it apart
def test_hypothesis_finds_no_text_called_code(text: str) -> None:
    """The property the site's safety rests on, drawn by hypothesis: what `code_ranges`
    calls code is code in Python-Markdown as installed, in a page and in a list item (the
    model may say "text" where the parser shows code: that is only escaped twice)."""
    ours = _markers("".join(text[start:end] for start, end in prose.code_ranges(text)))
    for list_item in (False, True):
        shown_as_code, shown = _rendered_code(text, list_item)
        assert ours & shown <= shown_as_code, (text, list_item)


# --- what else is not prose ---------------------------------------------------------------


def test_link_destinations_autolinks_and_urls_are_not_prose() -> None:
    text = (
        "[the META-01 doc](https://example.org/META-99/x 'META-98 title') and "
        "<https://x.org/META-97> or <a@META-96.org>, https://x.org/META-95?a=1 then META-02\n"
        "[ref]: https://example.org/META-94\n"
    )
    assert not_prose(text) == [
        "https://example.org/META-99/x 'META-98 title'",
        "<https://x.org/META-97>",
        "<a@META-96.org>",
        "https://x.org/META-95?a=1",
        "[ref]: https://example.org/META-94",
    ]


def test_a_link_in_code_is_code() -> None:
    assert not_prose("`[a](b)` [c](d)") == ["`[a](b)`", "d"]


def test_merge_and_overlaps() -> None:
    ranges = prose.merge([(5, 8), (0, 2), (1, 3), (8, 9)])
    assert ranges == [(0, 3), (5, 9)]
    assert [prose.overlaps(span, ranges) for span in [(3, 5), (2, 4), (4, 6), (9, 12)]] == [
        False,
        True,
        True,
        False,
    ]


def test_prose_fields_in_order_notes_last() -> None:
    entry = {
        "what": "w",
        "status": {"state": "done", "note": "n"},
        "value": "not a mapping",
        "risk": 3,
        "notes": [{"title": "t", "text": "x"}, "bad", {"text": "y"}],
    }
    assert prose.prose_fields(entry) == [
        (("what",), "w"),
        (("status", "note"), "n"),
        (("notes", 0, "text"), "x"),
        (("notes", 2, "text"), "y"),
    ]

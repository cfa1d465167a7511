"""The reading skips text that can hold no keyword, and keeps what paragraphs read as for
one run: neither may change a statement. Each result is held to the same reading with
the pre-filter off (every paragraph parsed) and with nothing kept."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it.common.entities import entities

import tiers
from compat_register.statements import extract
from compat_register.statements import markdownpages as markdown
from compat_register.statements.markdownpages import Readings
from compat_register.statements.sentences import may_hold_keyword
from compat_register.statements.statement import Statement


def unfiltered(read: object, *args: object) -> list[Statement]:
    """`read(*args)` with every text taken to hold a keyword."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown, "may_hold_keyword", lambda _: True)
        return read(*args)  # type: ignore[operator]


@pytest.mark.parametrize(
    "text",
    [
        "Clients MU**ST** retry.",
        "Clients **MU**ST retry.",
        "Clients MU<b></b>ST retry.",
        "Clients [MU](x)ST retry.",
        "Clients MU![i](y)ST retry.",
        "Clients &#77;UST retry.",
        "Clients M&#x55;ST retry.",
        "Clients MU{/* c */}ST retry.",
        "Clients SHOULD\nNOT retry.",
    ],
)
def test_a_keyword_the_markup_splits_is_one_the_pre_filter_lets_through(text: str) -> None:
    found = markdown.statements("p.mdx", text + "\n")
    assert found, "the parser reads a keyword here"
    assert may_hold_keyword(text)
    assert found == unfiltered(markdown.statements, "p.mdx", text + "\n")


def test_text_without_a_keyword_is_not_parsed_and_holds_none() -> None:
    for text in ("Clients must retry.", "MUS T", "**MCP**", "M U S T", "Ma**y**"):
        assert not may_hold_keyword(text), text
        assert unfiltered(markdown.statements, "p.mdx", text + "\n") == []


def test_no_named_character_reference_spells_an_ascii_capital() -> None:
    # The pre-filter's one assumption of the parser: a letter comes from a letter or `&#`.
    assert not [name for name, chars in entities.items() if any("A" <= c <= "Z" for c in chars)]


_PARTS = st.sampled_from(
    [
        "MUST",
        "MU",
        "ST",
        "M",
        "AY",
        "MA",
        "Y",
        "SHOU",
        "LD",
        "NOT",
        "OPTIONAL",
        "REQUI",
        "RED",
        "Clients ",
        "it ",
        "x",
        " ",
        ".",
        ":",
        "\n",
        "\n\n",
        "- ",
        "1. ",
        "> ",
        "    ",
        "**",
        "*",
        "_",
        "`",
        "``",
        "[",
        "]",
        "](u)",
        "![",
        "<b>",
        "</b>",
        "<!-- ",
        " -->",
        "&#77;",
        "&#x53;",
        "&amp;",
        "\\",
        "{/* ",
        " */}",
        "<Note>\n",
        "\n</Note>\n",
        "| ",
        " |",
        "\n|---|\n",
        "```\n",
        "# ",
        "\n[MU]: /u\n",
        "---\n",
    ]  # fmt: skip
)


@settings(max_examples=tiers.examples(400), deadline=None)
@given(st.lists(_PARTS, max_size=40).map("".join))
@example("Requests:\n\n- MU**ST** x\n- y\n\nClients MUST:\n\n- retry\n")
@example("[MU]\n\n[MU]: /u\n")
def test_the_pre_filter_changes_no_statement(text: str) -> None:
    assert markdown.statements("p.mdx", text) == unfiltered(markdown.statements, "p.mdx", text)


@settings(max_examples=tiers.examples(200), deadline=None)
@given(st.lists(st.lists(_PARTS, max_size=12).map("".join), min_size=1, max_size=4))
def test_what_one_run_keeps_changes_no_statement(pages: list[str]) -> None:
    readings = Readings()
    for number, page in enumerate(pages):
        path = f"p{number}.mdx"
        assert markdown.statements(path, page, 1, readings) == markdown.statements(path, page)


def test_a_link_label_reads_by_its_own_page_s_references() -> None:
    defined, undefined = "Clients [MUST] retry.\n\n[MUST]: /u\n", "Clients [MUST] retry.\n"
    for order in ((defined, undefined), (undefined, defined)):
        readings = Readings()
        texts = [[s.text for s in markdown.statements("p.md", t, 1, readings)] for t in order]
        assert texts == [[s.text for s in markdown.statements("p.md", t)] for t in order]
    assert markdown.statements("p.md", defined)[0].text == "Clients MUST retry."
    assert markdown.statements("p.md", undefined)[0].text == "Clients [MUST] retry."


def test_a_doc_comment_read_once_has_each_file_s_own_lines() -> None:
    comment = "/**\n * Senders MUST set it.\n */\nexport interface Request {}\n"
    first, second = comment, "// moved\n\n" + comment
    readings = Readings()
    lines = [
        [(s.path, s.line, s.heading) for s in extract.schema_statements(p, t, readings)]
        for p, t in (("a.ts", first), ("b.ts", second))
    ]
    assert lines == [[("a.ts", 2, "Request")], [("b.ts", 4, "Request")]]

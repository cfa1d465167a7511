"""Statements of Markdown and MDX pages: what the extraction counts and what it skips."""

from __future__ import annotations

from compat_register.citations.compare import quoted
from compat_register.statements.markdownpages import plain_markdown, statements


def found(text: str) -> list[tuple[int, int, str, str]]:
    return [(s.line, s.end, s.keyword, s.text) for s in statements("p.mdx", text)]


def test_a_keyword_in_bold_is_a_keyword_and_its_markup_is_dropped() -> None:
    assert found("Servers **MUST NOT** send `null`.\n") == [
        (1, 1, "MUST NOT", "Servers MUST NOT send null.")
    ]


def test_a_sentence_across_line_breaks_has_all_its_lines() -> None:
    text = "First sentence. Clients\n**SHOULD** retry after\na delay. Then more.\n"
    assert found(text) == [(1, 3, "SHOULD", "Clients SHOULD retry after a delay.")]


def test_each_sentence_is_its_own_statement_and_the_first_keyword_names_it() -> None:
    text = "A MAY do x, e.g. y. B MUST do z and SHOULD log it.\nC may do w.\n"
    assert found(text) == [
        (1, 1, "MAY", "A MAY do x, e.g. y."),
        (1, 1, "MUST", "B MUST do z and SHOULD log it."),
    ]


def test_keywords_only_in_capitals_and_as_whole_words() -> None:
    assert found("Clients must retry. MUSTARD is no keyword. NON-REQUIRED neither.\n") == []


def test_list_items_are_statements_and_a_lead_in_takes_its_list() -> None:
    text = (
        "Requests:\n\n- **MUST** include an ID.\n- MUST NOT reuse one.\n\n"
        "Clients MUST:\n\n- retry\n- log\n\nAfter.\n"
    )
    assert found(text) == [
        (3, 3, "MUST", "MUST include an ID."),
        (4, 4, "MUST NOT", "MUST NOT reuse one."),
        (6, 9, "MUST", "Clients MUST: retry log"),
    ]


def test_an_item_keeps_the_lead_in_of_its_list_as_its_context() -> None:
    text = (
        "Intro. **MCP Clients** that desire tokens:\n\n- **MUST** keep them\n"
        "- Servers:\n  - MAY drop them\n\nClients MUST:\n\n- retry, or SHOULD log\n\n"
        "After it, no context MUST remain.\n"
    )
    assert [(s.line, s.text, s.context) for s in statements("p.mdx", text)] == [
        (3, "MUST keep them", "MCP Clients that desire tokens:"),
        (5, "MAY drop them", "MCP Clients that desire tokens: Servers:"),
        (9, "retry, or SHOULD log", "Clients MUST:"),
        (7, "Clients MUST: retry, or SHOULD log", ""),
        (11, "After it, no context MUST remain.", ""),
    ]


def test_table_cells_are_statements_on_their_row() -> None:
    text = "| field | rule |\n|---|---|\n| `id` | REQUIRED. |\n| `x` | `MUST` in code |\n"
    assert found(text) == [(3, 3, "REQUIRED", "REQUIRED.")]


def test_code_is_never_a_statement() -> None:
    text = (
        '```json\n{"MUST": true}\n```\n\n    indented MUST code\n\n'
        "Inline `MUST` code, and `a\nSHOULD b` across lines.\n"
    )
    assert found(text) == []


def test_front_matter_comments_and_the_boilerplate_are_skipped() -> None:
    text = (
        "---\ntitle: MUST\n---\n\n<!-- MUST in a comment -->\n\n"
        "{/* SHOULD in a\nJSX comment */}\n\n"
        'The key words "MUST", "MUST NOT", "REQUIRED", "SHALL", "SHALL NOT", "SHOULD",\n'
        '"SHOULD NOT", "RECOMMENDED", "NOT RECOMMENDED", "MAY", and "OPTIONAL" in this\n'
        "document are to be interpreted as described in BCP 14 [RFC2119] [RFC8174] when,\n"
        "and only when, they appear in all capitals, as shown here.\n\n"
        "Text <!-- MUST --> and <b>html</b>. Done MAY.\n"
    )
    assert found(text) == [(15, 15, "MAY", "Done MAY.")]


def test_a_component_s_markdown_is_read_and_html_blocks_are_not() -> None:
    text = (
        "<Note>\n  Servers **MUST** reply.\n</Note>\n\n"
        '<div class="tsd-signature">Generated MUST</div>\n\n'
        "<Warning>\n\n    Deeply indented MAY, still prose in MDX.\n\n</Warning>\n"
    )
    assert found(text) == [
        (2, 2, "MUST", "Servers MUST reply."),
        (9, 9, "MAY", "Deeply indented MAY, still prose in MDX."),
    ]
    assert plain_markdown(text).count("\n") == text.count("\n")


def test_the_heading_and_its_anchor() -> None:
    text = (
        "# Top\n\n## The `_meta` field\n\nIt MUST be a map.\n\n"
        "## The `_meta` field\n\nIt MAY be empty.\n"
    )
    heads = [(s.heading, s.anchor) for s in statements("p.md", text)]
    assert heads == [
        ("The _meta field", "the-_meta-field"),
        ("The _meta field", "the-_meta-field-1"),
    ]


def test_a_line_break_inside_a_code_span_keeps_the_lines_after_it() -> None:
    text = "See `a\nb` here.\nThen it\nMUST hold.\n"
    assert found(text) == [(3, 4, "MUST", "Then it MUST hold.")]


def test_every_statement_s_text_is_on_its_lines_as_markdown_compares_them() -> None:
    text = "The **client** MUST send `id`\nfirst. Servers _MAY_ wait.\n"
    lines = text.split("\n")
    for s in statements("p.md", text):
        assert quoted(s.text, lines[s.line - 1 : s.end], "markdown"), s

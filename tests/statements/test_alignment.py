"""A suite's requirements aligned with the statements of small pages: each kind of
alignment, its scope, and the statements no requirement names."""

from __future__ import annotations

from compat_register.statements.alignment import Requirement, align, target, unnamed, words
from compat_register.statements.markdownpages import statements

BASE = "https://modelcontextprotocol.io/specification/draft/"
INDEX = """## Messages

Requests **MUST** include an ID. The ID MUST NOT be `null`.

Server implementors:

- MUST check the origin header.
- SHOULD log refusals.

Both fields are optional. They MUST NOT be sent twice.

## Errors

Servers SHOULD reply within ten seconds, and MAY batch replies.
"""
TOOLS = "## Calling\n\nClients MUST validate tool results against the output schema.\n"
PAGES = {
    "draft": statements("docs/specification/draft/basic/index.mdx", INDEX)
    + statements("docs/specification/draft/server/tools.mdx", TOOLS)
}


def aligned(text: str, url: str = BASE + "basic/index#messages") -> tuple[str, str, list[int]]:
    (found,) = align([Requirement("c", text, url)], PAGES)
    return found.how, found.scope, [s.line for s in found.statements]


def test_exact_markup_punctuation_and_the_suite_s_insertions_aside() -> None:
    assert aligned("Requests MUST include an ID.") == ("exact", "anchor", [3])
    assert aligned("The ID MUST NOT be “null” [for requests]") == ("exact", "anchor", [3])


def test_an_item_is_exact_with_the_lead_in_of_its_list() -> None:
    found = aligned("Server implementors MUST check the origin header.")
    assert found == ("exact", "anchor", [7])


def test_contained_in_a_statement_holds_it_whole_and_the_nearest_scope_is_named() -> None:
    (found,) = align(
        [
            Requirement(
                "c", "Servers SHOULD reply within ten seconds", BASE + "basic/index#messages"
            )
        ],
        PAGES,
    )
    assert (found.how, found.scope, found.whole) == ("contained", "page", True)


def test_two_sentences_span_two_statements() -> None:
    found = aligned("Requests MUST include an ID. The ID MUST NOT be null.")
    assert found == ("spanning", "anchor", [3, 3])


def test_a_statement_inside_the_requirement_is_contained_but_not_whole() -> None:
    (found,) = align(
        [
            Requirement(
                "c", "Both fields are optional. They MUST NOT be sent twice.", BASE + "basic/index"
            )
        ],
        PAGES,
    )
    assert (found.how, found.whole, found.statements[0].line) == ("contained", False, 10)


def test_a_rewording_elsewhere_in_the_revision_is_similar_with_its_ratio() -> None:
    (found,) = align(
        [
            Requirement(
                "c",
                "Clients MUST validate the tool results against their output schema.",
                BASE + "basic/lifecycle",
            )
        ],
        PAGES,
    )
    assert (found.how, found.scope) == ("similar", "revision")
    assert 0.6 <= found.ratio < 1
    assert found.statements[0].path.endswith("server/tools.mdx")


def test_none_and_outside_the_specification_s_pages() -> None:
    assert aligned("Servers MUST rotate their keys daily.")[0] == "none"
    assert (
        aligned("Clients MUST do x.", "https://github.com/o/ext-auth/blob/main/x.mdx")[0]
        == "outside"
    )
    assert (
        aligned("Clients MUST do x.", "https://modelcontextprotocol.io/specification/2020-01-01/x")[
            0
        ]
        == "outside"
    )


def test_unnamed_statements_of_the_pages_the_requirements_name() -> None:
    found = align([Requirement("c", "Requests MUST include an ID.", BASE + "basic/index")], PAGES)
    left = [(s.path.rsplit("/", 1)[1], s.line) for s in unnamed(found, PAGES)]
    assert left == [
        ("index.mdx", 3),
        ("index.mdx", 7),
        ("index.mdx", 8),
        ("index.mdx", 10),
        ("index.mdx", 14),
    ]


def test_a_url_names_its_revision_page_and_anchor() -> None:
    assert target(BASE + "basic/index#meta") == ("draft", "basic/index", "meta")
    assert target("https://modelcontextprotocol.io/seps/2243-x") is None
    assert words("`x-mcp-header` **MUST** [sic] hold.") == "x mcp header MUST hold"

"""Citations as text: line numbers, quotes, in-prose tokens, and claims globs."""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from compat_register.citations import compare, syntax
from compat_register.citations.syntax import (
    CitationSyntaxError,
    is_citation_path,
    parse_compact,
    parse_lines,
    prose_citations,
)
from compat_register.model.claims import Claim, Claims, claimants


def tokens(text: str) -> list[str]:
    return [match.group(0) for match in prose_citations(text)]


# --- line numbers -------------------------------------------------------------------------


@pytest.mark.parametrize("lines", ["1234567890", "1-1234567890", "9" * 5000])
def test_a_line_number_of_ten_digits_or_more_is_refused(lines: str) -> None:
    message = "number too large: a line number has at most 9 digits"
    with pytest.raises(CitationSyntaxError, match=message):
        parse_compact(f"internal/x.go:{lines}")
    with pytest.raises(CitationSyntaxError, match=message):
        parse_lines(lines)


def test_nine_digits_are_a_line_number() -> None:
    assert parse_compact("internal/x.go:999999999").end == 999999999
    assert parse_lines("1-999999999") == (1, 999999999)


def test_malformed_lines_are_a_syntax_error() -> None:
    with pytest.raises(CitationSyntaxError, match="malformed lines"):
        parse_lines("3-")


# --- quotes -------------------------------------------------------------------------------


@pytest.mark.parametrize("quote", ["“...”", '"…"', "“ ** ”", '"`` ``"', "“”"])
def test_a_quote_that_is_empty_once_normalised_is_refused(quote: str) -> None:
    with pytest.raises(CitationSyntaxError, match="empty quote"):
        parse_compact(f"internal/x.go:3 {quote}")


def test_a_truncated_quote_is_kept() -> None:
    assert parse_compact("internal/x.go:3 “func main...”").quote == "func main..."


# --- in prose -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "citation"),
    [
        ("internal/x", True),
        ("schema.ts", True),
        ("OPENCODE-V2.md", True),
        ("foo.test.ts", True),
        ("4.5", False),  # a ratio, 4.5:1
        ("v1.2", False),
        ("README", False),
        ("api.example.com", False),  # a host and its port
        ("example.org", False),
        ("x.IO", False),
    ],
)
def test_which_paths_make_a_citation(path: str, citation: bool) -> None:
    assert is_citation_path(path) is citation


def test_prose_citations_skip_ratios_hosts_addresses_code_and_urls() -> None:
    text = (
        "contrast 4.5:1, api.example.com:443, git@host.example.org:22, `internal/a.go:1`, "
        "https://example.org/internal/b.go:2 and [c](internal/c.go:3), "
        "but (internal/d.go:4-5) and v2:packages/e.ts:6"
    )
    assert tokens(text) == ["internal/d.go:4-5", "v2:packages/e.ts:6"]


def test_a_token_touching_a_backtick_or_after_a_backslash_is_no_citation() -> None:
    # rendered as a code span, its backticks would join the run or be escaped
    text = "a internal/a.go:1`, `internal/b.go:2, \\internal/c.go:3 and internal/d.go:4"
    assert tokens(text) == ["internal/d.go:4"]


# Text made of what citations, and what borders them, are made of: words, paths, colons,
# digits, and the characters the pattern's look-behind refuses before a citation.
citation_texts = st.text(alphabet=st.sampled_from("ab.go/:-_09 @`\\é\n\t(,"), max_size=60)


@given(text=citation_texts)
@example(text="a:b:c:12 spec:docs/x.md:3 x.go:1:2 @a.go:1 é.go:2 -a.go:3")
def test_the_fast_scan_finds_what_the_pattern_finds(text: str) -> None:
    # `_citation_matches` tries the pattern only at the start of a token holding `:DIGIT`
    expected = [m.span() for m in syntax.PROSE_CITATION.finditer(text)]
    assert [m.span() for m in syntax._citation_matches(text)] == expected


@given(text=st.text(alphabet=st.sampled_from("`*_ aé1.-\n\t\u00a0\u2028“”’"), max_size=40))
@example(text="a`_b `_x_` __init__ **SHOULD NOT** _em_ snake_case_ ")
def test_markdown_text_drops_markup_and_runs_of_space_as_first_written(text: str) -> None:
    # the rule in its plainest regular expressions: the faster forms must agree with it
    markup = re.sub(r"`+|\*+|(?<!\w)_+|_+(?!\w)", "", text.translate(compare.QUOTE_MAP))
    assert compare.markdown_text(text) == re.sub(r"\s+", " ", markup).strip()


# --- claims -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("glob", "path", "claimed"),
    [
        ("internal/**/handler.go", "internal/handler.go", True),
        ("internal/**/handler.go", "internal/a/b/handler.go", True),
        ("internal/**/handler.go", "internal/myhandler.go", False),
        ("internal/**/handler.go", "internal/a/myhandler.go", False),
        ("**/x.go", "x.go", True),
        ("**/x.go", "a/b/x.go", True),
        ("**/x.go", "ax.go", False),
        ("internal/**", "internal/a/b.go", True),
        ("internal/*", "internal/a/b.go", False),
        ("internal/*.go", "internal/a.go", True),
        ("schema/?.ts", "schema/a.ts", True),
        ("schema/[ab].ts", "schema/c.ts", False),
    ],
)
def test_claims_globs(glob: str, path: str, claimed: bool) -> None:
    found = claimants(path, {"src": (Claim(glob, "repo/"),)})
    assert found == ([("src", "repo/" + path)] if claimed else [])


def test_claimants_of_several_sources_first_matching_claim_each() -> None:
    claims = Claims(
        {
            "a": (Claim("x/**", "one/"), Claim("**/*.go", "two/")),
            "b": (Claim("**/*.ts"),),
            "c": (Claim("x/*.go"),),
        }
    )
    assert claimants("x/y.go", claims) == [("a", "one/x/y.go"), ("c", "x/y.go")]
    assert claimants("z.ts", claims) == [("b", "z.ts")]
    assert claims["b"] == (Claim("**/*.ts"),)


def test_prose_citations_with_ranges_to_skip_of_the_callers_own() -> None:
    text = "see internal/a.go:3 and no colon here"
    assert tokens(text) == ["internal/a.go:3"]
    assert list(prose_citations(text, [(0, len(text))])) == []  # all of it skipped
    assert tokens(text) == ["internal/a.go:3"]  # the field's own reading is unchanged
    assert tokens("a field without a colon, internal/a.go") == []

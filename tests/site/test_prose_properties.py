"""Property: whatever an entry's prose holds, the page Python-Markdown makes of it runs nothing.

`markdown.prose` predicts where Python-Markdown will see code, links and HTML; these tests
hold that model to the parser actually installed (CI also runs them against the lowest
Markdown and pymdown-extensions that pyproject.toml allows). Prose is drawn from the pieces
that matter to the parse: backtick and tilde runs, fences, brackets, parentheses, `<`, `>`,
quotes, `{:`, `]:`, indentation and blank lines, next to script, handler and URL payloads.
Each text is put where the templates put prose (a list item after `**What.**`, a table cell,
a paragraph of its own), converted with the site's extensions, read as a browser reads it
(`pagehtml.live`), and checked against the sanitizer's allowlist (`pagehtml.hostile`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import tiers
from compat_register import api
from compat_register.site import formatter
from compat_register.site import renderer as render
from compat_register.site import urls as layout
from compat_register.site.markdown import Linker
from pagehtml import hostile, live, to_html

GOLDEN = Path(__file__).parent.parent / "golden" / "basic" / "registers"

PIECES = [
    "`",
    "``",
    "```",
    "~~~",
    "\n",
    "\n\n",
    "    ",
    "  ",
    " ",
    "- ",
    "> ",
    "1. ",
    "# ",
    "|",
    "[",
    "]",
    "(",
    ")",
    "![",
    "](",
    "]:",
    "<",
    ">",
    "/",
    '"',
    "'",
    "{:",
    "{",
    "}",
    "&",
    "#x61;",
    "\\",
    "*",
    "_",
    "=",
    ":",
    "!",
    "<!--",
    "-->",
    "<noscript>",
    "</noscript>",
    "<script>",
    "</script>",
    "<img src=x onerror=window.__pwned=1>",
    "onerror=",
    "onclick=",
    "<a href=",
    "javascript:",
    "java\tscript:",
    "data:text/html,",
    "https://e.org/",
    "window.__pwned=1",
    "x",
    "ALP-01",
    "BET-01",
    "LV-19",
    "SEP-414",
    "internal/server.go:40",
    "schema/2024-11-05/schema.ts:9",
    "<https://e.org/a>",
]

prose_texts = st.lists(st.sampled_from(PIECES), max_size=24).map("".join)


@pytest.fixture(scope="module")
def alpha_formatter() -> formatter.PageFormatter:
    registers = api.check(GOLDEN).registers
    pages = {e.id: f"registers/{r.slug}.md" for r in registers.registers for e in r.entries}
    citations = render.prose_citations(registers)
    linker = Linker(registers.sources, pages, "registers/alpha.md", layout.relative, citations)
    return formatter.PageFormatter("registers/alpha.md", linker)


def pages_of(text: str, fmt: formatter.PageFormatter) -> dict[str, str]:
    """The text where the templates put prose: an entry field, a table cell, a summary."""
    return {
        "item": f"- **What.** {fmt.item(text)}\n- **Risk.** after\n",
        "cell": f"| A | B |\n|---|---|\n| {fmt.cell(text)} | end |\n",
        "paragraph": f"# T\n\n{fmt.prose(text)}\n\nStatus column: x.\n",
    }


SETTINGS = settings(
    max_examples=tiers.examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@SETTINGS
@given(text=prose_texts)
@example(text="[](:)")  # a path, not a scheme: the browser resolves it relative
@example(text="<!-- <img src=x onerror=window.__pwned=1> -->")
@example(text='<noscript><p title="</noscript><img src=x onerror=window.__pwned=1>">')
@example(text="```\n<img src=x onerror=window.__pwned=1>\n```")
@example(text="w`````|`\n`<img src=x onerror=window.__pwned=1>`")
@example(text="[x](java\tscript:window.__pwned=1) [y]: javascript:window.__pwned=1")
def test_no_prose_runs_a_script(text: str, alpha_formatter: formatter.PageFormatter) -> None:
    for where, page in pages_of(text, alpha_formatter).items():
        html = to_html(page)
        assert live(html) == [], (where, page)
        assert hostile(html) == [], (where, page)


@SETTINGS
@given(text=prose_texts)
@example(text="\\|")  # an author's escaped pipe: found by this test on Markdown 3.6
@example(text="a \\\\| b `c | d` | e")
def test_a_cell_stays_one_cell(text: str, alpha_formatter: formatter.PageFormatter) -> None:
    """No `|` or line break from prose splits the overview's row."""
    html = to_html(pages_of(text, alpha_formatter)["cell"])
    assert html.count("<td") == 2 and "<td>end</td>" in html, html

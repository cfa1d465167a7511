"""An excerpt highlighted by Pygments directly is the HTML that Python-Markdown makes of the
same block, as a fenced block, with the site's extensions and highlighting options: what
every excerpt was before (one Markdown conversion each), and what the site's own code
blocks are. Both cleaned alike (`sanitize.clean_excerpt`)."""

from __future__ import annotations

from typing import Any

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st

import tiers
from compat_register.site import sanitize
from compat_register.site.excerpts import HIGHLIGHT, TAB_LENGTH, Block, Highlighter
from compat_register.site.extensions import MARKDOWN_EXTENSIONS

OPTIONS: list[dict[str, Any]] = [
    {},
    {"linenums_style": "pymdownx-inline"},
    {"linenums_style": "inline", "linenums_special": 2},
    {"pygments_style": "monokai", "noclasses": True},
    {"css_class": "codehilite", "language_prefix": "lang-"},
    {"pygments_lang_class": False},
    {
        "extend_pygments_lang": [
            {"name": "php-inline", "lang": "php", "options": {"startinline": True}}
        ]
    },
]
LANGUAGES = [
    "python",
    "go",
    "text",
    "markdown",
    "html",
    "yaml",
    "json",
    "c",
    "php-inline",
    "no-such",
]
LINE = st.text(alphabet=st.sampled_from(list("ab1 \t<>&\"'`#/*{}:=-_é漢")), max_size=30)


def site_configs(options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {**MARKDOWN_EXTENSIONS, HIGHLIGHT: {**MARKDOWN_EXTENSIONS[HIGHLIGHT], **options}}


def through_markdown(block: Block, configs: dict[str, dict[str, Any]]) -> str:
    """The block's Markdown as a page of the site converts it, its blank edge lines kept
    (`stripnl: false`, as excerpts are highlighted)."""
    keeping = {**configs, HIGHLIGHT: {**configs[HIGHLIGHT], "stripnl": False}}
    converter = markdown.Markdown(extensions=list(configs), extension_configs=keeping)
    return sanitize.clean_excerpt(converter.convert(block.markdown()))


@st.composite
def blocks(draw: st.DrawFn) -> Block:
    lines = draw(st.lists(LINE, min_size=1, max_size=8))
    # Python-Markdown empties a line of spaces before anything reads it: both ways show it
    # blank (tests/site/test_excerpt_lines.py reads such lines back as a reader sees them).
    lines = ["" if not line.expandtabs(TAB_LENGTH).strip(" ") else line for line in lines]
    low = draw(st.integers(1, len(lines)))
    high = draw(st.integers(low, len(lines)))
    first = draw(st.integers(1, 5000))
    return Block(draw(st.sampled_from(LANGUAGES)), first, (low, high), tuple(lines))


@settings(max_examples=tiers.examples(300), deadline=None)
@given(block=blocks(), options=st.sampled_from(OPTIONS))
def test_an_excerpt_is_what_markdown_makes_of_its_block(
    block: Block, options: dict[str, Any]
) -> None:
    configs = site_configs(options)
    assert Highlighter(configs=configs).html(block) == through_markdown(block, configs)


def test_one_highlighter_gives_each_block_its_own_lines_and_marks() -> None:
    """The formatter is made once and copied per block: no block's numbers or marks leak
    into the next one's."""
    highlighter = Highlighter()
    one = Block("go", 10, (2, 2), ("a", "b", "c"))
    two = Block("go", 500, (1, 3), ("x", "y", "z"))
    for block in (one, two, one):
        assert highlighter.html(block) == through_markdown(block, MARKDOWN_EXTENSIONS)

"""The search plugin's `separator`: the words an entry's text is indexed as. An ID splits
where the search box's query parser splits it (META-07: META and 07), a path at `/`, and a
`-` between digits stays on the number after it, so a date or a line range holds no bare
number for an ID's to match. This repository's mkdocs.yml and a `register init` project's
use the same one, on both engines."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
import yaml

from compat_register.scaffold import newproject
from compat_register.site.extensions import SEARCH_SEPARATOR

REPO = Path(__file__).resolve().parents[2]


def words(text: str) -> list[str]:
    return [word for word in re.split(SEARCH_SEPARATOR, text) if word]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("META-07 traceparent", ["META", "07", "traceparent"]),
        ("Coverage of 2024-11-05", ["Coverage", "of", "2024", "-11", "-05"]),  # no bare 05
        (
            "mcp/protocol.go:2363-2379 @ 3d6450f",
            ["mcp", "protocol.go", "2363", "-2379", "@", "3d6450f"],
        ),
        ("per-hop, end-to-end.", ["per", "hop", "end", "to", "end"]),
        ("io.modelcontextprotocol/ keys", ["io.modelcontextprotocol", "keys"]),
        (
            "Created 2026-09-30T08:00:00-05:00",
            ["Created", "2026", "-09", "-30T08", "00", "00", "-05", "00"],
        ),
    ],
)
def test_the_words_a_text_is_indexed_as(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def _separator(config: str) -> str:
    search = [p for p in yaml.safe_load(config)["plugins"] if isinstance(p, dict) and "search" in p]
    return str(search[0]["search"]["separator"])


@pytest.mark.parametrize("engine", ["mkdocs", "zensical"])
def test_a_new_project_and_this_repository_use_the_one_separator(engine: str) -> None:
    texts = newproject.files("n", datetime.date(2026, 1, 1), engine)
    assert _separator(texts["mkdocs.yml"]) == SEARCH_SEPARATOR
    own = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert _separator(own) == SEARCH_SEPARATOR

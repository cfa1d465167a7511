"""A revision's changelog -> its items (each of a top-level list, under its heading),
through markdown-it-py. Pure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .markdownpages import inline_pieces, parse, plain_markdown


@dataclass(frozen=True)
class Item:
    """One change a changelog lists."""

    path: str
    line: int
    end: int
    text: str
    heading: str


def items(path: str, text: str) -> list[Item]:
    """The items of every top-level list of a changelog page, in order."""
    tokens, env = parse(plain_markdown(text))
    found: list[Item] = []
    heading, depth = "", 0
    current: tuple[int, int, list[str]] | None = None
    for index, token in enumerate(tokens):
        if token.type == "inline" and index and tokens[index - 1].type == "heading_open":
            heading = _plain(token.content, env)
        elif token.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
        elif token.type == "list_item_open" and depth == 1 and token.map:
            current = (token.map[0] + 1, token.map[1], [])
        elif token.type == "list_item_close" and depth == 1 and current is not None:
            found.append(Item(path, current[0], current[1], " ".join(current[2]), heading))
            current = None
        elif token.type == "inline" and current is not None:
            current[2].append(_plain(token.content, env))
    return found


def _plain(content: str, env: dict[str, Any]) -> str:
    return " ".join("".join(p.text for p in inline_pieces(content, 0, env)).split())

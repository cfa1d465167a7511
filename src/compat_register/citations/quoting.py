"""A string quoted for another language (pure): a one-line YAML scalar, plain when YAML
reads it back as written, else single-quoted, else double-quoted; or a Markdown code span."""

from __future__ import annotations

import json
import re

import yaml

_STR_TAGS = ("tag:yaml.org,2002:str", "tag:yaml.org,2002:timestamp")
"""Plain scalars the loader keeps as the text written (it keeps dates as strings too)."""
_INDICATORS = set("-?:,[]{}#&*!|>'\"%@`")
_FLOW_UNSAFE = set(",[]{}")
_RESOLVER = yaml.resolver.Resolver()


def yaml_scalar(text: str) -> str:
    """`text` as a YAML scalar on one line: plain, single-quoted or double-quoted."""
    if plain_ok(text):
        return text
    return single_quoted(text) if one_line(text) else json.dumps(text, ensure_ascii=False)


def plain_ok(text: str, flow: bool = False) -> bool:
    """Whether YAML reads `text` back, written as a plain scalar, as exactly this string
    (inside a flow collection, `[...]` or `{...}`, when `flow`)."""
    if not one_line(text) or text[0] in _INDICATORS:
        return False
    if ": " in text or " #" in text or text.endswith(":"):
        return False
    if flow and (_FLOW_UNSAFE & set(text)):
        return False
    return _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) in _STR_TAGS


def one_line(text: str) -> bool:
    """Whether single quotes hold `text` on one line as it is."""
    return bool(text) and text.isprintable() and text == text.strip()


def single_quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def code_span(text: str) -> str:
    """`text` as a one-line Markdown code span its own backticks cannot close (a break in
    it could start a block before the span closes)."""
    text = " ".join(text.splitlines())
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"

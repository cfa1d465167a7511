"""The escaping policy of the generated Markdown: what a template prints is safe.

What a formatter returns is safe Markdown (`Markup`, printed as it is); anything else a
template prints is escaped as plain Markdown text by the environment's `finalize`
(`escape_value`). Inside raw HTML a template uses `| e` (HTML-escaped `Markup`).
"""

from __future__ import annotations

from typing import Any

import yaml
from markupsafe import Markup

from .markdown import escape_inline


class Trusted:
    """A formatter as a template sees it (`fmt`, `view`): every string one of its methods
    returns is marked safe Markdown."""

    def __init__(self, target: Any) -> None:
        self._target = target

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if not callable(value):
            return value
        return lambda *args, **kwargs: trusted(value(*args, **kwargs))


def trusted(value: Any) -> Any:
    """`value` marked safe Markdown: a string, or each string of a list."""
    if isinstance(value, str):
        return Markup(value)
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return [Markup(item) for item in value]
    return value


def escape_value(value: Any) -> str:
    """The environment's `finalize`: a value not marked safe, as Markdown showing its text."""
    if isinstance(value, Markup):
        return str(value)
    text = str(value)
    return text if not text.strip() else escape_inline(text)


def front_matter(meta: dict[str, Any]) -> str:
    """A YAML front matter block (material reads `tags` and `search` from it)."""
    if not meta:
        return ""
    return Markup("---\n" + yaml_lines(meta) + "---\n")


def yaml_lines(meta: dict[str, Any]) -> str:
    """`meta` as lines of YAML front matter (none when it is empty)."""
    return yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) if meta else ""

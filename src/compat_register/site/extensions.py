"""The Markdown extensions the register pages are written for: the one list of them.

The pages use admonitions and details (excerpts), attribute lists (entry anchors), tables,
a table of contents with permalinks, and highlighted fences. A site's mkdocs.yml names these;
`register init` writes them, and the tests render pages through exactly these.
"""

from __future__ import annotations

from typing import Any

MARKDOWN_EXTENSIONS: dict[str, dict[str, Any]] = {
    "admonition": {},
    "attr_list": {},
    "tables": {},
    "toc": {"permalink": True},
    "pymdownx.details": {},
    "pymdownx.highlight": {
        "anchor_linenums": False,
        "line_spans": "__span",
        "pygments_lang_class": True,
    },
    "pymdownx.inlinehilite": {},
    "pymdownx.superfences": {},
}
"""Extension name -> its options, as mkdocs.yml's `markdown_extensions` would give them."""


def mkdocs_yaml() -> str:
    """The `markdown_extensions:` section of a mkdocs.yml that names every extension."""
    lines = ["markdown_extensions:"]
    for name, options in MARKDOWN_EXTENSIONS.items():
        if not options:
            lines.append(f"  - {name}")
            continue
        lines.append(f"  - {name}:")
        lines += [f"      {key}: {_yaml_scalar(value)}" for key, value in options.items()]
    return "\n".join(lines) + "\n"


def _yaml_scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)

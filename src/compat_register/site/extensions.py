"""The Markdown extensions the register pages are written for: `register init` writes them
into mkdocs.yml and the plugin adds any a site leaves out."""

from __future__ import annotations

from typing import Any

from .values import ExtensionConflict

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


SEARCH_SEPARATOR = (
    r"""[\s,;:!?=()\[\]{}<>"“”‘’|*`/]+|-(?!\d)|(?<!\d)-|(?<=\d)(?=-\d)|\.(?=\s|$)|&[lg]t;|&amp;"""
)
"""The search plugin's `separator` `register init` writes (docs/site.md, Search): a `.` only
where a sentence ends, so paths and dotted keys are found as typed; a `-` between digits
(a date, a line range) stays on the number after it, so the `05` of `PYM-05` never matches
`2024-11-05`."""


def mkdocs_yaml() -> str:
    """The `markdown_extensions:` section of a mkdocs.yml that names every extension."""
    lines = ["markdown_extensions:"]
    for name, options in MARKDOWN_EXTENSIONS.items():
        lines.append(f"  - {name}:" if options else f"  - {name}")
        lines += [f"      {key}: {_yaml_scalar(value)}" for key, value in options.items()]
    return "\n".join(lines) + "\n"


LOOKS_ONLY = {("toc", "permalink")}
"""(extension, option) pairs that change only how a page looks: a site's own value stays."""

BUILTIN_PREFIX = "markdown.extensions."
"""Python-Markdown's own extensions answer to `toc` and to `markdown.extensions.toc`."""


def complete(names: list[Any], configs: dict[str, dict[str, Any]]) -> list[str]:
    """Add to a site's `markdown_extensions` (`names`, options in `configs`) what the pages
    need, in place, and return the extensions added; ExtensionConflict when a site sets an
    option (not LOOKS_ONLY) to another value."""
    present = {n.removeprefix(BUILTIN_PREFIX): n for n in names if isinstance(n, str)}
    added = []
    for name, needed in MARKDOWN_EXTENSIONS.items():
        if name not in present:
            names.append(name)
            added.append(name)
        options = configs.setdefault(present.get(name, name), {})
        for option, value in needed.items():
            if (name, option) in LOOKS_ONLY:
                options.setdefault(option, value)
            elif options.setdefault(option, value) != value:
                raise ExtensionConflict(
                    f"markdown_extensions: {name}: {option} is {options[option]!r}, but the "
                    f"register pages are written for {option}: {_yaml_scalar(value)}; "
                    "remove the option (the register plugin sets it) or set it so"
                )
    return added


def _yaml_scalar(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)

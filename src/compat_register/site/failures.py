"""Pages for register files that do not load, so that `mkdocs serve` shows why.

Takes, by slug, the problems of each register file that did not load, and the last
rendering of its page when there was one; gives that page with the problems on top (or
the problems alone), and a notice for the overview and health pages naming the failed
registers. Pure: Markdown strings in, Markdown strings out.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from ..model.diagnostic import Diagnostic
from .markdown import escape_inline, url_path


def failed_page(slug: str, problems: list[Diagnostic], last: str | None) -> str:
    """The page of a register that does not load: its problems, then its last rendering."""
    file = problems[0].file if problems else slug
    lines = [d.as_text() for d in problems]
    if last is None:
        return f"# {escape_inline(slug)}\n\n" + _admonition(f"{file} does not load", lines)
    title = f"{file} does not load: below is this page as it was last rendered"
    return after_heading(last, _admonition(title, lines))


def failures_notice(failed: Mapping[str, list[Diagnostic]], links: Mapping[str, str]) -> str:
    """A notice naming each register that did not load, linking its page (`links`: slug ->
    relative link), for the overview and health pages."""
    lines = [
        f"[{escape_inline(slug)}]({url_path(links[slug])}): "
        f"{len(problems)} {_problems(len(problems))}"
        for slug, problems in sorted(failed.items())
    ]
    title = "These registers do not load; their entries and citations are not counted here"
    return _admonition(title, lines, code=False)


def _problems(number: int) -> str:
    return "problem" if number == 1 else "problems"


def link(target: str, page: str) -> str:
    """The relative link from `page` to `target` (both relative to the docs dir)."""
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def after_heading(page: str, block: str) -> str:
    """`page` with `block` after its first `# ` heading (at the top when it has none)."""
    lines = page.splitlines(keepends=True)
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("# ")), 0)
    return "".join(lines[:at]) + ("\n" if at else "") + block + "\n" + "".join(lines[at:])


def _admonition(title: str, items: list[str], code: bool = True) -> str:
    """A failure admonition; with `code`, each item is shown as written (an indented code
    block: a message quoting the YAML cannot turn into Markdown)."""
    # The title is read as Markdown, inline HTML included: a file named `a<b>.yaml` is text.
    escaped = escape_inline(title).replace('"', "&quot;")
    if code:
        body = "".join(f"        {item}\n" for item in items)
    else:
        body = "".join(f"    - {item}\n" for item in items)
    return f'!!! failure "{escaped}"\n\n{body}'

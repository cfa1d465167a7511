"""Pages for register files that do not load, so that the site (and `mkdocs serve`) shows why.

Takes, by slug, the problems of each register file that did not load; gives its page with
the problems, and a notice for the overview and health pages naming the failed registers.
A page that does not load shows its problems alone, not its last rendering: a site built
after an edit is the site a cold build makes. Pure: Markdown in, Markdown out.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..model.diagnostic import Diagnostic
from .markdown import escape_inline, url_path
from .urls import Layout, relative


def failure_pages(
    failed: Mapping[str, list[Diagnostic]], layout: Layout, pages: Mapping[str, str]
) -> dict[str, str]:
    """The pages of registers that do not load, and the overview and health pages (from
    `pages`) with a notice naming them."""
    if not failed:
        return {}
    built = {layout.page_of(slug): failed_page(slug, found) for slug, found in failed.items()}
    for page in (layout.overview, layout.health):
        links = {slug: relative(layout.page_of(slug), page) for slug in failed}
        built[page] = after_heading(pages[page], failures_notice(failed, links))
    return built


def failed_page(slug: str, problems: list[Diagnostic]) -> str:
    """The page of a register that does not load: its problems."""
    file = problems[0].file if problems else slug
    lines = [d.as_text() for d in problems]
    return f"# {escape_inline(slug)}\n\n" + _admonition(f"{file} does not load", lines)


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

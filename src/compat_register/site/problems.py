"""Problems shown on the pages, where the author looks. A register file that does not load
gets a page of its problems, named on the overview and health pages; one that loads with
errors or warnings shows each at its entry (or under its title), counted on the overview."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..model.diagnostic import Diagnostic
from ..model.registers import Register, RegisterSet
from .markdown import code_span, escape_inline, url_path
from .urls import Layout, relative
from .values import site_level


def failure_pages(
    failed: Mapping[str, list[Diagnostic]], layout: Layout, pages: Mapping[str, str]
) -> dict[str, str]:
    """The pages of registers that do not load, their problems as written in an indented
    code block (a message quoting the YAML cannot turn into Markdown), and the overview and
    health pages (from `pages`) naming them."""
    if not failed:
        return {}
    built = {}
    for slug, found in failed.items():
        file = found[0].file if found else slug
        body = "".join(f"        {d.as_text()}\n" for d in found)
        notice = _admonition("failure", f"{file} does not load")
        built[layout.page_of(slug)] = f"# {escape_inline(slug)}\n\n{notice}{body}"
    title = "These registers do not load; their entries and citations are not counted here"
    items = {slug: _counted(len(found), "problem") for slug, found in failed.items()}
    for page in (layout.overview, layout.health):
        built[page] = after_heading(pages[page], _linked("failure", title, items, layout, page))
    return built


def problem_pages(
    registers: RegisterSet, diagnostics: list[Diagnostic], layout: Layout, pages: dict[str, str]
) -> dict[str, str]:
    """The pages of registers that load with errors or warnings (not the site's info
    notices), and the overview (from `pages`) counting them."""
    built, counts = {}, {}
    for register in registers.registers:
        found = [d for d in diagnostics if d.file == register.file and site_level(d) != "info"]
        page = layout.page_of(register.slug)
        if found and page in pages:
            built[page] = with_problems(pages[page], register, found)
            counts[register.slug] = _counted(len(found), "problem")
    if not built:
        return {}
    have = "has" if len(counts) == 1 else "have"
    title = f"{_counted(len(counts), 'register page')} {have} problems, shown on the page"
    notice = _linked("warning", title, counts, layout, layout.overview)
    built[layout.overview] = after_heading(pages[layout.overview], notice)
    return built


def with_problems(page: str, register: Register, problems: list[Diagnostic]) -> str:
    """`page` with each problem under the heading of the entry its ID names, the rest (and
    an entry's whose heading a site's template writes otherwise) under the title."""
    ids = {entry.id for entry in register.entries}
    left = [d for d in problems if d.id not in ids]
    entries: dict[str, list[Diagnostic]] = {}
    for diagnostic in problems:
        if diagnostic.id in ids:
            entries.setdefault(diagnostic.id, []).append(diagnostic)
    lines = page.splitlines(keepends=True)
    wanted = {entry.anchor: entry.id for entry in register.entries}
    headings: dict[str, int] = {}  # entry ID -> its heading line (`## ID Title { #anchor }`)
    for index, line in enumerate(lines):
        if (match := _HEADING.match(line)) and match["anchor"] in wanted:
            headings.setdefault(wanted[match["anchor"]], index)
    for entry_id, found in entries.items():
        at = headings.get(entry_id)
        if at is None:
            left.extend(found)
        else:
            lines[at] = lines[at] + "\n" + block(found, f"{entry_id} has") + "\n"
    text = "".join(lines)
    return after_heading(text, block(left, "This register has")) if left else text


_HEADING = re.compile(r"#{2,6} .*\{ #(?P<anchor>[^\s}]+) \}\s*$")


def block(problems: list[Diagnostic], whose: str) -> str:
    """An admonition listing `problems` as `register check` prints them (a failure when one
    is an error): the place as code, the message as plain text."""
    kind = "failure" if any(site_level(d) == "error" for d in problems) else "warning"
    them = "it" if len(problems) == 1 else "them"
    title = f"{whose} {_counted(len(problems), 'problem')} (mkdocs build --strict fails on {them})"
    body = "".join(f"    - {_line(d)}\n" for d in problems)
    return _admonition(kind, title) + body


def _line(d: Diagnostic) -> str:
    place = code_span(f"{d.file}:{d.line}:{d.col}")
    return f"{place} {escape_inline(f'{d.severity}: {d.message}')}"


def _linked(kind: str, title: str, items: Mapping[str, str], layout: Layout, page: str) -> str:
    """A notice on `page` listing each register (`items`: slug -> what is said of it),
    linked, in order of slug."""
    lines = "".join(
        f"    - [{escape_inline(slug)}]({url_path(relative(layout.page_of(slug), page))}): "
        f"{items[slug]}\n"
        for slug in sorted(items)
    )
    return _admonition(kind, title) + lines


def _admonition(kind: str, title: str) -> str:
    # The title is read as Markdown, inline HTML included, inside quotes.
    escaped = escape_inline(title).replace('"', "&quot;")
    return f'!!! {kind} "{escaped}"\n\n'


def after_heading(page: str, block: str) -> str:
    """`page` with `block` after its first `# ` heading (at the top when it has none)."""
    lines = page.splitlines(keepends=True)
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("# ")), 0)
    return "".join(lines[:at]) + ("\n" if at else "") + block + "\n" + "".join(lines[at:])


def _counted(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"

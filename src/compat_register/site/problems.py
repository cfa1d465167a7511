"""The problems of a register that loads, shown on its page where the author looks.

A register with a dedented key, a misspelt one or a reference to an ID that does not exist
still loads, and its page renders as if it were valid: the mis-keyed field is simply not
there. So under `mkdocs serve` (and in any build that is not strict, which would stop on
them) each error and warning the site logs is also shown on the page: at the entry it
belongs to, under its heading, and the register's own ones under the title; the overview
says how many pages have problems. Pure: a page's Markdown and diagnostics in, Markdown out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..model.diagnostic import Diagnostic
from ..model.registers import Register, RegisterSet
from .failures import after_heading
from .levels import site_level
from .markdown import code_span, escape_inline, url_path
from .urls import Layout, relative


@dataclass(frozen=True)
class Shown:
    """The problems of one register page: its own, and each entry's by ID."""

    page: list[Diagnostic]
    entries: dict[str, list[Diagnostic]]

    @property
    def count(self) -> int:
        return len(self.page) + sum(map(len, self.entries.values()))


def problem_pages(
    registers: RegisterSet, diagnostics: list[Diagnostic], layout: Layout, pages: dict[str, str]
) -> dict[str, str]:
    """The pages of registers that load but have errors or warnings, each shown at its
    entry, and the overview (from `pages`) saying how many pages have them."""
    shown = {}
    for register in registers.registers:
        found = of_register(register, diagnostics)
        if found.count and layout.page_of(register.slug) in pages:
            shown[register.slug] = (register, found)
    if not shown:
        return {}
    built = {
        layout.page_of(slug): with_problems(pages[layout.page_of(slug)], *pair)
        for slug, pair in shown.items()
    }
    links = {slug: relative(layout.page_of(slug), layout.overview) for slug in shown}
    counts = {slug: found.count for slug, (_, found) in shown.items()}
    notice = overview_notice(counts, links)
    built[layout.overview] = after_heading(pages[layout.overview], notice)
    return built


def of_register(register: Register, diagnostics: Iterable[Diagnostic]) -> Shown:
    """The errors and warnings (not the site's info notices) in `register`'s file, each at
    its entry when its ID names one, else the page's."""
    ids = {entry.id for entry in register.entries}
    page: list[Diagnostic] = []
    entries: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if diagnostic.file != register.file or site_level(diagnostic) == "info":
            continue
        if diagnostic.id in ids:
            entries.setdefault(diagnostic.id, []).append(diagnostic)
        else:
            page.append(diagnostic)
    return Shown(page, entries)


def with_problems(page: str, register: Register, shown: Shown) -> str:
    """`page` with each entry's problems under its heading, and the rest under the title
    (with those of an entry whose heading a site's own template does not write as ours)."""
    lines = page.splitlines(keepends=True)
    headings = _entry_headings(lines, register)
    left = list(shown.page)
    for entry_id, problems in shown.entries.items():
        at = headings.get(entry_id)
        if at is None:
            left.extend(problems)
            continue
        lines[at] = lines[at] + "\n" + block(problems, f"{entry_id} has") + "\n"
    text = "".join(lines)
    return after_heading(text, block(left, "This register has")) if left else text


def _entry_headings(lines: list[str], register: Register) -> dict[str, int]:
    """Entry ID -> the index of its heading line (`## ID Title { #anchor }`)."""
    wanted = {entry.anchor: entry.id for entry in register.entries}
    found: dict[str, int] = {}
    for index, line in enumerate(lines):
        match = _HEADING.match(line)
        if match and match["anchor"] in wanted:
            found.setdefault(wanted[match["anchor"]], index)
    return found


_HEADING = re.compile(r"#{2,6} .*\{ #(?P<anchor>[^\s}]+) \}\s*$")


def block(problems: list[Diagnostic], whose: str) -> str:
    """An admonition listing `problems` as `register check` prints them (a failure when
    one is an error, else a warning): the place as code, the message as plain text (one
    quoting the YAML cannot turn into Markdown), wrapping on a narrow screen."""
    errors = sum(site_level(d) == "error" for d in problems)
    kind = "failure" if errors else "warning"
    them = "it" if len(problems) == 1 else "them"
    title = f"{whose} {_counted(len(problems), 'problem')} (mkdocs build --strict fails on {them})"
    body = "".join(f"    - {_line(d)}\n" for d in problems)
    return f'!!! {kind} "{_title(title)}"\n\n{body}'


def _line(d: Diagnostic) -> str:
    place = code_span(f"{d.file}:{d.line}:{d.col}")
    return f"{place} {escape_inline(f'{d.severity}: {d.message}')}"


def overview_notice(counts: Mapping[str, int], links: Mapping[str, str]) -> str:
    """The overview's notice: how many register pages show problems, each linked."""
    items = "".join(
        f"    - [{escape_inline(slug)}]({url_path(links[slug])}): "
        f"{_counted(counts[slug], 'problem')}\n"
        for slug in sorted(counts)
    )
    pages = _counted(len(counts), "register page")
    title = f"{pages} {'has' if len(counts) == 1 else 'have'} problems, shown on the page"
    return f'!!! warning "{_title(title)}"\n\n{items}'


def _title(text: str) -> str:
    # An admonition's title is read as Markdown, inline HTML included, inside quotes.
    return escape_inline(text).replace('"', "&quot;")


def _counted(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"

"""The Matrix page, a page per concept and the badges: one matrix (`views.conceptmatrix`)
drawn three ways. A badge is shields-style SVG: a grey label, then a part per state, its
state in words (the colour only repeats it); a subject's counts its cells by state, a
concept's names each subject's state."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..model.registers import RegisterSet
from ..model.vocabulary import STATES
from ..views import revisionmatrix as revs
from ..views.conceptmatrix import NOT_RECORDED, Cell, Matrix, Row, rollup
from .formatter import PageFormatter
from .jinja import title_meta, yaml_lines
from .urls import Layout

LEGEND = {
    "done": "all of it is there",
    "partial": "some of it",
    "missing": "none of it",
    "n/a": "does not apply to the subject",
    "unknown": "not yet found out",
    NOT_RECORDED: "no entry names the concept",
}
"""The Matrix page's legend: each state's word and what it says of a subject."""

ABSENT = "absent"
"""A revision where none of a cell's entries applies."""


@dataclass
class ConceptPages:
    """Draws one matrix: `render(template, fmt, **context)` renders a page, `formatter`
    makes a page's, `last_changes` (when the registers' history was read) an entry's."""

    shown: Matrix
    registers: RegisterSet
    layout: Layout
    render: Callable[..., str]
    formatter: Callable[[str], PageFormatter]
    stale_known: bool
    last_changes: Callable[[str, PageFormatter], str] | None = None

    def pages(self) -> dict[str, str]:
        """The Matrix page and each concept's, by path."""
        pages = {self.layout.concept_matrix: self.matrix_page()}
        for row in self.shown.rows:
            pages[self.layout.concept_page(row.concept.id)] = self.concept_page(row)
        return pages

    def matrix_page(self) -> str:
        fmt, names = self.formatter(self.layout.concept_matrix), self.shown.names
        present = {cell.state for row in self.shown.rows for cell in row.cells}
        return self.render(
            "concept-matrix.md.j2",
            fmt,
            rows=self.shown.rows,
            subjects=self.shown.subjects,
            unnamed=self.shown.unnamed,
            states=[state for state in STATES if state in present],
            cell_of=fmt.concept_cell,
            concept_of=lambda row: fmt.concept(row, self.layout.concept_page(row.concept.id)),
            header_of=lambda subject: Markup(fmt.subject_header(subject)),
            version_of=fmt.subject_version,
            badge_of=lambda subject: fmt.link(self.layout.subject_badge(subject)),
            snippet_of=lambda subject: Markup(
                fmt.snippet(names.get(subject, subject), self.layout.subject_badge(subject))
            ),
            legend=LEGEND,
            stale_known=self.stale_known,
        )

    def concept_page(self, row: Row) -> str:
        page = self.layout.concept_page(row.concept.id)
        fmt = self.formatter(page)
        rows, concept = self.shown.rows, row.concept
        revisions = self.registers.sources.revisions
        badge_path = self.layout.concept_badge(concept.id)
        return self.render(
            "concept.md.j2",
            fmt,
            row=row,
            title=Markup(yaml_lines(title_meta(concept.title))),
            parent=next((other for other in rows if other.concept.id == concept.parent), None),
            children=[other for other in rows if other.concept.parent == concept.id],
            page_of=lambda other: fmt.link(self.layout.concept_page(other.concept.id)),
            matrix=fmt.link(self.layout.concept_matrix),
            badge=fmt.link(badge_path),
            snippet=Markup(fmt.snippet(concept.title, badge_path)),
            header_of=lambda subject: Markup(fmt.subject_header(subject)),
            revisions=revisions,
            by_revision={c.subject: by_revision(c, revisions) for c in row.cells},
            since_of=since_text,
            changes_of=lambda entry: Markup(
                self.last_changes(entry.id, fmt) if self.last_changes else ""
            ),
            not_recorded=NOT_RECORDED,
        )


def by_revision(cell: Cell, revisions: tuple[str, ...] | list[str]) -> list[str]:
    """A cell's state in each revision: the roll-up of its entries that apply there (an
    entry recording no revisions applies in all), `absent` where none does."""
    if not cell.recorded:
        return [NOT_RECORDED] * len(revisions)
    kinds = [revs.cells(entry.revisions, list(revisions)) for entry in cell.entries]
    shown = []
    for number in range(len(revisions)):
        applying = [
            entry.status.key
            for entry, cells in zip(cell.entries, kinds, strict=True)
            if cells[number] not in (ABSENT, "removed")
        ]
        shown.append(rollup(applying) if applying else ABSENT)
    return shown


def since_text(cell: Cell) -> str:
    """`since 2026-11-30, at pin 05c78b2`, or '' when the history does not say."""
    since: dict[str, Any] = dict(cell.since or {})
    if not since.get("date"):
        return ""
    pin = f", at pin {str(since['pin'])[:7]}" if since.get("pin") else ""
    return f"since {since['date']}{pin}"


COLOURS = {
    "done": "#2e7d32",
    "partial": "#995200",
    "missing": "#c62828",
    "n/a": "#455a64",
    "unknown": "#5d4037",
    NOT_RECORDED: "#616161",
}
"""A part's fill by state: the state badges' colours, white text on each over 4.5:1."""
LABEL = "#424242"
CHAR = 7
"""The width one character is given (11px Verdana's widest common letters); `textLength`
holds the text to it, so no font on the reader's machine makes it spill."""
PAD = 6

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")
"""What XML 1.0 cannot hold, even escaped."""


def _text(text: str) -> str:
    return html.escape(_NOT_XML.sub("", text), quote=True)


def svg(label: str, parts: Sequence[tuple[str, str]]) -> str:
    """A badge: `label`, then each (text, state) part filled with its state's colour."""
    boxes = [(label, LABEL), *((text, COLOURS.get(state, LABEL)) for text, state in parts)]
    words = " | ".join([label, *(text for text, _ in parts)])
    x, drawn = 0, []
    for text, fill in boxes:
        width = CHAR * len(text) + 2 * PAD
        middle = x + width / 2
        drawn.append(
            f'<rect x="{x}" width="{width}" height="20" fill="{fill}"/>'
            f'<text x="{middle:g}" y="14" textLength="{CHAR * len(text)}" '
            f'lengthAdjust="spacingAndGlyphs">{_text(text)}</text>'
        )
        x += width
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{x}" height="20" role="img" '
        f'aria-label="{_text(words)}"><title>{_text(words)}</title>'
        f'<g font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" fill="#ffffff" '
        f'text-anchor="middle">{"".join(drawn)}</g></svg>\n'
    )


def subject_badge(name: str, states: Iterable[str]) -> str:
    """`mcpx | 3 done | 4 partial | 2 missing`: the subject's recorded cells by state (a
    state no cell holds left out; `no concepts recorded` when none is)."""
    found = list(states)
    parts = [(f"{found.count(s)} {s}", s) for s in STATES if s in found]
    return svg(name, parts or [(f"no concepts {NOT_RECORDED}", NOT_RECORDED)])


def badges(shown: Matrix, layout: Layout) -> dict[str, str]:
    """Every badge of a matrix, by its path in the site (a concept's: `mcp.meta.typed |
    mcpx partial | MCP Go SDK done`)."""
    names = {subject: shown.names.get(subject, subject) for subject in shown.subjects}
    found = {
        layout.subject_badge(subject): subject_badge(
            names[subject], [row.cells[n].state for row in shown.rows if row.cells[n].recorded]
        )
        for n, subject in enumerate(shown.subjects)
    }
    for row in shown.rows:
        parts = [(f"{names[c.subject]} {c.state}", c.state) for c in row.cells]
        found[layout.concept_badge(row.concept.id)] = svg(row.concept.id, parts)
    return found

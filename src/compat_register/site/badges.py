"""Embeddable SVG badges, shields-style: a grey label, then one coloured part per state,
each part's state in words (the colour only repeats it). A subject's badge counts its
Matrix cells by state; a concept's names each subject's state. Pure: text in, SVG out.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from ..model.vocabulary import STATES
from ..views.conceptmatrix import NOT_RECORDED, Matrix, Row
from .urls import Layout

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
    """Text made safe for SVG: no character XML refuses, every markup character escaped."""
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


def concept_badge(row: Row, names: dict[str, str]) -> str:
    """`mcp.meta.typed | mcpx partial | MCP Go SDK done`: each subject's state."""
    return svg(row.concept.id, [(f"{names[c.subject]} {c.state}", c.state) for c in row.cells])


def badges(shown: Matrix, layout: Layout) -> dict[str, str]:
    """Every badge of a matrix, by its path in the site."""
    names = {subject: shown.names.get(subject, subject) for subject in shown.subjects}
    found = {
        layout.subject_badge(subject): subject_badge(
            names[subject], [row.cells[n].state for row in shown.rows if row.cells[n].recorded]
        )
        for n, subject in enumerate(shown.subjects)
    }
    found.update(
        {layout.concept_badge(row.concept.id): concept_badge(row, names) for row in shown.rows}
    )
    return found

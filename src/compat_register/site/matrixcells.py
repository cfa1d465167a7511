"""The Matrix page's cells and rows as safe Markdown (`views.conceptmatrix` says what a
cell holds): a state badge linking to the entry, its worth and cost in words, a stale
citation flagged, the concept under its parent. Pure."""

from __future__ import annotations

import re

from markupsafe import Markup

from ..model.registers import Entry
from ..model.vocabulary import STATES
from ..views.conceptmatrix import NOT_RECORDED, Cell, Row
from .formatter import PageFormatter
from .markdown import escape_inline

UNRECORDED_RANK = len(STATES) + 1
"""A cell no entry fills sorts after every state."""
_NOT_TITLE = re.compile(r"[^A-Za-z0-9 ,:;/._?-]+")
"""What a link's title leaves out (an ID that is no ID may hold anything): the words in the
cell, escaped, say it in full."""


def detail(entry: Entry) -> str:
    """`META-07: missing, value med, effort S`: what a cell says of one entry in words."""
    value, effort = entry.value.key or "?", entry.effort.key or "?"
    return f"{entry.id}: {entry.status.key}, value {value}, effort {effort}"


def cell(fmt: PageFormatter, shown: Cell) -> Markup:
    """A cell: the rolled-up state on a badge linked to the (first) entry, each entry in
    words (shown when the link is hovered or focused, and as its title), every entry's ID
    as a link when there are several, a mark when a citation is stale, since when."""
    if not shown.recorded:
        return Markup(
            f'<span class="reg-badge reg-cell reg-cell--unrecorded" '
            f'data-rank="{UNRECORDED_RANK}">{NOT_RECORDED}</span>'
        )
    words = "; ".join(detail(entry) for entry in shown.entries)
    inner = fmt.badge("state", shown.state)
    inner += f'<span class="reg-cell-detail"> {escape_inline(words)}</span>'
    url = fmt.linker.entry_link(shown.entries[0].id)
    title = _NOT_TITLE.sub(" ", words)
    parts = [f'[{inner}]({url} "{title}"){{ .reg-cell-link }}' if url else inner]
    if len(shown.entries) > 1:
        parts.append("(" + ", ".join(fmt.entry_link(entry.id) for entry in shown.entries) + ")")
    if shown.stale:
        ids = escape_inline(", ".join(shown.stale))
        parts.append(f'<span class="reg-stale">stale citation in {ids}</span>')
    if shown.checks:
        measured = ", ".join(
            f"{check} {status or 'not run'}" for check, status in shown.checks.items()
        )
        parts.append(f'<span class="reg-checks">checks: {escape_inline(measured)}</span>')
    if shown.since is not None and shown.since.get("date"):
        name = fmt.linker.sources.name_of(shown.subject)
        parts.append(f'<span class="reg-since">{escape_inline(since_text(shown, name))}</span>')
    return Markup(" ".join(parts))


def since_text(shown: Cell, name: str) -> str:
    """`since 2026-10-02 at Go SDK 3d6450f`: when the cell's entry reached its state, and
    the subject (as the site `name`s it) at its pin then (7 digits), as the history says."""
    since = shown.since or {}
    pin = since.get("pin")
    at = f" at {name} {str(pin)[:7]}" if pin else ""
    return f"since {since.get('date')}{at}"


MAX_DEPTH = 3
"""The deepest indent the stylesheet draws (deeper concepts share it)."""


def concept(fmt: PageFormatter, row: Row) -> Markup:
    """The row's concept: its title, indented under its parent (the parent's ID said in
    words too, for a reader who does not see the indent), and its ID."""
    depth = min(row.depth, MAX_DEPTH)
    title = escape_inline(row.concept.title)
    parent = ""
    if row.concept.parent and row.depth:
        under = escape_inline(row.concept.parent)
        parent = f' <span class="reg-cell-detail">(under {under})</span>'
    return Markup(
        f'<span class="reg-concept reg-concept--depth-{depth}">{title}{parent} '
        f"{fmt.code(row.concept.id)}</span>"
    )

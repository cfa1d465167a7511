"""The pages that list every entry (the overview, the revision matrix, the priorities), each
drawn from `listed`: what they show of the register set, so `memo` keeps them while that is
the same (an edit of an entry's prose draws none of them again)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..model.positions import Where
from ..model.registers import Entry, Register, RegisterSet
from ..model.vocabulary import LEVELS, OPEN, SIZES, counted
from ..views import priorities as prio
from ..views import revisionmatrix as revs
from .formatter import CELL_WORDS

Render = Callable[..., str]
"""A template drawn for a page (its formatter), given its context (`Renderer._render`)."""


def listed(registers: RegisterSet) -> RegisterSet:
    """The register set less each entry's prose, citations, backlinks and positions (an edit
    of an entry's `what` moves the lines below it) and the concepts: none of the three pages
    shows them, so their key changes only with what they show."""
    nowhere = Where("", 1, 1)
    blank: dict[str, Any] = {"what": "", "detail": None, "notes": [], "texts": (), "where": nowhere}
    blank.update(citations=[], prose_citations=[])
    shown = [
        replace(r, summary=None, summary_citations=[], where=nowhere, entries=entries)
        for r in registers.registers
        for entries in ([replace(entry, **blank) for entry in r.entries],)
    ]
    return replace(registers, registers=shown, backlinks={}, concepts=None)


def overview(
    render: Render, registers: RegisterSet, fmt: Any, download: str | None, coverage: bool
) -> str:
    rows = [(r, entry) for r in registers.registers for entry in r.entries]
    return render(
        "overview.md.j2",
        fmt,
        download={"name": posixpath.basename(download), "path": download} if download else None,
        rows=rows,
        registers=registers.registers,
        states=counted(e.status.key for _, e in rows),
        tags=sorted({t for r, e in rows for t in tags_of(r, e)}),
        tags_of=tags_of,
        coverage=coverage,
    )


def matrix(render: Render, registers: RegisterSet, fmt: Any) -> str:
    rows = revs.matrix(registers)
    return render(
        "matrix.md.j2",
        fmt,
        rows=rows,
        revisions=registers.sources.revisions,
        registers=registers.registers,
        states=counted(row.entry.status.key for row in rows),
        cells=revs.CELLS,
        cell_words=CELL_WORDS,
        tags=sorted({t for row in rows for t in tags_of(row.register, row.entry)}),
        tags_of=tags_of,
    )


def priorities(render: Render, registers: RegisterSet, fmt: Any, subject: str | None) -> str:
    groups = prio.priorities(registers, prio.own_subject(registers, subject))
    return render(
        "priorities.md.j2",
        fmt,
        groups=groups,
        grid=prio.grid(groups),
        values=LEVELS,
        efforts=SIZES,
        open_states=OPEN,
        registers=list({i.register.slug: i.register for g in groups for i in g.items}.values()),
    )


def tags_of(register: Register, entry: Entry) -> list[str]:
    """An entry's tags for filtering: its own and its register's."""
    return list(dict.fromkeys([*entry.tags, *register.tags]))

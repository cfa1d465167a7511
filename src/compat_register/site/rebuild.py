"""What a page depends on, so that a rebuild under `mkdocs serve` renders again only the
pages whose inputs changed (pure: the plugin hands in the files' states).

Equal inputs, equal pages. The plugin keeps each register page and the health page with the
inputs it was rendered from, and reuses it while they stay the same; the overview, the
revision pages and the priorities show every register, and are always rendered again.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.registers import Citation, CitationKey, RegisterSet
from .render import Layout

if TYPE_CHECKING:
    from ..following.verify import Outcome

FileState = tuple[str, int, int]
"""(path, mtime in ns, size) of a file, as the plugin reads them (`tree_state`)."""


def page_inputs(
    registers: RegisterSet,
    outcomes: Sequence[Outcome],
    layout: Layout,
    root: Path,
    files: Sequence[FileState],
    shared: tuple[Any, ...],
) -> dict[str, tuple[Any, ...]]:
    """What each register page and the health page depend on, by page.

        Every page depends on what is common to all: `shared` (the options, the checkouts'
        pinned commits, the templates), every file under the registers folder `root` that is
        not a register (sources.yaml, the lock), the page of every entry ID (links) and every
        register's title (a backlink to a register's summary shows it). A register page also
        shows its own register file and the backlinks of its entries; its outcomes need no place
        of their own, since the same file verified at the same pinned commits gives the same
        ones. The health page shows every citation, where it is written and its outcome, and a
    register's own health page its register's.
    """
    listed = registers.registers
    state = {path: (mtime, size) for path, mtime, size in files}
    file_of = {r.slug: os.path.join(root, f"{r.slug}.yaml") for r in listed}  # as tree_state
    register_files = set(file_of.values())
    common = (
        shared,
        tuple(item for item in files if item[0] not in register_files),
        tuple((r.slug, r.title, tuple(e.id for e in r.entries)) for r in listed),
    )
    inputs: dict[str, tuple[Any, ...]] = {
        layout.page_of(register.slug): (
            common,
            state.get(file_of[register.slug]),
            tuple(tuple(registers.backlinks_of(entry)) for entry in register.entries),
        )
        for register in listed
    }
    found = {o.citation.key: (o.outcome, o.message) for o in outcomes}
    inputs[layout.health] = (common, health_rows(registers.citations(), found))
    for register in listed:
        rows = health_rows(register.citations(), found)
        inputs[layout.health_of(register.slug)] = (common, rows)
    return inputs


def health_rows(
    citations: Sequence[Citation], outcomes: dict[CitationKey, tuple[str, str]]
) -> tuple[Any, ...]:
    """Each citation as a health page shows it: what it cites, where, and its outcome."""
    return tuple(
        (c.text, c.source, c.repo_path, c.start, c.end, c.entry, c.where, outcomes.get(c.key))
        for c in citations
    )

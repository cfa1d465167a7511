"""`register fix`'s plan: every `moved` citation pointed at its proposed lines (pure);
`api.fix` writes the files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..model.diagnostic import Diagnostic
from ..model.positions import Where
from ..model.registers import Citation, RegisterSet
from ..reading.document import Document
from ..reading.folder import BesideFile
from ..verifying import stamps
from ..verifying.outcome import Outcome
from . import edit


@dataclass
class FixPlan:
    """What `register fix` would write (file -> (old text, new text)), each token it
    rewrites, the citations it fixes, and the diagnostics but theirs."""

    files: dict[str, tuple[str, str]]
    changes: list[edit.Change]
    fixed: list[Citation]
    remaining: list[Diagnostic]


def plan(
    registers: RegisterSet,
    documents: Mapping[str, Document],
    outcomes: Sequence[Outcome],
    diagnostics: Sequence[Diagnostic],
    lock: BesideFile | None,
) -> FixPlan:
    """Point every moved citation at its proposed lines, stamps along, but those of a source
    whose pin was moved by hand (re-pointing them by their quotes would hide that)."""
    by_hand = {d.id for d in diagnostics if d.code == "pin-moved-by-hand"}
    moves = _moves([o for o in outcomes if o.citation.source not in by_hand])
    planned = {c.key: edit.move_lines(c, lines, c.alias, c.path) for c, lines in moves}
    files, changes = edit.rewrite_set(registers, documents, planned)
    places = {c.key: (c.repo_path, *lines) for c, lines in moves if c.repo_path}
    if carried := stamps.carry_lock(lock, registers.citations(), places):
        files[carried[0]] = carried[1:]
    done = {(c.where, c.entry) for c, _ in moves}
    remaining = [d for d in diagnostics if not _fixed(d, done)]
    return FixPlan(files, changes, [c for c, _ in moves], remaining)


def _moves(outcomes: list[Outcome]) -> list[tuple[Citation, tuple[int, int]]]:
    """Each moved citation and the lines proposed for it, where they differ from its own."""
    return [
        (o.citation, o.proposed)
        for o in outcomes
        if o.proposed is not None and o.proposed != (o.citation.start, o.citation.end)
    ]


def _fixed(diagnostic: Diagnostic, done: set[tuple[Where, str]]) -> bool:
    """Whether a diagnostic says a citation has moved that the fix re-points."""
    where = Where(diagnostic.file, diagnostic.line, diagnostic.col)
    return diagnostic.code == "citation-moved" and (where, diagnostic.id) in done

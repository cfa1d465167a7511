"""A citation on its way through `follow`'s steps (`Track`), and where it ends (`Followed`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..citations.compare import file_kind, same_text
from ..model.registers import Citation
from ..sources.checkout import Checkout
from ..sources.git import GitSourceError
from .moves import Decision, Lines
from .remap import KINDS

Rename = tuple[str, str, str]
"""(old path, new path, the commit that renamed it)."""
Place = tuple[str, int, int, str]
"""(path, start, end, commit): lines at the commit where they were found."""


class Followed(NamedTuple):
    """Where one citation went: its kind (`remap.KINDS`), full path and lines at the new
    commit (None: gone), why, what could not be decided (`flags`: `ambiguous`,
    `not-found`, `left-revision`), the places not taken, every rename on the way."""

    citation: Citation
    kind: str
    path: str
    lines: Lines | None
    note: str = ""
    file_deleted: bool = False
    flags: tuple[str, ...] = ()
    candidates: tuple[Place, ...] = ()
    renames: tuple[Rename, ...] = ()


@dataclass(eq=False)  # a Track is equal only to itself
class Track:
    """A citation on its way through the steps (changed in place as it goes): `notes` say
    how it got there (each once), `state` what the last step that changed its lines said."""

    citation: Citation
    path: str
    lines: Lines | None
    kind: str = "carried"
    touched: bool = False
    file_deleted: bool = False
    notes: list[str] = field(default_factory=list)
    state: str = ""
    flags: list[str] = field(default_factory=list)
    candidates: list[Place] = field(default_factory=list)
    renames: list[Rename] = field(default_factory=list)

    def take(self, decision: Decision, path: str, sha: str) -> None:
        self.kind = max(self.kind, decision.kind, key=KINDS.index)
        self.lines, self.path, self.touched = decision.lines, decision.path or path, True
        if decision.kind == "re-anchored":
            add_note(self.notes, decision.note)
        else:
            self.state = decision.note
        self.flags += [f for f in decision.flags if f not in self.flags]
        self.candidates += [(*c, sha) for c in decision.candidates]


def add_note(notes: list[str], note: str) -> None:
    if note and note not in notes:
        notes.append(note)


def carried(citation: Citation) -> Followed:
    """A citation whose file no step touched: where it was."""
    return Followed(citation, "carried", repo_path(citation), (citation.start, citation.end))


def repo_path(citation: Citation) -> str:
    """The path a (resolved) citation cites in its source's repository."""
    assert citation.repo_path is not None, "only resolved citations are followed"
    return citation.repo_path


def result(
    checkout: Checkout, track: Track, shas: tuple[str, str], markdown: Sequence[str]
) -> Followed:
    """The Followed of a track at the end (a changed range whose text came back is
    re-anchored)."""
    citation, kind, state = track.citation, track.kind, track.state
    if kind == "changed" and not track.flags and _restored(checkout, track, shas, markdown):
        kind, state = "re-anchored", "edited, then restored"
    elif kind == "changed":
        state = state or "the cited lines were edited"
    if kind in ("carried", "re-anchored"):
        same = track.path == citation.repo_path and track.lines == (citation.start, citation.end)
        kind = "carried" if same and not track.renames and not track.touched else "re-anchored"
    lines = None if kind == "gone" else track.lines
    return Followed(
        citation, kind, track.path, lines, "; ".join(filter(None, (*track.notes, state))),
        track.file_deleted, tuple(track.flags), tuple(track.candidates), tuple(track.renames),
    )  # fmt: skip


def _restored(
    checkout: Checkout, track: Track, shas: tuple[str, str], markdown: Sequence[str]
) -> bool:
    """Whether a changed range reads at the new commit as it did at the old one."""
    citation = track.citation
    if track.lines is None:
        return False
    try:
        old = checkout.read_text(shas[0], repo_path(citation)) or []
        new = checkout.read_text(shas[1], track.path) or []
    except GitSourceError:
        return False
    was = old[citation.start - 1 : citation.end]
    now = new[track.lines[0] - 1 : track.lines[1]]
    kinds = {file_kind(repo_path(citation), markdown), file_kind(track.path, markdown)}
    return any(line.strip() for line in was) and all(same_text(was, now, k) for k in kinds)

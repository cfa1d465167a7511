"""Since when each entry has held its state ("done since 2026-10-02 at go-sdk 3d6450f"):
the newest commit that added it or changed its state (`first_commits`, pure); none when its
state is not committed at HEAD or a shallow clone lacks its start; the pin sources.yaml's
at that commit.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.registers import RegisterSet
from ..sources.projectrepo import blob_id
from ..storage import regular
from ..storage.layout import SOURCES_FILE, register_file
from .repository import Project

if TYPE_CHECKING:
    from .repository import Commit

STATE = "status.state"
"""The name `register diff` gives an entry's state change."""


@dataclass(frozen=True)
class Since:
    """When an entry reached the state it still holds."""

    date: str
    """The commit's date, `2026-10-02` (UTC)."""
    commit: str
    """The full sha of the commit of the registers' repository."""
    pin: str | None
    """The entry's subject's pin in sources.yaml at that commit, as written there; None
    when sources.yaml did not load or did not name the subject then."""

    def data(self) -> dict[str, Any]:
        """As `register matrix --format json` gives it: the commit shortened to 12."""
        return {"date": self.date, "commit": self.commit[:12], "pin": self.pin}


def first_commits(commits: list[Commit], states: Mapping[str, str]) -> dict[str, Commit]:
    """Entry ID -> the commit from which it has held the state `states` gives it (its state
    at the newest commit of `commits`, newest first). An entry the history does not show
    reaching that state (removed at the newest commit, the start of a shallow clone) is
    left out."""
    found: dict[str, Commit] = {}
    settled: set[str] = set()
    for commit in commits:
        for change in commit.diff.entries:
            if change.id in settled or change.id not in states:
                continue
            reached = change.change == "added" or (
                change.change == "changed" and _to(change.fields.get(STATE)) == states[change.id]
            )
            if reached:
                found[change.id] = commit
            if reached or change.change == "removed" or STATE in change.fields:
                settled.add(change.id)
    return found


def _to(value: tuple[Any, Any] | None) -> Any:
    return None if value is None else value[1]


def since_when(root: Path, registers: RegisterSet, commits: list[Commit]) -> dict[str, Since]:
    """Entry ID -> since when it has held its state, for the registers read from `root`
    (the working tree) and `commits`, the history of `root` (`read_history`, newest first).
    Raises `HistoryError` when `root` is in no repository."""
    with Project(root) as project:
        head = project.repo.head()
        if head is None or not commits:
            return {}
        states = _committed(project, registers, head)
        firsts = first_commits(commits, states)
        pins = {sha: _pins(project, sha) for sha in {c.sha for c in firsts.values()}}
    subjects = {
        entry.id: register.subject for register in registers.registers for entry in register.entries
    }
    return {
        entry_id: Since(_date(commit.time), commit.sha, pins[commit.sha].get(subjects[entry_id]))
        for entry_id, commit in firsts.items()
    }


def _committed(project: Project, registers: RegisterSet, head: str) -> dict[str, str]:
    """Entry ID -> its state now, for each entry whose state now is the one committed at
    HEAD: a register file as committed is taken as read, one edited since is read at HEAD."""
    files = project.repo.tree(head, project.folder)
    states: dict[str, str] = {}
    for register in registers.registers:
        name = register_file(register.slug)
        now = {entry.id: entry.status.key for entry in register.entries if entry.named}
        if files.get(name) == _blob_on_disk(project.root / name):
            states.update(now)
            continue
        summary = project.summary(name, files[name]) if name in files else None
        committed = (summary or {}).get("entries", {})
        states.update(
            (entry_id, state)
            for entry_id, state in now.items()
            if committed.get(entry_id, {}).get("state") == state
        )
    return states


def _blob_on_disk(path: Path) -> str | None:
    try:
        return blob_id(regular.read_bytes(path, regular.MAX_BYTES))
    except OSError:
        return None


def _pins(project: Project, sha: str) -> dict[str, str]:
    """Alias -> pin, as sources.yaml wrote them at commit `sha` (none when it did not load)."""
    blob = project.repo.tree(sha, project.folder).get(SOURCES_FILE)
    summary = project.summary(SOURCES_FILE, blob) if blob else None
    pins = (summary or {}).get("pins")
    return dict(pins) if isinstance(pins, dict) else {}


def _date(seconds: int) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).date().isoformat()

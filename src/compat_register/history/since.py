"""Since when each entry has held its state ("done since 2026-10-02 at go-sdk 3d6450f"):
the newest commit that added it or changed its state, and sources.yaml's pin then.
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
    """When an entry reached the state it still holds: the commit's UTC date and full sha,
    its subject's pin in sources.yaml then (None when it did not load or name it)."""

    date: str
    commit: str
    pin: str | None

    def data(self) -> dict[str, Any]:
        """As `register matrix --format json` gives it."""
        return {"date": self.date, "commit": self.commit[:12], "pin": self.pin}


def first_commits(commits: list[Commit], states: Mapping[str, str]) -> dict[str, Commit]:
    """Entry ID -> the commit from which it has held its state in `states` (`commits`
    newest first); left out when the history does not show it reaching that state."""
    found: dict[str, Commit] = {}
    settled: set[str] = set()
    for commit in commits:
        for change in commit.diff.entries:
            if change.id in settled or change.id not in states:
                continue
            state = change.fields.get(STATE)  # only a change "changed" has fields
            if change.change == "added" or (state is not None and state[1] == states[change.id]):
                found[change.id] = commit
            if change.change != "changed" or STATE in change.fields:
                settled.add(change.id)
    return found


def since_when(root: Path, registers: RegisterSet, commits: list[Commit]) -> dict[str, Since]:
    """Entry ID -> since when it has held its state, for the registers read from `root` and
    its history `commits` (newest first); HistoryError when `root` is in no repository."""
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
    HEAD (a file edited since is read at HEAD)."""
    files = project.repo.tree(head, project.folder)
    states: dict[str, str] = {}
    for register in registers.registers:
        name = register_file(register.slug)
        now = {entry.id: entry.status.key for entry in register.entries if entry.named}
        if files.get(name) == _blob_on_disk(project.root / name):
            states.update(now)
            continue
        committed = project.summary(name, files[name]).get("entries", {}) if name in files else {}
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
    """Alias -> pin in sources.yaml at commit `sha` (none when it did not load)."""
    blob = project.repo.tree(sha, project.folder).get(SOURCES_FILE)
    return project.summary(SOURCES_FILE, blob).get("pins", {}) if blob else {}


def _date(seconds: int) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).date().isoformat()

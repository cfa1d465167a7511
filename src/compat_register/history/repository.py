"""The registers' own repository: register sets at commits and the folder's history (the
stage's I/O; each file summarised once per run by blob id), and the history cache, one JSON
file of each diff by its two blob ids and each register blob's state counts, so a rebuild
reads only the blobs of commits it has not seen."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..model.diagnostic import Diagnostic
from ..model.positions import Where
from ..model.results import Result
from ..reading.folder import display_path
from ..sources.diffs import ZERO_SHA, LoggedCommit
from ..sources.git import GitSourceError
from ..sources.projectrepo import ProjectRepo, blob_id, repository_of
from ..storage import makers, regular, shape
from ..storage.errors import RegisterError
from ..storage.layout import REGISTER_SUFFIX, SOURCES_FILE, is_register_file, register_file, slug_of
from .diffing import Diff, EntryMemo, Summary, diff_data, diff_from_data, diff_sets, summarise

WORKTREE = "worktree"
"""The `to` side of a diff against the files as they are on disk."""


CACHE_VERSION = 3
"""Raised whenever what a summary or a diff holds changes: an older cache is ignored."""
CACHE_MADE_BY = makers.made_by(CACHE_VERSION, "compat-register", "PyYAML")


class HistoryError(RegisterError):
    """One line for the user: not a git repository, a revision that names no commit, ..."""


class NoRepository(HistoryError):
    """The registers are in no git repository: there is no history, and that is no fault."""


@contextmanager
def _one_line() -> Iterator[None]:
    """git failing under us as a HistoryError: one line, not a traceback."""
    try:
        yield
    except GitSourceError as err:
        raise HistoryError(str(err)) from None


def is_register_name(name: str) -> bool:
    """Whether a file of the registers folder is one `diff` compares."""
    return name == SOURCES_FILE or is_register_file(name)


class Project:
    """The registers folder and the repository holding it. Close it when done."""

    def __init__(self, root: Path) -> None:
        self.root = root
        with _one_line():
            top = repository_of(root)
            if top is None:
                raise NoRepository(
                    f"{display_path(root)} is not inside a git repository: no history to compare"
                )
            self.repo = ProjectRepo(top)
        folder = os.path.relpath(os.path.realpath(root), os.path.realpath(top))
        self.folder = "" if folder == "." else Path(folder).as_posix()
        self._summaries: dict[tuple[str, str], Summary] = {}
        self._entries: EntryMemo = {}

    def __enter__(self) -> Project:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.repo.close()

    def resolve(self, rev: str) -> str:
        """The full sha of the commit `rev` names; HistoryError when there is none."""
        with _one_line():
            sha = self.repo.resolve_rev(rev)
        if sha is None:
            hint = " (a shallow clone: fetch more history)" if self.repo.shallow_roots() else ""
            raise HistoryError(f"no commit '{rev}' in {self.repo.root}{hint}")
        return sha

    def summary(self, name: str, blob: str, data: bytes | None = None) -> Summary:
        """The summary of blob `blob` read as file `name` (from `data`, else from the
        repository), once per run."""
        key = (SOURCES_FILE if name == SOURCES_FILE else "register", blob)
        if key not in self._summaries:
            data = self.repo.blob(blob) if data is None else data
            if data is None:
                raise HistoryError(f"{self.repo.root} does not hold blob {blob} of {name}")
            self._summaries[key] = summarise(name, data, self._entries)
        return self._summaries[key]

    def commit_set(self, sha: str) -> dict[str, Summary]:
        """Every register file and sources.yaml at commit `sha`, summarised."""
        files = sorted(self.repo.tree(sha, self.folder).items())
        return {name: self.summary(name, blob) for name, blob in files if is_register_name(name)}

    def worktree_set(self) -> dict[str, Summary]:
        """Every register file and sources.yaml as they are on disk, summarised."""
        found = {}
        for path in sorted(self.root.glob(f"*{REGISTER_SUFFIX}")):
            if is_register_name(path.name) and os.path.isfile(path):
                try:
                    data = regular.read_bytes(path, regular.MAX_BYTES)
                except OSError as err:
                    raise HistoryError(
                        f"cannot read {display_path(path)}: {err.strerror}"
                    ) from None
                # Keyed by the id git would give these bytes: a file as committed is read once.
                found[path.name] = self.summary(path.name, blob_id(data), data)
        return found


@dataclass
class Compared(Result):
    """What `register diff` found between two full shas (`new` may be `WORKTREE`)."""

    old: str
    new: str
    diff: Diff
    problems: list[tuple[str, Diagnostic]] = field(default_factory=list)
    """Each file that does not load at one side ("from" or "to"), located in it."""


def compare(root: Path, old_rev: str | None = None, new_rev: str | None = None) -> Compared:
    """The registers at `old_rev` (default HEAD) against `new_rev` (default: the working
    tree); HistoryError when that cannot be asked."""
    with Project(root) as project:
        old = project.resolve(old_rev or "HEAD")
        new = project.resolve(new_rev) if new_rev else WORKTREE
        before = project.commit_set(old)
        after = project.worktree_set() if new == WORKTREE else project.commit_set(new)
    diff = diff_sets(before, after)
    problems = _located(root, diff, {"from": old, "to": new})
    return Compared(old, new, diff, problems, diagnostics=[d for _, d in problems])


def _located(root: Path, diff: Diff, sides: dict[str, str]) -> list[tuple[str, Diagnostic]]:
    """Each unreadable file's problem as a `FILE:LINE:COL` diagnostic naming its side."""
    shown = {side: "working tree" if rev == WORKTREE else rev[:12] for side, rev in sides.items()}
    found: list[tuple[str, Diagnostic]] = []
    places = [(register_file(r.register), r.problems) for r in diff.registers if r.problems]
    places.append((SOURCES_FILE, diff.source_problems))
    for name, problems in places:
        file = display_path(root / name)
        for p in problems:
            where, message = Where(file, p.line, p.col), f"{p.message} (at {shown[p.side]})"
            found.append(
                (p.side, Diagnostic.at(where, id=slug_of(file), code=p.code, message=message))
            )
    return found


@dataclass
class Commit:
    """One commit that changed the registers folder, and what it changed there."""

    sha: str
    time: int
    """Committer time, seconds since the epoch."""
    subject: str
    diff: Diff
    edge: bool = False
    """The oldest commit of a shallow clone, its parent missing: its changes are not known."""


@dataclass
class History(Result):
    """The registers folder's history as far as the clone holds it (commits newest first);
    its diagnostics are notices of the cache not used or not written."""

    commits: list[Commit]
    shallow: bool
    counts: dict[str, list[tuple[Commit, dict[str, int]]]]
    """Register slug -> its state counts after each commit that changed it, oldest first."""


def read_history(root: Path, cache_file: Path | None) -> History:
    """The history of the registers folder `root`, each commit's diff from the cache when
    it holds it; HistoryError when there is none to read."""
    cache = shape.JsonCache(
        cache_file, CACHE_MADE_BY, CACHE_SHAPE, ["diffs", "counts"], "the history cache"
    )
    with Project(root) as project, _one_line():
        if project.repo.head() is None:
            return History([], False, {})
        logged = project.repo.log(project.folder)
        edges = project.repo.shallow_roots()
        commits, counts = _walk(project, cache.data, logged, edges)
    said = (("cache-dropped", cache.dropped), ("cache-unwritable", cache.save()))
    notices = [
        Diagnostic.notice(display_path(cache_file), id="history", code=code, message=message)
        for code, message in said
        if cache_file is not None and message
    ]
    return History(commits, bool(edges), counts, diagnostics=notices)


def _walk(
    project: Project, kept: dict[str, Any], logged: list[LoggedCommit], edges: set[str]
) -> tuple[list[Commit], dict[str, list[tuple[Commit, dict[str, int]]]]]:
    commits: list[Commit] = []
    counts: dict[str, list[tuple[Commit, dict[str, int]]]] = {}
    # File name -> the last version of it that loaded: a commit mending a file that did not
    # load (its counts None) is compared with that version, so no change made meanwhile is lost.
    loaded: dict[str, str] = {}
    for entry in reversed(logged):  # oldest first: the counts are a series in time
        changes = [
            (name, loaded.get(name, old) if kept["counts"].get(old, {}) is None else old, new)
            for path, old, new in entry.changes
            if is_register_name(name := os.path.basename(path))
        ]
        if not changes:
            continue
        edge = entry.parent is None and entry.sha in edges
        diff = Diff() if edge else _diff_of(project, kept["diffs"], changes)
        commit = Commit(entry.sha, entry.time, entry.subject, diff, edge)
        commits.append(commit)
        for name, _, new in changes:
            found = _counts(project, kept["counts"], name, new) if name != SOURCES_FILE else None
            if found is not None:
                counts.setdefault(slug_of(name), []).append((commit, found))
                loaded[name] = new
    commits.reverse()
    return commits, counts


def _diff_of(
    project: Project, diffs: dict[str, dict[str, Any]], changes: Iterable[tuple[str, str, str]]
) -> Diff:
    """The diff of one commit: of each file it changed, from the cache or computed."""
    total = Diff()
    for name, old, new in changes:
        key = f"{name}:{old}..{new}"
        if key not in diffs:
            sides = [{name: project.summary(name, b)} if b != ZERO_SHA else {} for b in (old, new)]
            diffs[key] = diff_data(diff_sets(*sides))
        part = diff_from_data(diffs[key])
        for kind in fields(Diff):
            getattr(total, kind.name).extend(getattr(part, kind.name))
    return total


def _counts(project: Project, kept: dict[str, Any], name: str, blob: str) -> dict[str, int] | None:
    """The state counts of a register blob: {} for a removed file, None for one that does
    not load (its chart keeps the counts it had)."""
    if blob == ZERO_SHA:
        return {}
    if blob not in kept:
        kept[blob] = project.summary(name, blob).get("counts")
    return kept[blob]


_TEXT, _INT = {"type": "string"}, {"type": "integer"}


def _list_of(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


_PROBLEMS = _list_of(
    shape.record(dict.fromkeys(("side", "code", "message"), _TEXT) | {"line": _INT, "col": _INT})
)
_FIELDS = shape.strings({"anyOf": [{"enum": ["changed"]}, shape.record({"from": {}, "to": {}})]})
_CITATIONS = {"added": _list_of(_TEXT), "removed": _list_of(_TEXT)} | {
    "moved": _list_of(shape.record({"from": _TEXT, "to": _TEXT}))
}
_REGISTER = shape.record(
    {"register": _TEXT, "change": _TEXT}, {"fields": _FIELDS, "problems": _PROBLEMS}
)
_ENTRY = shape.record(
    dict.fromkeys(("register", "id", "change", "title"), _TEXT)
    | {"fields": _FIELDS, "citations": shape.record(_CITATIONS)}
)
_SOURCE = shape.record(
    {"alias": _TEXT, "change": _TEXT, "from": shape.nullable(_TEXT), "to": shape.nullable(_TEXT)}
)
_DIFF = shape.record(
    {"registers": _list_of(_REGISTER), "entries": _list_of(_ENTRY), "sources": _list_of(_SOURCE)}
    | {"source_problems": _PROBLEMS}
)
_COUNTS = shape.nullable(shape.strings({"type": "integer", "minimum": 0}))
CACHE_SHAPE = shape.checker(
    shape.record(
        {"made_by": _TEXT, "diffs": shape.strings(_DIFF), "counts": shape.strings(_COUNTS)}
    )
)
"""What the history cache holds: diffs by `NAME:OLD..NEW` and state counts by blob id (None:
it does not load); anything else is not used."""

"""git's output as data: `git diff -M --unified=0` -> each file's new path and hunks;
`git log --raw` -> commits and the blobs they changed; `git log`/`git diff -M --raw` -> what
each commit renamed, deleted and added (`Changes`); a raw tree -> its blobs. Pure.
"""

from __future__ import annotations

import codecs
import re

Hunk = tuple[int, int, int, int]
"""A unified-diff hunk: (old_start, old_count, new_start, new_count). A side with count 0
starts at the line before the gap (0: before the first line)."""

_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_diff(text: str) -> dict[str, tuple[str | None, list[Hunk]]]:
    """Map each old path in a `git diff -M --unified=0` to (new path or None, hunks)."""
    return {
        old: (new, hunks) for old, new, hunks in map(_parse_file, _files(text)) if old is not None
    }


def parse_new_sides(text: str) -> dict[str, list[Hunk]]:
    """Map each new path in a `git diff --no-renames --unified=0` (added files too) to its
    hunks; a deleted file has no new path and is left out."""
    return {new: hunks for _, new, hunks in map(_parse_file, _files(text)) if new is not None}


def parse_added(text: str) -> dict[str, tuple[list[Hunk], dict[int, str]]]:
    """Map each new path in a `git diff --no-renames --unified=0` to its hunks and the text
    of each line it added ({new line number: text})."""
    found: dict[str, tuple[list[Hunk], dict[int, str]]] = {}
    for chunk in _files(text):
        _, new, hunks = _parse_file(chunk)
        if new is None or not hunks:
            continue
        added: dict[int, str] = {}
        line = 0
        for row in chunk.split("\n")[1:]:
            match = _HUNK.match(row)
            if match:
                line = int(match[3])
            elif line and row.startswith("+"):
                added[line] = row[1:].removesuffix("\r")
                line += 1
        found[new] = (hunks, added)
    return found


def parse_hunks(text: str) -> list[Hunk]:
    """The hunks of a `git diff --unified=0` of one pair of blobs."""
    return [_hunk(match) for line in text.split("\n") if (match := _HUNK.match(line))]


def parse_patch_log(text: str) -> dict[str, str]:
    """{commit: its patch} of `git log -p RECORD_FORMAT` output."""
    found: dict[str, str] = {}
    for record in text.split(_RECORD)[1:]:
        sha, _, patch = record.partition("\n")
        found[sha.strip()] = patch
    return found


def _files(text: str) -> list[str]:
    """Each file's part of a diff; a hunk line starts with '+', '-', ' ' or '\\', so only a
    file header starts with "diff --git"."""
    return re.split(r"^diff --git ", text, flags=re.MULTILINE)[1:]


def _hunk(match: re.Match[str]) -> Hunk:
    a, b, c, d = match.groups()
    return (int(a), int(b or 1), int(c), int(d or 1))


def _parse_file(text: str) -> tuple[str | None, str | None, list[Hunk]]:
    header, *lines = text.split("\n")
    old = new = _header_path(header)
    hunks: list[Hunk] = []
    for line in lines:
        match = _HUNK.match(line)
        if match:
            hunks.append(_hunk(match))
        elif hunks:
            continue  # inside hunks: a removed line '--- x' is not a header
        elif line.startswith("rename from "):
            old = unquote_path(line[len("rename from ") :])
        elif line.startswith("rename to "):
            new = unquote_path(line[len("rename to ") :])
        elif line.startswith("deleted file mode "):
            new = None
        elif line.startswith("new file mode "):
            old = None
    return old, new, hunks


def _header_path(rest: str) -> str | None:
    """The path of `a/P b/P`; None for a rename, whose header is split by `rename` lines."""
    half = (len(rest) - 1) // 2
    a, b = rest[:half], rest[half + 1 :]
    if rest[half : half + 1] != " " or a.replace("a/", "b/", 1) != b:
        return None
    return unquote_path(a)[2:]


def unquote_path(name: str) -> str:
    """Undo git's C-style quoting of a path that holds a quote, backslash or control byte."""
    if len(name) < 2 or not name.startswith('"') or not name.endswith('"'):
        return name
    raw: bytes = codecs.escape_decode(name[1:-1].encode("utf-8"))[0]
    return raw.decode("utf-8", errors="replace")


ZERO_SHA = "0" * 40
"""The blob id `git log --raw` shows for the side of a file that does not exist."""

_RECORD = "\x1e"
_FIELD = "\x1f"
LOG_FORMAT = f"--format={_RECORD}%H{_FIELD}%P{_FIELD}%ct{_FIELD}%s"
"""The `git log` format `parse_log` reads: each commit a record of fields."""
_RAW = re.compile(r":\d+ \d+ ([0-9a-f]{40}) ([0-9a-f]{40}) ([A-Z])(\d*)\t([^\t]*)(?:\t(.*))?")
"""A `--raw` line: old blob, new blob, status, score, path, and a rename's new path."""


class LoggedCommit:
    """One commit of a `git log --raw`: its sha, first parent, time and subject, and
    (path, old blob id, new blob id) for every file it changed (`ZERO_SHA` on the side
    where a file does not exist)."""

    __slots__ = ("sha", "parent", "time", "subject", "changes")

    def __init__(
        self,
        sha: str,
        parent: str | None,
        time: int,
        subject: str,
        changes: list[tuple[str, str, str]],
    ) -> None:
        self.sha, self.parent, self.time, self.subject = sha, parent, time, subject
        self.changes = changes


def parse_log(text: str) -> list[LoggedCommit]:
    """The commits of `git log LOG_FORMAT --raw --no-abbrev` output, in its order."""
    return [_logged(record) for record in text.split(_RECORD)[1:]]


def _logged(record: str) -> LoggedCommit:
    header, *lines = record.split("\n")
    sha, parents, time, subject = header.split(_FIELD, 3)
    changes = []
    for line in lines:
        raw = _RAW.match(line)
        if raw:
            changes.append((unquote_path(raw[5]), raw[1], raw[2]))  # --no-renames: one path
    parent = parents.split()[0] if parents.split() else None
    return LoggedCommit(sha, parent, int(time), subject, changes)


def tree_blobs(data: bytes) -> dict[str, str]:
    """{name: blob id} of the files (not trees, links or submodules) of a raw tree object."""
    found: dict[str, str] = {}
    position = 0
    while position < len(data):
        space = data.index(b" ", position)
        nul = data.index(b"\0", space)
        mode = data[position:space]
        name = data[space + 1 : nul].decode("utf-8", errors="replace")
        if mode.startswith(b"100"):
            found[name] = data[nul + 1 : nul + 21].hex()
        position = nul + 21
    return found


def listed_blobs(out: str) -> dict[str, str]:
    """{path: blob id} of the files in `git ls-tree -r -z` output (not links or
    submodules)."""
    found: dict[str, str] = {}
    for record in out.split("\0"):
        header, _, path = record.partition("\t")
        parts = header.split(" ")
        if path and len(parts) == 3 and parts[1] == "blob" and parts[0].startswith("100"):
            found[path] = parts[2]
    return found


class Changes:
    """What one commit did to files against its first parent (or one diff between two
    commits): renamed {old path: (new path, similarity %, old blob, new blob)}, deleted
    {path: old blob}, added {path: new blob}, modified paths."""

    __slots__ = ("parent", "sha", "renamed", "deleted", "added", "modified")

    def __init__(self, parent: str, sha: str) -> None:
        self.parent, self.sha = parent, sha
        self.renamed: dict[str, tuple[str, int, str, str]] = {}
        self.deleted: dict[str, str] = {}
        self.added: dict[str, str] = {}
        self.modified: set[str] = set()

    def paths(self) -> set[str]:
        """Every path this step names: those it modified, added, deleted, and both sides of
        each rename. No other file has a hunk in it."""
        renamed = {new for new, *_ in self.renamed.values()}
        return (
            self.modified | self.added.keys() | self.deleted.keys() | self.renamed.keys() | renamed
        )

    def read_raw(self, lines: list[str]) -> Changes:
        """Take in the `--raw -M --no-abbrev` lines of this commit (others are skipped)."""
        for line in lines:
            raw = _RAW.match(line)
            if raw is None:
                continue
            old_blob, new_blob, status, score = raw[1], raw[2], raw[3], raw[4]
            path = unquote_path(raw[5])
            if status == "R" and raw[6] is not None:
                self.renamed[path] = (unquote_path(raw[6]), int(score or 0), old_blob, new_blob)
            elif status == "D":
                self.deleted[path] = old_blob
            elif status == "A":
                self.added[path] = new_blob
            else:
                self.modified.add(path)
        return self


RECORD_FORMAT = f"--format={_RECORD}%H"
"""The `git log -p` format `parse_patch_log` reads."""
CHANGES_FORMAT = f"--format={_RECORD}%H{_FIELD}%P"
"""The `git log` format `parse_changes_log` reads."""


def parse_changes_log(text: str) -> list[Changes]:
    """The commits of `git log CHANGES_FORMAT --raw -M --no-abbrev`, in its order; a root
    commit (no parent) gets the parent ''."""
    found = []
    for record in text.split(_RECORD)[1:]:
        header, *lines = record.split("\n")
        sha, _, parents = header.partition(_FIELD)
        found.append(Changes((parents.split() or [""])[0], sha).read_raw(lines))
    return found

"""The history between two pins as git tells it, one `git` per call (`following.follow`
walks it): the first-parent commits and what each did to files (`Changes`), their hunks and
added lines; and the parse of git's output, pure: logs (`LoggedCommit`), diffs, trees' blobs."""

from __future__ import annotations

import codecs
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from ..checking.safety import check_repo_path
from .checkout import Checkout
from .git import GitSourceError

Hunk = tuple[int, int, int, int]
"""(old_start, old_count, new_start, new_count); a side of count 0 starts before the gap."""

_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_files(text: str) -> dict[str, tuple[list[Hunk], dict[int, str]]]:
    """Each new path of a `git diff --no-renames --unified=0` (deleted files left out) ->
    its hunks and {new line number: text} of the lines it added."""
    found = {}
    for chunk in _files(text):
        header, *lines = chunk.split("\n")
        new = _header_path(header)
        hunks: list[Hunk] = []
        added: dict[int, str] = {}
        line = 0
        for row in lines:
            match = _HUNK.match(row)
            if match:
                hunks.append(_hunk(match))
                line = hunks[-1][2]
            elif hunks and row.startswith("+"):  # inside hunks: '+++ x' is no header
                added[line] = row[1:].removesuffix("\r")
                line += 1
            elif not hunks and row.startswith("deleted file mode "):
                new = None
        if new is not None:
            found[new] = (hunks, added)
    return found


def parse_hunks(text: str) -> list[Hunk]:
    """The hunks of a `git diff --unified=0` of one pair of blobs."""
    return [_hunk(match) for line in text.split("\n") if (match := _HUNK.match(line))]


def parse_patch_log(text: str) -> dict[str, str]:
    """{commit: its patch} of `git log -p RECORD_FORMAT` output."""
    records = (record.partition("\n") for record in text.split(_RECORD)[1:])
    return {sha.strip(): patch for sha, _, patch in records}


def _records(text: str) -> Iterator[tuple[str, list[str]]]:
    """Each commit's header line and other lines, in a log of one of the formats here."""
    for record in text.split(_RECORD)[1:]:
        header, *lines = record.split("\n")
        yield header, lines


def _files(text: str) -> list[str]:
    """Each file's part of a diff (only a file header starts with "diff --git")."""
    return re.split(r"^diff --git ", text, flags=re.MULTILINE)[1:]


def _hunk(match: re.Match[str]) -> Hunk:
    a, b, c, d = match.groups()
    return (int(a), int(b or 1), int(c), int(d or 1))


def _header_path(rest: str) -> str | None:
    """The path of `a/P b/P` (--no-renames: both sides name one path)."""
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


ZERO_SHA = "0" * 40  # the blob of `--raw`'s side where a file does not exist

_RECORD = "\x1e"
_FIELD = "\x1f"
LOG_FORMAT = f"--format={_RECORD}%H{_FIELD}%P{_FIELD}%ct{_FIELD}%s"  # what `parse_log` reads
# A `--raw` line: old blob, new blob, status, score, path, and a rename's new path.
_RAW = re.compile(r":\d+ \d+ ([0-9a-f]{40}) ([0-9a-f]{40}) ([A-Z])(\d*)\t([^\t]*)(?:\t(.*))?")


@dataclass
class LoggedCommit:
    """One commit of a `git log --raw --no-renames`, with (path, old blob, new blob) of each
    file it changed."""

    sha: str
    parent: str | None
    time: int
    subject: str
    changes: list[tuple[str, str, str]]


def parse_log(text: str) -> list[LoggedCommit]:
    """The commits of `git log LOG_FORMAT --raw --no-abbrev` output, in its order."""
    found = []
    for header, lines in _records(text):
        sha, parents, time, subject = header.split(_FIELD, 3)
        changes = [(path, old, new) for old, new, _, _, path, _ in _raw(lines)]
        found.append(LoggedCommit(sha, _first(parents), int(time), subject, changes))
    return found


def _first(parents: str) -> str | None:
    return parents.split()[0] if parents.split() else None


def _raw(lines: list[str]) -> Iterator[tuple[str, str, str, str, str, str | None]]:
    for line in lines:
        raw = _RAW.match(line)
        if raw is not None:
            to = None if raw[6] is None else unquote_path(raw[6])
            yield raw[1], raw[2], raw[3], raw[4], unquote_path(raw[5]), to


def tree_blobs(data: bytes) -> dict[str, str]:
    """{name: blob id} of the files (not trees, links, submodules) of a raw tree object."""
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
    """{path: blob id} of the files in `git ls-tree -r -z` output (not links, submodules)."""
    found: dict[str, str] = {}
    for record in out.split("\0"):
        header, _, path = record.partition("\t")
        parts = header.split(" ")
        if path and len(parts) == 3 and parts[1] == "blob" and parts[0].startswith("100"):
            found[path] = parts[2]
    return found


@dataclass
class Changes:
    """What one commit (or diff) did to files: renamed {old path: (new path, similarity %,
    old blob, new blob)}, deleted {path: old blob}, added {path: new blob}, modified."""

    parent: str
    sha: str
    renamed: dict[str, tuple[str, int, str, str]] = field(default_factory=dict)
    deleted: dict[str, str] = field(default_factory=dict)
    added: dict[str, str] = field(default_factory=dict)
    modified: set[str] = field(default_factory=set)

    def paths(self) -> set[str]:
        """Every path this step names, both sides of a rename too: no other has a hunk."""
        renamed = {new for new, *_ in self.renamed.values()}
        return (
            self.modified | self.added.keys() | self.deleted.keys() | self.renamed.keys() | renamed
        )

    def read_raw(self, lines: list[str]) -> Changes:
        """Take in this commit's `--raw -M --no-abbrev` lines (others are skipped)."""
        for old_blob, new_blob, status, score, path, to in _raw(lines):
            if status == "R" and to is not None:
                self.renamed[path] = (to, int(score or 0), old_blob, new_blob)
            elif status == "D":
                self.deleted[path] = old_blob
            elif status == "A":
                self.added[path] = new_blob
            else:
                self.modified.add(path)
        return self


RECORD_FORMAT = f"--format={_RECORD}%H"  # what `parse_patch_log` reads
CHANGES_FORMAT = f"--format={_RECORD}%H{_FIELD}%P"  # what `parse_changes_log` reads


def parse_changes_log(text: str) -> list[Changes]:
    """The commits of `git log CHANGES_FORMAT --raw -M --no-abbrev`; a root's parent is ''."""
    found = []
    for header, lines in _records(text):
        sha, _, parents = header.partition(_FIELD)
        found.append(Changes(_first(parents) or "", sha).read_raw(lines))
    return found


# The parse must not depend on the user's config: no colour, external diff or textconv, the
# `a/` and `b/` prefixes whatever diff.noprefix says, and --text so that a `-diff` attribute
# does not turn hunks into "Binary files differ".
_PLAIN = (
    *("--no-color", "--no-ext-diff", "--no-textconv", "--text"),
    *("--src-prefix=a/", "--dst-prefix=b/"),
)
_FIRST_PARENT = ("--first-parent", "--diff-merges=first-parent")
_MOST_COMMITS = 20_000  # beyond this many, the range is followed as one diff
_DIFF = ("diff", "--unified=0", "--no-renames", *_PLAIN)


def first_parent_steps(checkout: Checkout, old: str, new: str) -> list[Changes] | None:
    """The commits after `old` up to `new` along first parents, oldest first, with what each
    did to files; None when the chain does not lead back to `old` (then: one diff)."""
    try:
        text = checkout.run_git(
            "log", *_FIRST_PARENT, "--reverse", "--raw", "-M", "--no-abbrev", *_PLAIN,
            CHANGES_FORMAT, f"--max-count={_MOST_COMMITS}", f"{old}..{new}", "--",
        )  # fmt: skip
    except GitSourceError:
        return None
    steps = parse_changes_log(text)
    if not steps or steps[0].parent != old or steps[-1].sha != new:
        return None
    return steps


def range_step(checkout: Checkout, old: str, new: str, *paths: str) -> Changes:
    """One step from `old` to `new`: what a single `git diff -M` says changed (to `paths`)."""
    text = checkout.run_git("diff", "--raw", "-M", "--no-abbrev", *_PLAIN, old, new, "--", *paths)
    return Changes(old, new).read_raw(text.split("\n"))


def step_hunks(
    checkout: Checkout, steps: list[Changes], paths: Collection[str], *, commits: bool
) -> dict[str, dict[str, list[Hunk]]]:
    """{step's sha: {path: hunks}} of each modified file among `paths` (renames: `pair_hunks`):
    one `git log -p` when the steps are `commits`, else one `git diff` per step."""
    wanted = sorted(p for p in paths if check_repo_path(p) is None)
    if not wanted or not steps:
        return {}
    if not commits:
        return {
            step.sha: _modified(checkout.run_git(*_DIFF, step.parent, step.sha, "--", *wanted))
            for step in steps
        }
    text = checkout.run_git(
        "log", *_FIRST_PARENT, "--full-history", "-p", *_DIFF[1:], RECORD_FORMAT,
        f"{steps[0].parent}..{steps[-1].sha}", "--", *wanted,
    )  # fmt: skip
    return {sha: _modified(patch) for sha, patch in parse_patch_log(text).items()}


def _modified(diff: str) -> dict[str, list[Hunk]]:
    return {path: hunks for path, (hunks, _) in parse_files(diff).items() if hunks}


def pair_hunks(checkout: Checkout, old_blob: str, new_blob: str) -> list[Hunk]:
    """The hunks of `git diff --unified=0` between two blobs (a renamed file's two sides)."""
    if old_blob == new_blob:
        return []
    return parse_hunks(checkout.run_git("diff", "--unified=0", *_PLAIN, old_blob, new_blob))


def pair_score(checkout: Checkout, step: Changes, old_path: str, new_path: str) -> int:
    """How similar git's rename detection finds `old_path` and `new_path` in `step`, in
    percent; 0 when it would not pair them."""
    if check_repo_path(old_path) or check_repo_path(new_path):
        return 0
    found = range_step(checkout, step.parent, step.sha, old_path, new_path).renamed.get(old_path)
    return found[1] if found is not None and found[0] == new_path else 0


def written_lines(
    checkout: Checkout, step: Changes
) -> dict[str, tuple[list[Hunk], dict[int, str]]]:
    """{path: (hunks, {line: text})} of the lines `step` added to each file (renames not
    paired), to find where deleted lines went."""
    files = parse_files(checkout.run_git(*_DIFF, step.parent, step.sha))
    return {path: found for path, found in files.items() if found[0]}


def files_holding(checkout: Checkout, sha: str, text: str) -> list[str]:
    """The files of commit `sha` holding `text` on one line (`git grep -F`): whether a text
    is a block's own or boilerplate."""
    if not text or "\n" in text:
        return []
    try:
        out = checkout.run_git("grep", "-l", "-F", "-I", "-e", text, sha, "--")
    except GitSourceError:  # git grep exits 1 when nothing matches
        return []
    prefix = f"{sha}:"
    return [line.removeprefix(prefix) for line in out.split("\n") if line]

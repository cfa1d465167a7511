"""git's diff as data: `git diff -M --unified=0` text -> each file's new path and hunks.

Pure: `gitsource` runs git and hands its output here; `following.remap` maps lines through
the hunks.
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
    # Hunk lines start with '+', '-', ' ' or '\\': only a file header starts with "diff --git".
    files = re.split(r"^diff --git ", text, flags=re.MULTILINE)[1:]
    return {old: (new, hunks) for old, new, hunks in map(_parse_file, files) if old is not None}


def _parse_file(text: str) -> tuple[str | None, str | None, list[Hunk]]:
    header, *lines = text.split("\n")
    old = new = _header_path(header)
    hunks: list[Hunk] = []
    for line in lines:
        match = _HUNK.match(line)
        if match:
            a, b, c, d = match.groups()
            hunks.append((int(a), int(b or 1), int(c), int(d or 1)))
        elif hunks:
            continue  # inside hunks: a removed line '--- x' is not a header
        elif line.startswith("rename from "):
            old = _unquote(line[len("rename from ") :])
        elif line.startswith("rename to "):
            new = _unquote(line[len("rename to ") :])
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
    return _unquote(a)[2:]


def _unquote(name: str) -> str:
    """Undo git's C-style quoting of a path that holds a quote, backslash or control byte."""
    if len(name) < 2 or not name.startswith('"') or not name.endswith('"'):
        return name
    raw: bytes = codecs.escape_decode(name[1:-1].encode("utf-8"))[0]
    return raw.decode("utf-8", errors="replace")

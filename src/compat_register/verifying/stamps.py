"""Review stamps: `registers/citations.lock`, a hash of each citation's lines as last reviewed.

A quote protects a citation against its lines changing; a range without a quote has nothing
to protect it. A stamp is the hash of the cited lines at the pinned commit in the form their
file kind compares (`compare.block`), taken when someone has read them (`register stamp`);
`register verify` then reports a citation whose lines no longer hash to its stamp as
`changed`, and one without a stamp as `unstamped`.

The lock is text: one line per citation, sorted, so a pull request shows which stamps moved.
`reading.folder.read_lock` reads the file (the folder's one reader); this module parses the
text it gives (`lock_of`) and makes the new text that `api` writes.

    # citations.lock: review stamps written by `register stamp` and `register bump`.
    META-07 spec docs/specification/2026-07-28/basic/index.mdx:421 v2:sha256:1f0c9a3b5e7d2468
    META-07 mcpx internal/mcpserver/server.go:658-665 v2:sha256:9b2e...
    META-07 mcpx internal/mcpserver/server.go:658-665#2 v2:sha256:9b2e...

`v2:` marks a stamp hashed by its file's kind, the one form a stamp has.

The key is the entry, the source, the full path and the lines; `#2` marks a second
citation of the same lines in the same entry. Paths are %-escaped where they hold a space,
`%` or `#`.

    # pin mcpx 05c78b2

A `# pin ALIAS COMMIT` line records the `commit:` of each stamped source when the lock
was written (a comment to older readers). `register verify` compares it with sources.yaml:
a pin moved by hand, not by `register bump`, left every line number where it was, and the
way out is bump, not new stamps.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from ..citations.compare import Kind, block
from ..model.diagnostic import Diagnostic, Severity
from ..model.notation import lines_text
from ..model.registers import Citation, CitationKey
from ..reading.folder import LockText
from ..storage.errors import EditError

HEADER = (
    "# citations.lock: review stamps, written by `register stamp` and `register bump`.\n"
    "# One line per citation: ENTRY SOURCE PATH:LINES[#N] v2:sha256:HASH of its lines at\n"
    "# the pinned commit, compared by file kind (docs/pins.md). Do not edit by hand: run\n"
    "# `register stamp ID` after review.\n"
)
_LINE = re.compile(
    r"(\S+) (\S+) (.+):([0-9]+)(?:-([0-9]+))?(?:#([0-9]+))? (v2:sha256:[0-9a-f]{16})\Z"
)
_ESCAPE = re.compile(r"[%#\s]")
_PIN = re.compile(r"# pin (\S+) ([0-9a-fA-F]+)\Z")


# A named tuple, not a dataclass: a dataclass's methods are compiled when its module is
# imported, a cost every `register bump` pays before it starts (docs/pins.md, Speed).
class Key(NamedTuple):
    """What a stamp belongs to: one citation of one entry."""

    entry: str
    source: str
    path: str
    start: int
    end: int
    occurrence: int = 1
    """1 for the first citation of these lines in the entry, 2 for the second, ..."""

    def as_text(self) -> str:
        more = f"#{self.occurrence}" if self.occurrence > 1 else ""
        path = _ESCAPE.sub(lambda m: "".join(f"%{b:02X}" for b in m[0].encode()), self.path)
        return f"{self.entry} {self.source} {path}:{lines_text(self.start, self.end)}{more}"


Place = tuple[str, str, str, int, int]
"""(entry, source, full path, start, end) of a citation, before occurrences are counted."""


def keys(places: Iterable[Place | None]) -> list[Key | None]:
    """The key of each place, counting repeats of the same place in order (None stays None)."""
    seen: dict[Place, int] = {}
    found: list[Key | None] = []
    for place in places:
        if place is None:
            found.append(None)
            continue
        seen[place] = seen.get(place, 0) + 1
        found.append(Key(*place, occurrence=seen[place]))
    return found


def place(citation: Citation) -> Place | None:
    """Where a resolved citation points; None for one without a source."""
    if citation.source is None or citation.repo_path is None:
        return None
    return (citation.entry, citation.source, citation.repo_path, citation.start, citation.end)


def digest(lines: Sequence[str], kind: Kind) -> str:
    """The stamp of some cited lines of a file of `kind`: `v2:sha256:` and a short sha256
    of their form by that kind's rule (`compare.block`), so that what the rule calls the
    same (a formatter's realignment; a re-wrapped paragraph) asks for no new review."""
    text = block(lines, kind)
    return "v2:sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def restamp(
    old: Mapping[Key, str], current: Iterable[tuple[Key, str | None]], entries: set[str] | None
) -> dict[Key, str]:
    """The stamps after `register stamp`: each current citation of the chosen entries (all
    when `entries` is None) gets its digest, or keeps its old stamp when it has none (its
    lines could not be read); other entries' stamps stay; stamps of chosen entries that
    match no citation any more are dropped."""
    chosen: Callable[[str], bool] = lambda entry: entries is None or entry in entries  # noqa: E731
    new = {key: value for key, value in old.items() if not chosen(key.entry)}
    for key, value in current:
        if chosen(key.entry) and (value is not None or key in old):
            new[key] = value if value is not None else old[key]
    return new


def carry(
    old: Mapping[Key, str], before: Sequence[Place | None], after: Sequence[Place | None]
) -> dict[Key, str]:
    """The stamps after citations moved from `before` to `after` (the same citations, in
    the same order): each stamp goes to its citation's new key with its hash unchanged, so
    `register verify` compares the lines at the new place with what was reviewed.

    A key's occurrence (`#2`) counts the citations of the same lines in order, so it shifts
    when one of them moves: a citation listed under `sources:` leaving lines that the
    status note cites too makes the note's `#2` its `#1`. A stamp that no citation held
    (of lines no longer cited, or left behind by such a shift) is kept, and counts for its
    lines: a citation moved there without a stamp of its own takes it, so the lock keeps
    as many reviews of those lines as it had. It hashes the same lines of the same entry,
    and verify compares it with their text like any other stamp."""
    was, now = keys(before), keys(after)
    held = {key for key in was if key is not None}
    spare: dict[Place, list[Key]] = {}
    for key in sorted(old):
        if key not in held:
            spare.setdefault(_place_of(key), []).append(key)
    carried: dict[Key, str] = {}
    arrived: list[Key] = []
    for b, a in zip(was, now, strict=True):
        if a is not None and b is not None and b in old:
            carried[a] = old[b]
        elif a is not None and a != b:
            arrived.append(a)
    for key in arrived:
        if left := spare.get(_place_of(key)):
            carried[key] = old[left.pop(0)]
    for left in spare.values():
        for key in left:
            carried[_free(key, carried)] = old[key]
    return carried


def _place_of(key: Key) -> Place:
    return (key.entry, key.source, key.path, key.start, key.end)


def _free(key: Key, taken: Mapping[Key, str]) -> Key:
    """`key`, or the first later occurrence of its lines that `taken` does not hold."""
    while key in taken:
        key = key._replace(occurrence=key.occurrence + 1)
    return key


def parse(text: str, file: str) -> tuple[dict[Key, str], list[Diagnostic]]:
    """The stamps of a lock file's text, and a diagnostic per line that is not one."""
    stamps: dict[Key, str] = {}
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = _LINE.match(line)
        if match is None:
            message = (
                "not a stamp line (ENTRY SOURCE PATH:LINES v2:sha256:HASH): run register stamp"
            )
            problems.append(
                Diagnostic(
                    file=file,
                    line=number,
                    col=1,
                    severity="error",
                    id="citations",
                    code="bad-stamp",
                    message=message,
                )
            )
            continue
        entry, source, path, start, end, occurrence, value = match.groups()
        key = Key(
            entry, source, _unescape(path), int(start), int(end or start), int(occurrence or 1)
        )
        stamps[key] = value
    return stamps, problems


def _unescape(path: str) -> str:
    raw = re.sub(rb"%([0-9A-F]{2})", lambda m: bytes([int(m[1], 16)]), path.encode("utf-8"))
    return raw.decode("utf-8", errors="replace")


def format_lock(stamps: dict[Key, str], pins: Mapping[str, str] | None = None) -> str:
    """The lock file's text: the header, the pins of the stamped sources (from `pins`, by
    alias), then one line per stamp in key order."""
    body = "".join(f"{key.as_text()} {stamps[key]}\n" for key in sorted(stamps))
    stamped = sorted({key.source for key in stamps} & set(pins or {}))
    return HEADER + "".join(f"# pin {alias} {(pins or {})[alias]}\n" for alias in stamped) + body


def same_lines(new: str, old: str) -> bool:
    """Whether a lock made anew (`format_lock`, lines ending in `\n`) holds the lines of
    one as read, whatever line ends that one has: then it need not be written."""
    return new.splitlines() == old.splitlines()


def parse_pins(text: str) -> dict[str, str]:
    """The `# pin ALIAS COMMIT` lines of a lock's text, by alias (none in an older lock)."""
    return {m[1]: m[2] for line in text.splitlines() if (m := _PIN.match(line))}


class Lock(NamedTuple):  # not a dataclass: see `Key`
    """A register set's lock file, as read."""

    path: Path
    file: str
    """The path as messages show it."""
    stamps: dict[Key, str]
    problems: list[Diagnostic]
    text: str | None = None
    """The file's text as read (what a rewrite must find there still); None when it could
    not be read."""
    pins: Mapping[str, str] = MappingProxyType({})
    """The `commit:` of each stamped source when the lock was written, by alias."""


def at_lock(file: str, code: str, message: str, severity: Severity = "error") -> Diagnostic:
    """A problem of the lock as a whole, at its first line."""
    return Diagnostic(
        file=file, line=1, col=1, severity=severity, id="citations", code=code, message=message
    )


def lock_of(found: LockText | None) -> Lock | None:
    """The lock of a register set as `reading.folder.read_lock` found it, or None when it
    has none (stamps are then not checked)."""
    if found is None:
        return None
    if found.text is None:
        problem = at_lock(found.file, "bad-stamp", found.problem or "cannot read")
        return Lock(found.path, found.file, {}, [problem])
    stamps, problems = parse(found.text, found.file)
    return Lock(found.path, found.file, stamps, problems, found.text, parse_pins(found.text))


def to_rewrite(found: LockText | None) -> Lock | None:
    """`lock_of`, for a command that rewrites the lock: one that cannot be read is refused
    (EditError) rather than written over."""
    lock = lock_of(found)
    if lock is not None and lock.text is None:
        raise EditError(f"{lock.file}: {lock.problems[0].message}")
    return lock


def carry_lock(
    found: LockText | None,
    citations: Sequence[Citation],
    moved: Mapping[CitationKey, Place],
    pins: Mapping[str, str] | None = None,
) -> tuple[str, str, str] | None:
    """The lock after the citations in `moved` (keyed by `Citation.key`; `citations` is the
    whole set, in `RegisterSet.citations()` order) went to new places, as (file, old text,
    new text); None when there is no lock or it stays as it is.

    Each stamp goes to its citation's new key with its hash unchanged (`carry`). A lock
    holding lines that are not stamps is refused (EditError) rather than rewritten without
    them: `register stamp` rewrites it. `pins` (alias -> new `commit:`) replace the pins
    the lock recorded, as `register bump` moves one.
    """
    lock = to_rewrite(found) if moved or pins else None
    if lock is None or lock.text is None:
        return None
    if lock.problems:
        raise EditError(f"{lock.file} has lines that are not stamps: run register stamp first")
    before = [place(c) for c in citations]
    # Only the citations in a moved field are looked up: a key is made anew on each look-up.
    fields = {key.field for key in moved}
    after = [
        moved.get(c.key, old) if c.field in fields else old
        for c, old in zip(citations, before, strict=True)
    ]
    text = format_lock(carry(lock.stamps, before, after), {**lock.pins, **(pins or {})})
    return None if same_lines(text, lock.text) else (lock.file, lock.text, text)

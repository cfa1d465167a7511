"""Review stamps: `registers/citations.lock`, a hash of each citation's lines as last reviewed,
one sorted line per citation (format: docs/pins.md), and `register stamp`'s plan.

A range without a quote has nothing else to protect it: `register verify` reports one whose
lines no longer hash to its stamp `changed`, one without a stamp `unstamped`.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from ..citations.compare import Kind, block, source_kind
from ..model.diagnostic import Diagnostic
from ..model.notation import lines_text
from ..model.registers import Citation, CitationKey, Sources
from ..reading.folder import BesideFile
from ..storage.errors import EditError
from .outcome import AS_CITED, Outcome

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


class Key(NamedTuple):  # not a dataclass: cheaper to import on bump's path (docs/pins.md)
    """What a stamp belongs to: the `occurrence`-th citation of these lines in one entry."""

    entry: str
    source: str
    path: str
    start: int
    end: int
    occurrence: int = 1

    def as_text(self) -> str:
        more = f"#{self.occurrence}" if self.occurrence > 1 else ""
        path = _ESCAPE.sub(lambda m: "".join(f"%{b:02X}" for b in m[0].encode()), self.path)
        return f"{self.entry} {self.source} {path}:{lines_text(self.start, self.end)}{more}"


Place = tuple[str, str, str, int, int]
"""(entry, source, full path, start, end) of a citation."""


def keys(places: Iterable[Place | None]) -> list[Key | None]:
    """The key of each place, counting repeats of one place in order (None stays None)."""
    seen: Counter[Place | None] = Counter()
    found: list[Key | None] = []
    for place in places:
        seen[place] += place is not None
        found.append(None if place is None else Key(*place, occurrence=seen[place]))
    return found


def place(citation: Citation) -> Place | None:
    """Where a resolved citation points; None for one without a source."""
    if citation.source is None or citation.repo_path is None:
        return None
    return (citation.entry, citation.source, citation.repo_path, citation.start, citation.end)


def digest(lines: Sequence[str], kind: Kind) -> str:
    """The stamp of cited lines of a file of `kind`: a short sha256 of their form by that
    kind's rule (`compare.block`), so a realignment or re-wrap asks for no new review."""
    text = block(lines, kind)
    return "v2:sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def restamp(
    old: Mapping[Key, str], current: Iterable[tuple[Key, str | None]], entries: set[str] | None
) -> dict[Key, str]:
    """The stamps after `register stamp` of `entries` (None: all): each of their current
    citations gets its digest (or keeps its old stamp when its lines could not be read),
    their other stamps are dropped, other entries' stay."""
    chosen: Callable[[str], bool] = lambda entry: entries is None or entry in entries  # noqa: E731
    new = {key: value for key, value in old.items() if not chosen(key.entry)}
    for key, value in current:
        if chosen(key.entry) and (value is not None or key in old):
            new[key] = value if value is not None else old[key]
    return new


def carry(
    old: Mapping[Key, str], before: Sequence[Place | None], after: Sequence[Place | None]
) -> dict[Key, str]:
    """The stamps after citations moved from `before` to `after` (in one order), each to its
    citation's new key, hash unchanged. A stamp no citation held (occurrences shift as one
    moves) is kept, and goes to a citation that arrives on its lines without one."""
    was, now = keys(before), keys(after)
    held = {key for key in was if key is not None}
    spare: dict[Place, list[Key]] = {}
    for key in sorted(old):
        if key not in held:
            spare.setdefault(key[:5], []).append(key)
    carried: dict[Key, str] = {}
    arrived: list[Key] = []
    for b, a in zip(was, now, strict=True):
        if a is not None and b is not None and b in old:
            carried[a] = old[b]
        elif a is not None and a != b:
            arrived.append(a)
    for key in arrived:
        if left := spare.get(key[:5]):
            carried[key] = old[left.pop(0)]
    for left in spare.values():
        for key in left:
            carried[_free(key, carried)] = old[key]
    return carried


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
        if (match := _LINE.match(line)) is None:
            message = (
                "not a stamp line (ENTRY SOURCE PATH:LINES v2:sha256:HASH): run register stamp"
            )
            problems.append(at_lock(file, "bad-stamp", message, line=number))
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
    """The lock file's text: the header, the stamped sources' `pins`, a line per stamp."""
    body = "".join(f"{key.as_text()} {stamps[key]}\n" for key in sorted(stamps))
    stamped = sorted({key.source for key in stamps} & set(pins or {}))
    return HEADER + "".join(f"# pin {alias} {(pins or {})[alias]}\n" for alias in stamped) + body


def same_lines(new: str, old: str) -> bool:
    """Whether a lock made anew holds the lines of one as read, whatever its line ends."""
    return new.splitlines() == old.splitlines()


class Lock(NamedTuple):  # not a dataclass: see `Key`
    """A register set's lock file as read (`text` None: unreadable), `file` as messages
    show it, and each stamped source's `commit:` when it was written (`pins`)."""

    path: Path
    file: str
    stamps: dict[Key, str]
    problems: list[Diagnostic]
    text: str | None = None
    pins: Mapping[str, str] = MappingProxyType({})


def at_lock(file: str, code: str, message: str, line: int = 1) -> Diagnostic:
    """A problem of the lock, at its first line or `line`."""
    return Diagnostic(
        file=file, line=line, col=1, severity="error", id="citations", code=code, message=message
    )


def lock_of(found: BesideFile | None) -> Lock | None:
    """The lock as `reading.folder.read_lock` found it, or None (stamps are not checked)."""
    if found is None:
        return None
    if found.text is None:
        problem = at_lock(found.file, "bad-stamp", found.problem or "cannot read")
        return Lock(found.path, found.file, {}, [problem])
    stamps, problems = parse(found.text, found.file)
    pins = {m[1]: m[2] for line in found.text.splitlines() if (m := _PIN.match(line))}
    return Lock(found.path, found.file, stamps, problems, found.text, pins)


def to_rewrite(found: BesideFile | None) -> Lock | None:
    """`lock_of`, refusing (EditError) a lock that cannot be read rather than rewrite it."""
    lock = lock_of(found)
    if lock is not None and lock.text is None:
        raise EditError(f"{lock.file}: {lock.problems[0].message}")
    return lock


def carry_lock(
    found: BesideFile | None,
    citations: Sequence[Citation],
    moved: Mapping[CitationKey, tuple[str, int, int]],
    pins: Mapping[str, str] | None = None,
) -> tuple[str, str, str] | None:
    """(file, old text, new text) of the lock once the citations in `moved` went to new
    (path, start, end) (`carry`) and `pins` moved; None when there is none or it stays. A
    lock holding lines that are not stamps is refused (EditError), not rewritten without them."""
    lock = to_rewrite(found) if moved or pins else None
    if lock is None or lock.text is None:
        return None
    if lock.problems:
        raise EditError(f"{lock.file} has lines that are not stamps: run register stamp first")
    before = [place(c) for c in citations]
    # Only the citations in a moved field are looked up: a key is made anew on each look-up.
    fields = {key.field for key in moved}
    after = [
        (*old[:2], *new) if old and c.field in fields and (new := moved.get(c.key)) else old
        for c, old in zip(citations, before, strict=True)
    ]
    text = format_lock(carry(lock.stamps, before, after), {**lock.pins, **(pins or {})})
    return None if same_lines(text, lock.text) else (lock.file, lock.text, text)


# --- register stamp -----------------------------------------------------------------------


class StampPlan(NamedTuple):  # not a dataclass: see `Key`
    """citations.lock after `register stamp` ("" old text: none), the chosen citations
    stamped, and those refused: their lines are not readable as cited."""

    old_text: str
    text: str
    stamped: list[Outcome]
    refused: list[Outcome]

    @property
    def changed(self) -> bool:
        return not same_lines(self.text, self.old_text)


def plan(
    outcomes: Sequence[Outcome], sources: Sources, lock: BesideFile | None, chosen: set[str] | None
) -> StampPlan:
    """Stamp the citations of the `chosen` entries (None: all), given every citation's
    outcome in `RegisterSet.citations()` order; EditError when the lock cannot be read."""
    mine = [o for o in outcomes if chosen is None or o.citation.entry in chosen]
    found = keys(place(o.citation) for o in outcomes)
    current = [
        (key, _digest(outcome, sources))
        for outcome, key in zip(outcomes, found, strict=True)
        if key is not None
    ]
    read = to_rewrite(lock)
    pins = {alias: s.commit for alias, s in sources.sources.items()}
    restamped = restamp(read.stamps if read else {}, current, chosen)
    stamped = [o for o in mine if stampable(o)]
    refused = [o for o in mine if not stampable(o) and o.citation.source is not None]
    old_text = read.text if read and read.text else ""
    return StampPlan(old_text, format_lock(restamped, pins), stamped, refused)


def stampable(outcome: Outcome) -> bool:
    """Whether a citation's lines read as cited (and so may be stamped)."""
    return outcome.outcome in AS_CITED and outcome.excerpt is not None


def _digest(outcome: Outcome, sources: Sources) -> str | None:
    excerpt, path = outcome.excerpt, outcome.citation.repo_path
    if outcome.outcome not in AS_CITED or excerpt is None or path is None:
        return None
    return digest(excerpt, source_kind(sources.sources.get(outcome.citation.source or ""), path))

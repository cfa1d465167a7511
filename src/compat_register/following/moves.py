"""Where an edited or deleted cited range went in one step of history: pure, over line keys.

The same text where the hunk put new lines: re-anchored; moved elsewhere with evidence
(context that moved with it): re-anchored there; the original surviving edited (NEAR
alike): changed, there; else not found or gone. Twins without evidence are only named.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

from ..citations.compare import Kind, same_text
from ..sources.diffs import Hunk

NEAR = 0.6
"""SequenceMatcher ratio at which the best window counts as the original edited."""
ENOUGH = 20
"""Letters and digits a move's evidence needs (git blame -M's threshold)."""
CONTEXT = 3
"""Context lines looked at on each side of a block for evidence that it moved whole."""
_WIDEST = 400
"""Lines of a region read line by line for anchors without an index."""
RARE = 6
"""How many of a block's rarest tokens pick the anchors of a long region."""
COMMON = 64
"""A token on more lines than this is too common to pick anchors by."""
ANCHORS = 4
"""In a long region, the lines most like one of the block's that anchor a window."""
CROWD = 32
"""Beyond this many places holding a block's text (`}`), none is looked into: flagged with
NAMED of them, and finding moves stays linear in citations and added lines."""
NAMED = 5

Lines = tuple[int, int]
"""A range of lines: (first, last)."""
Candidate = tuple[str, int, int]
"""(path, start, end) of a place that holds the cited text but was not taken."""


class Decision(NamedTuple):
    """What one step did to one touched range: `kind` re-anchored, changed or gone; `path`
    another file now holding it; `score` ranks rivals for a line; `placed` by a move or a
    best match (held to the one-line rule); `lost` (worth looking in other files)."""

    kind: str
    lines: Lines | None
    note: str
    path: str | None = None
    flags: tuple[str, ...] = ()
    candidates: tuple[Candidate, ...] = ()
    score: float = 0.0
    placed: bool = False
    lost: bool = False

    def refused(
        self, note: str, flags: tuple[str, ...], candidates: tuple[Candidate, ...]
    ) -> Decision:
        """This decision kept where another place was not taken, which is named."""
        return Decision(
            self.kind,
            self.lines,
            "; ".join(filter(None, (self.note, note))),
            flags=tuple(dict.fromkeys((*self.flags, *flags))),
            candidates=(*self.candidates, *candidates),
        )


def joined(keys: Iterable[str]) -> str:
    """Keys as one text (line breaks and blank lines aside), for similarity."""
    return " ".join(k for k in keys if k)


class Text(NamedTuple):
    """A file at one commit: its lines, their keys by the rule `keyed`
    (`compare.comparable`), and the file's own kind."""

    lines: Sequence[str]
    keys: Sequence[str]
    kind: Kind
    keyed: Kind


def same(old: Text, lines: Lines, new: Text, place: Lines) -> bool:
    """Whether old `lines` and new `place` read the same by both files' kinds' rule."""
    before = old.lines[lines[0] - 1 : lines[1]]
    after = new.lines[place[0] - 1 : place[1]]
    return all(same_text(before, after, kind) for kind in {old.kind, new.kind})


class AddedIndex:
    """The lines one step added to one file, by key: built once, looked up per citation."""

    def __init__(self, path: str, text: Text, hunks: Sequence[Hunk]) -> None:
        self.path, self.text, self.keys = path, text, text.keys
        self._tokens: dict[str, list[int]] | None = None
        self.added: set[int] = set()
        self._at: dict[str, list[int]] = {}
        for _, _, start, count in hunks:
            for line in range(start, start + count):
                self.added.add(line)
                if key := self.keys[line - 1]:
                    self._at.setdefault(key, []).append(line)

    def blocks(self, block: Sequence[str], most: int | None = None) -> list[Lines]:
        """The first `most` runs of added lines whose keys are `block`'s, in file order,
        looked up by the block's rarest line."""
        held = [(len(self._at.get(k, ())), i) for i, k in enumerate(block) if k]
        if not held:
            return []
        rarest = min(held)[1]
        found: list[Lines] = []
        for line in self._at.get(block[rarest], ()):
            start = line - rarest  # an added line is in the file: its key can be read
            if all(n in self.added and self.keys[n - 1] == k for n, k in enumerate(block, start)):
                found.append((start, start + len(block) - 1))
                if len(found) == most:
                    break
        return found

    def anchors(self, block: Sequence[str], region: Lines) -> list[int]:
        """The ANCHORS lines of `region` sharing the most of the block's rarest tokens, by an
        index of the file's tokens built once."""
        if self._tokens is None:
            self._tokens = {}
            for number, key in enumerate(self.keys, 1):
                for token in set(_TOKEN.findall(key)):
                    self._tokens.setdefault(token, []).append(number)
        tokens = self._tokens
        wanted = {t for key in block for t in _TOKEN.findall(key)}
        # Tokens the file lacks say nothing; common ones would cost a pass over the region.
        held = [t for t in wanted if 0 < len(tokens.get(t, ())) <= COMMON]
        rare = sorted(held, key=lambda t: len(tokens[t]))[:RARE]
        if not rare:
            return _likeliest(
                self.keys, block, (region[0], min(region[1], region[0] + _WIDEST - 1))
            )
        shared: dict[int, int] = {}
        for token in rare:
            postings = tokens.get(token, [])
            for number in postings[bisect_left(postings, region[0]) :]:
                if number > region[1]:
                    break
                shared[number] = shared.get(number, 0) + 1
        return sorted(shared, key=lambda n: (-shared[n], n))[:ANCHORS]

    def evidence(self, old: Sequence[str], start: int, end: int, place: Lines) -> bool:
        """Whether old lines `start..end` and the context that moved with them to `place`
        make two non-blank lines of ENOUGH letters and digits, found once in the old file
        (a repeated run tells no copy from another)."""
        matched = [k for k in old[start - 1 : end] if k]
        run = [start, end]  # the old lines that moved together, context included
        for step in (-1, 1):
            old_line, new_line = (start, place[0]) if step < 0 else (end, place[1])
            seen = 0
            while seen < CONTEXT:
                old_line, new_line = old_line + step, new_line + step
                if not (1 <= old_line <= len(old) and new_line in self.added):
                    break
                if old[old_line - 1] != self.keys[new_line - 1]:
                    break
                if old[old_line - 1]:
                    matched.append(old[old_line - 1])
                    run[step > 0] = old_line
                    seen += 1
        alnum = sum(ch.isalnum() for key in matched for ch in key)
        return len(matched) >= 2 and alnum >= ENOUGH and not _repeated(old, *run)


def _repeated(keys: Sequence[str], first: int, last: int) -> bool:
    """Whether the old lines `first..last` read the same elsewhere in the old file."""
    run, size = keys[first - 1 : last], last - first + 1
    head = run[0]
    return any(
        keys[i] == head and keys[i : i + size] == run
        for i in range(len(keys) - size + 1)
        if i != first - 1
    )


def decide(
    old: Text,
    index: AddedIndex,
    start: int,
    end: int,
    region: Lines | None,
    removed: bool = True,
    expected: int | None = None,
    gap: tuple[int, int, int] | None = None,
) -> Decision:
    """Where old lines `start..end` went, given the lines put in their place (`region`,
    None: deleted), whether any was `removed` (not only lines inserted between them), the
    line at their offset in the hunk (`expected`) and the gap they left (`Remap.gap`)."""
    cited = (start, end)
    block = old.keys[start - 1 : end]
    what = "edited" if region else "deleted"
    if not joined(block):  # blank lines: nothing to look for
        return Decision("changed" if region else "gone", region, f"the cited lines were {what}")
    new = index.text
    if region and _may_read_alike(block, new.keys, region) and same(old, cited, new, region):
        markup = " or markup" if "markdown" in (old.kind, new.kind) else ""
        return Decision("re-anchored", region, f"edited in spacing{markup} only", score=1.0)
    if region and not removed:  # every cited line is still there, with others between them
        return Decision("changed", region, "lines were inserted between the cited lines")
    far, strong, why = _twins(old, start, end, [index], region)
    near = best_window(block, new.keys, region, index.anchors, expected) if region else None
    if near is not None:
        if same(old, cited, new, near[0]):
            return Decision("re-anchored", near[0], "lines were added beside it", score=1.0)
        flags = ("ambiguous",) if strong else ()
        also = "; its text was also added elsewhere with context: not taken" if strong else ""
        note = "the cited lines were edited" + also
        return Decision("changed", near[0], note, flags=flags, candidates=_named(strong),
                        score=near[1], placed=True)  # fmt: skip
    stays = _stays(old, cited, index, gap) if region is None else []
    if stays:  # the text is still where it was: git's diff deleted a twin of it (a slider)
        note = (
            "the cited lines were deleted, but lines of the same text stay where they were:"
            " which of them survived is the diff's guess"
        )
        places = [*((index, p) for p in stays), *strong]
        return Decision("changed", stays[0], note, flags=("ambiguous",),
                        candidates=_named(places))  # fmt: skip
    if len(strong) == 1:
        return Decision("re-anchored", strong[0][1], "moved within the file", score=2.0,
                        placed=True)  # fmt: skip
    if far:
        note = f"the cited lines were {what}; its text was added elsewhere: not taken ({why})"
        return Decision("changed" if region else "gone", region, note, flags=("ambiguous",),
                        candidates=_named(far))  # fmt: skip
    if region:
        note = (
            "the cited lines were edited; its text was not found in the lines that took its place"
        )
        return Decision("changed", region, note, flags=("not-found",), lost=True)
    return Decision("gone", None, "the cited lines were deleted", lost=True)


def _stays(
    old: Text, cited: Lines, index: AddedIndex, gap: tuple[int, int, int] | None
) -> list[Lines]:
    """Where deleted lines `cited` would be had git slid their deletion (`gap`) down or up,
    when the lines there were kept and read the same: in periodic code the text is still
    where it was, and no move to a twin elsewhere can be told from it."""
    if gap is None:
        return []
    first, last, after = gap
    new, found = index.text, []
    # slid down: the kept lines after the gap; slid up: the kept lines before it
    for place in ((after + cited[0] - first, after + cited[1] - first),
                  (after - 1 - (last - cited[0]), after - 1 - (last - cited[1]))):  # fmt: skip
        if place[0] < 1 or place[1] > len(new.lines):
            continue
        kept = not any(n in index.added for n in range(place[0], place[1] + 1))
        if kept and same(old, cited, new, place):
            found.append(place)
    return found


def _may_read_alike(block: Sequence[str], keys: Sequence[str], region: Lines) -> bool:
    """Whether `region`'s keys hold as much text as `block`'s (read no further than that)."""
    wanted = len(joined(block))
    held = 0
    for line in range(region[0], region[1] + 1):
        if key := keys[line - 1]:
            held += len(key) + (1 if held else 0)
            if held > wanted:
                return False
    return held == wanted


def elsewhere(old: Text, start: int, end: int, indexes: Iterable[AddedIndex]) -> Decision | None:
    """The one other file of a step that took old lines `start..end` with evidence, flagged
    candidates when only twins or several took them, or None."""
    found, strong, why = _twins(old, start, end, indexes)
    if not found:
        return None
    if len(strong) == 1:
        (ix, place) = strong[0]
        return Decision("re-anchored", place, f"moved to {ix.path}", path=ix.path, score=2.0,
                        placed=True)  # fmt: skip
    return Decision("gone", None, f"its text was added to other files: not taken ({why})",
                    flags=("ambiguous",), candidates=_named(found))  # fmt: skip


Found = tuple[AddedIndex, Lines]


def _twins(
    old: Text, start: int, end: int, indexes: Iterable[AddedIndex], region: Lines | None = None
) -> tuple[list[Found], list[Found], str]:
    """The added places outside `region` that read as old lines `start..end` (the first
    NAMED when more than CROWD: none is looked into), those with evidence, and why none is
    taken."""
    block = old.keys[start - 1 : end]
    places = [(ix, p) for ix in indexes for p in ix.blocks(block, CROWD + 1)][: CROWD + 1]
    crowded = len(places) > CROWD
    found = [
        (ix, p)
        for ix, p in places
        if not (region and overlap(p, region)) and same(old, (start, end), ix.text, p)
    ]
    if crowded:
        return found[:NAMED], [], f"more than {CROWD} places hold it"
    strong = [(ix, p) for ix, p in found if ix.evidence(old.keys, start, end, p)]
    return found, strong, "several places hold it" if strong else "no context moved with it"


Anchors = Callable[[Sequence[str], Lines], list[int]]
"""Lines of a region worth a window around them, for a block (`AddedIndex.anchors`)."""


def best_window(
    block: Sequence[str],
    new: Sequence[str],
    region: Lines,
    anchors: Anchors | None = None,
    expected: int | None = None,
) -> tuple[Lines, float] | None:
    """The lines of `region` most like `block` (as many lines, one fewer or one more) and
    their ratio, or None when none is NEAR alike; a long region is tried around `anchors`."""
    low, high = region[0], region[1] if anchors else min(region[1], region[0] + _WIDEST - 1)
    if high < low:
        return None
    size = len(block)
    starts: Iterable[int] = range(low, high + 1)
    if high - low + 1 > 3 * size + ANCHORS:
        found = anchors(block, (low, high)) if anchors else _likeliest(new, block, (low, high))
        starts = sorted({s for a in found for s in range(max(low, a - size), a + 1)})
    # autojunk (the default) keeps a paragraph-long line from costing seconds
    matcher = SequenceMatcher(None)
    by_char = len(joined(block)) <= _SHORT
    matcher.set_seq2(_units(block, by_char))
    best: tuple[Lines, float] | None = None
    floor = NEAR - 1e-9  # a window less alike is no better than none
    aim = expected if expected is not None else low
    for length in (size, *sorted({max(1, size - 1), size + 1} - {size})):  # as cited, first
        for first in starts:
            if first + length - 1 > high:
                break
            matcher.set_seq1(_units(new[first - 1 : first - 1 + length], by_char))
            if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
                continue
            ratio = matcher.ratio()
            # Ties go to the cited lines' offset in the hunk, among windows of one length.
            closer = (
                best is not None
                and length == best[0][1] - best[0][0] + 1
                and (abs(first - aim) < abs(best[0][0] - aim))
            )
            if ratio > floor or ratio == floor and closer:
                best, floor = ((first, first + length - 1), ratio), ratio
    return best


_TOKEN = re.compile(r"\w+|[^\w\s]")
_SHORT = 240
"""Up to this many characters a block is compared character by character."""


def _units(keys: Sequence[str], by_char: bool) -> str | list[str]:
    """What SequenceMatcher compares: a short text's characters, a long one's tokens."""
    text = joined(keys)
    return text if by_char else _TOKEN.findall(text)


def _likeliest(new: Sequence[str], block: Sequence[str], region: Lines) -> list[int]:
    """The ANCHORS lines of `region` most like one of the block's (read line by line)."""
    matcher = SequenceMatcher(None, autojunk=False)

    def likeness(line: str) -> float:  # an upper bound, cheap
        matcher.set_seq2(_TOKEN.findall(line))
        best = 0.0
        for key in block:
            matcher.set_seq1(_TOKEN.findall(key))
            best = max(best, matcher.quick_ratio())
        return best

    lines = range(region[0], region[1] + 1)
    return sorted(lines, key=lambda n: -likeness(new[n - 1]))[:ANCHORS]


def overlap(a: Lines, b: Lines) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _named(places: Iterable[Found]) -> tuple[Candidate, ...]:
    return tuple((ix.path, *p) for ix, p in places)

"""Where each line of an old commit is at a new commit, by `git blame -w -M -C` alone.

The ground truth of bench/truth.py, built without the tool: a line's identity is the
commit that blame says wrote it, with its text. Both commits are blamed; an old line whose
identity appears in the new blame is the same line, at that place.

- Files whose path and text did not change between the commits are not blamed: each of
  their lines is where it was (and no line moved into them, since they did not change).
- An identity may occur more than once (`-C` gives a copied line its original's identity).
  Occurrences are paired first within one path, then a lone leftover with a lone leftover,
  then through the file pairing (the new file that holds most of an old file's
  identities); what is still unpaired with several candidates is ambiguous.
- `-w` ignores every whitespace change. A line blame calls the same but whose text differs
  by the file kind's rule (`same_line`) counts as changed: the rule is what bump promises.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

Key = tuple[str, str]
"""A line's identity: the commit that wrote it, and its text (whitespace runs as one)."""
Place = tuple[str, int]
"""A path and a 1-based line number."""
Gap = tuple[int, int, str, int, int]
"""Old lines low and high (excluded), the new path, its lines low and high (excluded)."""

MARKDOWN = (".md", ".mdx", ".markdown")
_MARKUP = re.compile(r"`+|\*+|(?<!\w)_+|_+(?!\w)")
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'"})


def same_line(path: str, old: str, new: str) -> bool:
    """Whether two lines say the same by the file kind's rule (docs/pins.md), written here
    again on purpose: Markdown drops emphasis, code spans and quote style; code keeps every
    character but compares whitespace runs as one space (indentation included)."""
    if path.endswith(MARKDOWN):
        old, new = _MARKUP.sub("", old.translate(_QUOTES)), _MARKUP.sub("", new.translate(_QUOTES))
    return old.split() == new.split()


def git(clone: Path, *args: str) -> str:
    """git's output, decoded without newline translation (a lone CR is not a line end)."""
    done = subprocess.run(["git", *args], cwd=clone, capture_output=True, check=True)
    return done.stdout.decode("utf-8", errors="replace")


def blame(clone: Path, commit: str, path: str) -> list[Key]:
    """The identity of every line of `path` at `commit`, in order: the commit blame names
    and the line's text, whitespace runs as one space. Not blame's origin path and line:
    where a commit copied a line into several files, `-C` names any of them as the origin,
    and not the same one when blamed from another commit."""
    out = git(clone, "blame", "-w", "-M", "-C", "--line-porcelain", commit, "--", path)
    keys: list[Key] = []
    sha = ""
    for row in out.split("\n"):
        if row.startswith("\t"):
            keys.append((sha, " ".join(row[1:].split())))
            continue
        head = row.split(" ")
        if len(head[0]) == 40 and len(head) >= 3 and head[1].isdigit():
            sha = head[0]
    return keys


def read_lines(clone: Path, commit: str, path: str) -> list[str]:
    """The lines of a file as git counts them (split at newlines only)."""
    text = git(clone, "show", f"{commit}:{path}")
    return text.removesuffix("\n").split("\n") if text else []


@dataclass
class Truth:
    """Where each blamed old line is at the new commit."""

    old_lines: dict[str, list[str]]
    new_lines: dict[str, list[str]]
    unchanged: set[str]
    """Paths whose text is the same at both commits."""
    places: dict[Place, list[Place]] = field(default_factory=dict)
    """Old place -> its new places: one (same), several (ambiguous) or none (changed)."""
    partner: dict[str, str | None] = field(default_factory=dict)
    """Each blamed old file's new counterpart (`_file_pairing`)."""
    counts: dict[tuple[str, str], Counter[str]] = field(default_factory=dict)

    def lines_at(self, place: Place) -> list[Place]:
        """Where blame puts old line `place` now, if the rule agrees ([] when changed)."""
        path, line = place
        if path in self.unchanged:
            return [place]
        found = self.places.get(place, [])
        return [p for p in found if self.same(place, p)]

    def same(self, old: Place, new: Place, exact: bool = False) -> bool:
        a, b = self.old_lines[old[0]][old[1] - 1], self.text(new)
        return a == b if exact else same_line(new[0], a, b)

    def text(self, new: Place) -> str:
        lines = self.new_lines.get(new[0], [])
        return lines[new[1] - 1] if 0 < new[1] <= len(lines) else "\0"

    def settle(self, place: Place) -> tuple[str, list[Place]]:
        """What is true of one old line, with the places it may be at now:

        - ("same", [place]): blame and the gap's alignment agree (or only one can tell);
        - ("weak", [blame's place, lines of the exact text nearby]): blame paired it with a
          line that differs in whitespace (`-w`), and no exact alignment says otherwise;
        - ("ambiguous", candidates): copies blame cannot pair;
        - ("undecided", [blame's place, the gap's place]): the two disagree;
        - ("changed", []).
        """
        blamed = self.lines_at(place)
        if place[0] in self.unchanged:
            return "same", blamed
        gap = self.in_gap(place)
        if len(blamed) > 1:
            return ("same", [gap]) if gap in blamed else ("ambiguous", blamed)
        if not blamed:
            return ("same", [gap]) if gap else ("changed", [])
        if gap == blamed[0]:
            return "same", blamed
        if self.same(place, blamed[0], exact=True):
            return ("same", blamed) if gap is None else ("undecided", [blamed[0], gap])
        if gap is not None and self.same(place, gap, exact=True):
            return "same", [gap]  # blame -w paired it with a line that differs in whitespace
        path = blamed[0][0]  # any line of the exact text in that file may be the one
        whole = (0, 0, path, 0, len(self.new_lines[path]) + 1)
        return "weak", [*blamed, *self.twins_in(place, whole, True)]

    def in_gap(self, place: Place) -> Place | None:
        """The line holding `place`'s text in the gap between its nearest anchors (lines
        unique in both files that blame pairs), matched by rank among the lines of that text
        in the gap: the alignment git's diff makes of a region, without its choices between
        equal lines. None when there are no anchors or the counts differ."""
        gap = self.gap(place)
        if gap is None:
            return None
        for exact in (True, False) if place[0].endswith(MARKDOWN) else (True,):
            olds = [n for n in range(gap[0] + 1, gap[1]) if self._twin(place, n, exact)]
            news = self.twins_in(place, gap, exact)
            if olds and len(olds) == len(news):
                return news[olds.index(place[1])]
        return None

    def twins_in(self, place: Place, gap: Gap, exact: bool) -> list[Place]:
        """The new lines of the gap that hold `place`'s text."""
        lines = range(gap[3] + 1, gap[4])
        return [(gap[2], n) for n in lines if self.same(place, (gap[2], n), exact)]

    def gap(self, place: Place) -> Gap | None:
        """(old low, old high, new path, new low, new high): the anchors around `place`."""
        below, above = self._anchor(place, -1), self._anchor(place, +1)
        if below is None and above is not None:  # the file's start anchors the gap
            below = 0, (above[1][0], 0)
        if above is None and below is not None:  # and its end
            end = len(self.new_lines[below[1][0]]) + 1
            above = len(self.old_lines[place[0]]) + 1, (below[1][0], end)
        if below is None and above is None and self.partner.get(place[0]):
            path = self.partner[place[0]] or ""  # no anchor at all: the files' edges
            return 0, len(self.old_lines[place[0]]) + 1, path, 0, len(self.new_lines[path]) + 1
        if below is None or above is None or below[1][0] != above[1][0]:
            return None
        if below[1][1] >= above[1][1]:
            return None
        return below[0], above[0], below[1][0], below[1][1], above[1][1]

    def _twin(self, place: Place, line: int, exact: bool) -> bool:
        lines = self.old_lines[place[0]]
        a, b = lines[place[1] - 1], lines[line - 1]
        return a == b if exact else same_line(place[0], a, b)

    def _anchor(self, place: Place, step: int) -> tuple[int, Place] | None:
        """The nearest old line beyond `place` (up or down) whose text is unique in its file
        and whose blame place is unique and holds the same unique text."""
        path, line = place
        lines = self.old_lines[path]
        counts = self._counts("old", path)
        line += step
        while 0 < line <= len(lines):
            text = lines[line - 1]
            if len(text.strip()) >= 8 and counts[text] == 1:
                found = self.lines_at((path, line))
                if len(found) == 1 and self._counts("new", found[0][0])[self.text(found[0])] == 1:
                    return line, found[0]
            line += step
        return None

    def _counts(self, side: str, path: str) -> Counter[str]:
        if (side, path) not in self.counts:
            lines = self.old_lines if side == "old" else self.new_lines
            self.counts[side, path] = Counter(lines[path])
        return self.counts[side, path]


def build(clone: Path, old: str, new: str, cited: set[str], suffixes: tuple[str, ...]) -> Truth:
    """The truth for every line of the `cited` paths (at `old`), from `old` to `new`."""
    changed = {p for p in git(clone, "diff", "--name-only", "--no-renames", old, new).splitlines()}
    old_tree = set(git(clone, "ls-tree", "-r", "--name-only", old).splitlines())
    new_tree = set(git(clone, "ls-tree", "-r", "--name-only", new).splitlines())
    kinds = {p for p in changed if p.endswith(suffixes)}
    old_blamed = sorted(p for p in kinds | cited if p in old_tree and p in changed)
    new_blamed = sorted(kinds & new_tree)
    truth = Truth(
        old_lines={p: read_lines(clone, old, p) for p in cited | set(old_blamed)},
        new_lines={p: read_lines(clone, new, p) for p in new_blamed},
        unchanged={p for p in cited if p not in changed},
    )
    for path in truth.unchanged:
        truth.new_lines.setdefault(path, truth.old_lines[path])
    old_at = {p: blame(clone, old, p) for p in old_blamed}
    new_at = {p: blame(clone, new, p) for p in new_blamed}
    _pair(truth, old_at, new_at)
    return truth


def _occurrences(blamed: dict[str, list[Key]]) -> dict[Key, list[Place]]:
    found: dict[Key, list[Place]] = defaultdict(list)
    for path, keys in blamed.items():
        for number, key in enumerate(keys, 1):
            found[key].append((path, number))
    return found


def _pair(truth: Truth, old_at: dict[str, list[Key]], new_at: dict[str, list[Key]]) -> None:
    olds, news = _occurrences(old_at), _occurrences(new_at)
    partner = truth.partner = _file_pairing(old_at, news)
    for key, old_places in olds.items():
        for old_place, found in _pair_key(old_places, news.get(key, []), partner).items():
            truth.places[old_place] = found


def _pair_key(
    old: list[Place], new: list[Place], partner: dict[str, str | None]
) -> dict[Place, list[Place]]:
    """The new places of each old occurrence of one identity: within the same path, then
    within the file's partner, in order where both sides hold as many; what is left
    unpaired may be at any place left over."""
    result: dict[Place, list[Place]] = {}
    new_left = list(new)
    for target in (lambda path: path, partner.get):
        for path in sorted({p for p, _ in old}):
            mine = [p for p in old if p[0] == path and p not in result]
            theirs = [p for p in new_left if p[0] == target(path)]
            if mine and len(mine) == len(theirs):
                result.update((a, [b]) for a, b in zip(mine, theirs, strict=True))
                new_left = [p for p in new_left if p not in theirs]
    for place in old:
        if place not in result:
            mine = [p for p in new_left if p[0] in (place[0], partner.get(place[0]))]
            result[place] = mine or new_left
    return result


def _file_pairing(
    old_at: dict[str, list[Key]], news: dict[Key, list[Place]]
) -> dict[str, str | None]:
    """Each old file's partner: the new file holding most of its identities; between
    equals (a page copied per revision folder), the one in the same folder."""
    partner: dict[str, str | None] = {}
    for path, keys in old_at.items():
        votes = Counter(p for key in set(keys) for p in {p for p, _ in news.get(key, [])})
        ranked = sorted(votes, key=lambda p: (-votes[p], -_shared(path, p)))
        tied = len(ranked) > 1 and (votes[ranked[0]], _shared(path, ranked[0])) == (
            votes[ranked[1]],
            _shared(path, ranked[1]),
        )
        partner[path] = ranked[0] if ranked and not tied else None
    return partner


def _shared(a: str, b: str) -> int:
    """How many leading folders two paths share."""
    count = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        count += 1
    return count

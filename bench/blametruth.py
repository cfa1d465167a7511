"""Where each line of an old commit is at a new commit, by `git blame -w -M -C` alone.

The ground truth of bench/truth.py, built without the tool (no `git diff` of the two
commits, no rename pairing of git's): a line's identity is the commit blame says wrote it,
with its text (whitespace runs as one). Both commits are blamed.

- Files whose path and text did not change are not blamed: each line is where it was
  (and no line moved into them).
- Each old file's sequence of identities is aligned with its counterpart's (difflib):
  the same path, else its partner, a file added in the range holding at least half of its
  identities, the nearest by path (a page copied per revision folder has a twin in each;
  its own folder's is its partner). An old line the alignment leaves out may be any new
  line of its identity that no alignment took: a move into another file, a split.
- A second reading guards against blame's own diffs pairing one `}` with another: between
  the nearest aligned lines around it (the anchors), the lines of its exact text are
  matched by rank. Where the readings disagree, the truth is undecided.
- `-w` ignores whitespace; the rule (`same_line`) decides, and a line paired only by
  ignoring whitespace is weak: any line of its exact text in that file may be the one.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from difflib import SequenceMatcher
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
    return _form(path, [old]) == _form(path, [new])


def same_block(path: str, old: list[str], new: list[str]) -> bool:
    """The rule for two blocks: code also ignores line breaks and blank lines; Markdown
    counts a run of blank lines as one paragraph break (at the block's edges too)."""
    return _form(path, old) == _form(path, new)


def compared(path: str, line: str) -> bool:
    """Whether a line holds text the rule compares (not blank, not markup alone)."""
    return bool(_form(path, [line])) and _form(path, [line]) != ["\n"]


def _form(path: str, lines: list[str]) -> list[str]:
    if not path.endswith(MARKDOWN):
        return " ".join(lines).split()
    form: list[str] = []
    for line in lines:
        if line.strip():
            form += _MARKUP.sub("", line.translate(_QUOTES)).split()
        elif not form or form[-1] != "\n":
            form.append("\n")
    return form


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
    aligned: set[Place] = field(default_factory=set)
    """Old places whose new place the alignment of their file found."""
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

        - ("same", [place]): the alignment of its file's identities found it (or, left out,
          the one line of its identity elsewhere, or the gap's line of its text);
        - ("weak", [that place, lines of the exact text in that file]): that place differs
          in whitespace only (`-w`), and no exact line in the gap;
        - ("ambiguous", candidates): several lines elsewhere hold its identity;
        - ("undecided", [elsewhere, the gap's line]): the two readings disagree;
        - ("changed", []).
        """
        blamed = self.lines_at(place)
        if place[0] in self.unchanged:
            return "same", blamed
        gap = self.in_gap(place)
        if place in self.aligned and blamed:
            return self._exact(place, blamed[0], gap)
        if not blamed:
            return ("same", [gap]) if gap else ("changed", [])
        if gap in blamed or (gap is None and len(blamed) == 1):
            return self._exact(place, gap or blamed[0], gap)
        return ("ambiguous", blamed) if gap is None else ("undecided", [*blamed, gap])

    def _exact(self, place: Place, found: Place, gap: Place | None) -> tuple[str, list[Place]]:
        """`found`, unless it holds the text only as `-w` reads it: then the gap's line of
        the exact text, or, weak, any line of the exact text in that file."""
        if self.same(place, found, exact=True):
            return "same", [found]
        if gap is not None and self.same(place, gap, exact=True):
            return "same", [gap]
        whole = (0, 0, found[0], 0, len(self.new_lines[found[0]]) + 1)
        return "weak", [found, *self.twins_in(place, whole, True)]

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
        """The nearest old line beyond `place` (up or down) that blame's identities align
        with a line of the new file, holding the same text by the rule."""
        path, line = place
        line += step
        while 0 < line <= len(self.old_lines[path]):
            if (path, line) in self.aligned and (found := self.lines_at((path, line))):
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
    _pair(truth, old_at, new_at, old_tree)
    return truth


def _occurrences(blamed: dict[str, list[Key]]) -> dict[Key, list[Place]]:
    found: dict[Key, list[Place]] = defaultdict(list)
    for path, keys in blamed.items():
        for number, key in enumerate(keys, 1):
            found[key].append((path, number))
    return found


def _pair(
    truth: Truth, old_at: dict[str, list[Key]], new_at: dict[str, list[Key]], old_paths: set[str]
) -> None:
    """Align each old file's identities with its counterpart's (the same path, else its
    partner) as a diff of the two sequences does; an old line left out may be any new
    line of its identity that no alignment took (a move into another file, a split)."""
    news = _occurrences(new_at)
    partner = truth.partner = _file_pairing(old_at, news, old_paths)
    taken: set[Place] = set()
    for path, keys in old_at.items():
        target = path if path in new_at else partner[path]
        if target is None:
            continue
        matcher = SequenceMatcher(None, keys, new_at[target], autojunk=False)
        for a, b, size in matcher.get_matching_blocks():
            for i in range(size):
                if (target, b + i + 1) not in taken:
                    truth.places[path, a + i + 1] = [(target, b + i + 1)]
                    truth.aligned.add((path, a + i + 1))
                    taken.add((target, b + i + 1))
    for path, keys in old_at.items():
        for number, key in enumerate(keys, 1):
            if (path, number) not in truth.places:
                truth.places[path, number] = [p for p in news.get(key, []) if p not in taken]


def _file_pairing(
    old_at: dict[str, list[Key]], news: dict[Key, list[Place]], old_paths: set[str]
) -> dict[str, str | None]:
    """Each old file's partner: among the files added (not in `old_paths`, the old tree)
    that hold at least half of its
    identities, the nearest by path (most folders shared, then the same name but for its
    extension), then the one holding most; none on a tie (a deleted file's license header
    in every new file). A page copied per revision folder has several such files; its own
    folder's is the one `git log --follow` names."""
    partner: dict[str, str | None] = {}
    for path, keys in old_at.items():
        distinct = set(keys)
        votes = Counter(p for key in distinct for p in {p for p, _ in news.get(key, [])})
        close = [p for p in votes if votes[p] * 2 >= len(distinct) and p not in old_paths]
        rank = {p: (-_shared(path, p), _stem(p) != _stem(path), -votes[p]) for p in close}
        ranked = sorted(close, key=rank.__getitem__)
        tied = len(ranked) > 1 and rank[ranked[0]] == rank[ranked[1]]
        partner[path] = ranked[0] if ranked and not tied else None
    return partner


def _stem(path: str) -> str:
    return path.rsplit(".", 1)[0]


def _shared(a: str, b: str) -> int:
    """How many leading folders two paths share."""
    count = 0
    for x, y in zip(a.split("/")[:-1], b.split("/")[:-1], strict=False):
        if x != y:
            break
        count += 1
    return count

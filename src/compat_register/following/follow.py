"""Follow citations from one commit of their source to another, the way the history went.

Commit by commit along first parents, as `git log --follow` does, so a bump over a range
gives what bumps commit by commit give; without that history, one `git diff` between pins.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..model.notation import lines_text
from ..model.registers import Citation
from ..sources.checkout import Checkout
from ..sources.diffs import (
    Changes,
    Hunk,
    files_holding,
    first_parent_steps,
    pair_hunks,
    pair_score,
    range_step,
    step_hunks,
)
from ..sources.git import GitSourceError
from .moves import AddedIndex, Decision, Lines, Text, decide, elsewhere, overlap
from .oneline import Crossing, one_line_rule, settle
from .paths import Moved, revision_folder, successor
from .remap import KINDS, Mapped, Remap, remap
from .texts import Texts
from .track import Followed, Track, add_note, carried, repo_path, result


def follow(
    checkout: Checkout,
    old_sha: str,
    new_sha: str,
    citations: Sequence[Citation],
    markdown: Sequence[str] = (),
    revisions: Collection[str] = (),
) -> list[Followed]:
    """Where each citation (all of one source, resolved) goes from `old_sha` to `new_sha`;
    `markdown`: the source's Markdown globs; `revisions`: folders not left silently."""
    touched = follow_touched(checkout, old_sha, new_sha, citations, markdown, revisions)
    return every_followed(citations, touched)


def follow_touched(
    checkout: Checkout,
    old_sha: str,
    new_sha: str,
    citations: Sequence[Citation],
    markdown: Sequence[str] = (),
    revisions: Collection[str] = (),
) -> list[Followed]:
    """`follow` of the citations whose file some step renames, deletes or changes, in order:
    the others (most, in a bump) are carried (`every_followed`)."""
    if old_sha == new_sha:
        return []
    steps = first_parent_steps(checkout, old_sha, new_sha)
    walk = _Walk(checkout, steps or [range_step(checkout, old_sha, new_sha)], revisions)
    walk.texts.markdown, walk.commits = markdown, steps is not None  # one step over a range
    walk.learn({c.repo_path for c in citations if c.repo_path is not None}, 0)
    touched = set().union(*walk.moves, *walk.hunks.values())
    tracks = [Track(c, repo_path(c), (c.start, c.end)) for c in citations if c.repo_path in touched]
    walk.run(tracks)
    return [result(checkout, track, (old_sha, new_sha), markdown) for track in tracks]


def every_followed(citations: Sequence[Citation], touched: Sequence[Followed]) -> list[Followed]:
    """Each citation's Followed: its own from `touched` (`follow_touched`), else carried."""
    walked = iter(touched)
    upcoming = next(walked, None)
    every = []
    for citation in citations:
        if upcoming is not None and upcoming.citation is citation:
            every.append(upcoming)
            upcoming = next(walked, None)
        else:
            every.append(carried(citation))
    return every


class _Walk:
    """The steps, walked once for the files' paths and once for the cited lines."""

    def __init__(self, checkout: Checkout, steps: list[Changes], revisions: Collection[str]):
        self.checkout, self.steps, self.revisions = checkout, steps, revisions
        self.texts = Texts(checkout)
        self._pairs: dict[tuple[str, str], list[Hunk]] = {}
        self._holders: dict[tuple[str, str], list[str]] = {}
        self._crossing: list[Crossing] = []  # moves into other files, placed after the step
        self.commits = True
        self.moves: list[dict[str, Moved]] = [{} for _ in self.steps]
        self.hunks: dict[str, dict[str, list[Hunk]]] = {}
        self._known: set[str] = set()

    def run(self, tracks: list[Track]) -> None:
        """Walk the tracks (of learned paths) through the steps."""
        live: dict[str, list[Track]] = {}
        for track in tracks:
            live.setdefault(track.path, []).append(track)
        for i, step in enumerate(self.steps):
            if unknown := set(live) - self._known:  # the first step, or a split's new file
                self.learn(unknown, i)
            moves, changed = self.moves[i], self.hunks.get(step.sha, {})
            paths = [p for p in live if p in moves or p in changed]
            # both sides of every cited file the step changed, read in one round trip
            news = [moves[p].new_path or p if p in moves else p for p in paths]
            self.checkout.read_many(
                [*((step.parent, p) for p in paths), *((step.sha, p) for p in news)]
            )
            # Every file's tracks take this step before any moves on to another file.
            walked: list[Track] = []
            for path in paths:
                tracks = live.pop(path)
                self._step(step, path, moves.get(path), changed.get(path), tracks)
                walked += tracks
            if crossings := self._crossing:  # placed once every file took the step
                self._crossing = []
                settle(crossings, [*walked, *(t for ts in live.values() for t in ts)], step.sha)
            for track in walked:
                if track.lines is not None:
                    live.setdefault(track.path, []).append(track)

    def learn(self, paths: set[str], start: int) -> None:
        """Record what the steps from `start` on do to `paths`: each rename or deletion, then
        the hunks of every path those files had on the way (one `git log`)."""
        live, names = set(paths), set(paths)
        for step, found in zip(self.steps[start:], self.moves[start:], strict=True):
            for path in [p for p in live if p in step.renamed or p in step.deleted]:
                score = lambda old, new, s=step: pair_score(self.checkout, s, old, new)  # noqa: E731
                moved = successor(step, path, score, self.revisions)
                if moved is not None:
                    found[path] = moved
                    live.discard(path)
                    if moved.new_path is not None and moved.left is None:
                        live.add(moved.new_path)
                        names.add(moved.new_path)
        self._known |= names
        steps = self.steps[start:]
        # Only a file some step names can have hunks: git is asked for those alone.
        named = set().union(*(step.paths() for step in steps))
        hunks = step_hunks(self.checkout, steps, names & named, commits=self.commits)
        for sha, files in hunks.items():
            self.hunks.setdefault(sha, {}).update(files)

    def _step(
        self,
        step: Changes,
        path: str,
        moved: Moved | None,
        hunks: list[Hunk] | None,
        tracks: list[Track],
    ) -> None:
        """Carry the tracks of one file through one step."""
        new_path = path
        if moved is not None:
            if moved.new_path is None:
                self._deleted(step, path, moved, tracks)
                return
            hunks = self._pair(moved.old_blob, moved.new_blob)
            for track in tracks:
                track.renames.append((path, moved.new_path, step.sha))
                add_note(track.notes, moved.note)
                track.kind = max(track.kind, "re-anchored", key=KINDS.index)
            new_path = moved.new_path
            if moved.left is not None:
                self._left(step, moved, hunks or [], tracks)
                return
        self._lines(step, path, new_path, hunks or [], tracks)

    def _left(self, step: Changes, moved: Moved, hunks: list[Hunk], tracks: list[Track]) -> None:
        """A file renamed out of its revision folder: flagged with where it went, not moved."""
        for track in tracks:
            assert track.lines is not None and moved.new_path is not None
            lines = remap(*track.lines, hunks).lines
            candidates = ((moved.new_path, *lines),) if lines else ()
            note = f"{moved.note}: not followed"
            decision = Decision("gone", None, note, flags=("left-revision",), candidates=candidates)
            track.take(decision, track.path, step.sha)

    def _deleted(self, step: Changes, path: str, moved: Moved, tracks: list[Track]) -> None:
        """A deleted file: its lines may live on in the files the step wrote (a split)."""
        old = self.texts.text(step.parent, path, self.texts.keyed(path))
        nothing, gone = Decision("gone", None, ""), Decision("gone", None, moved.note)
        for track in tracks:
            assert track.lines is not None
            found = nothing
            if old is not None:
                written = self.texts.written(step, old, track.lines)
                found = elsewhere(old, *track.lines, written) or nothing
                found = self._kept_in_folder(path, found, nothing)
                found = self._own_text(step, path, old, track.lines, found, nothing)
            if found.kind == "re-anchored":
                found = found._replace(note=f"{found.note} ({moved.note})")
                self._crossing.append(Crossing(track, found, gone, path, deleted=True))
                continue
            track.file_deleted = True
            track.take(gone.refused(found.note, found.flags, found.candidates), path, step.sha)

    def _lines(
        self, step: Changes, path: str, new_path: str, hunks: list[Hunk], tracks: list[Track]
    ) -> None:
        """Map each cited range of one file through one step's hunks, and decide the touched."""
        remapped = Remap(hunks)
        before = [t.lines or (0, 0) for t in tracks]  # a walked track has lines
        mapped = [remapped.map(*lines) for lines in before]
        touched = [i for i, m in enumerate(mapped) if m.kind in ("changed", "gone")]
        carried = [
            (i, before[i]) for i, m in enumerate(mapped) if m.kind not in ("changed", "gone")
        ]
        for i, _ in carried:
            tracks[i].lines, tracks[i].path = mapped[i].lines, new_path
        self._bare_lines(step, (path, new_path), tracks, carried, remapped)
        if not touched:
            return
        try:
            keyed = self.texts.keyed(path, new_path)
            old = self.texts.text(step.parent, path, keyed)
            new = self.texts.text(step.sha, new_path, keyed)
        except GitSourceError as err:  # a binary file: the hunks are all there is
            for i in touched:
                decision = Decision(mapped[i].kind, mapped[i].lines, str(err))
                tracks[i].take(decision, new_path, step.sha)
            return
        assert old is not None and new is not None
        index = AddedIndex(new_path, new, hunks)
        decided = {
            i: self._decide(step, old, index, tracks[i], mapped[i].lines, remapped) for i in touched
        }
        decisions = {i: found for i, (found, _) in decided.items()}
        self._one_line(tracks, before, decisions, mapped)
        for i, decision in decisions.items():
            if decision.path is not None:  # into another file: placed once the step is done
                self._crossing.append(Crossing(tracks[i], decision, decided[i][1], new_path))
            else:
                tracks[i].take(decision, new_path, step.sha)

    def _bare_lines(
        self,
        step: Changes,
        paths: tuple[str, str],
        tracks: list[Track],
        carried: list[tuple[int, Lines]],
        hunks: Remap,
    ) -> None:
        """Flag a carried range with no letter or digit (`}`) beside lines a hunk deleted or
        added that read the same: which of them survived is git's diff's guess."""
        beside = [(i, lines, hunks.borders(*lines)) for i, lines in carried]
        beside = [b for b in beside if b[2]]
        if not beside:
            return
        try:
            old = self.checkout.read_text(step.parent, paths[0]) or []
            new = self.checkout.read_text(step.sha, paths[1]) or []
        except GitSourceError:
            return
        for i, (start, end), bordering in beside:
            cited = {line.strip() for line in old[start - 1 : end]}
            if any(ch.isalnum() for line in cited for ch in line):
                continue
            near = {
                line.strip()
                for os, oc, ns, nc in bordering
                for line in (*old[os - 1 : os - 1 + oc], *new[ns - 1 : ns - 1 + nc])
            }
            if not cited & near:
                continue
            note = (
                "a line with no letter or digit beside lines of the same text the diff deleted"
                " or added: which of them survived is the diff's guess"
            )
            decision = Decision("changed", tracks[i].lines, note, flags=("ambiguous",))
            tracks[i].take(decision, tracks[i].path, step.sha)

    def _decide(
        self,
        step: Changes,
        old: Text,
        index: AddedIndex,
        track: Track,
        region: Lines | None,
        remapped: Remap,
    ) -> tuple[Decision, Decision]:
        """Where one touched range went in one step, and what its own file says of it."""
        assert track.lines is not None
        removed, expected = remapped.removes(*track.lines), remapped.same_offset(track.lines[0])
        gap = remapped.gap(track.lines[0]) if region is None else None
        decision = decide(old, index, *track.lines, region, removed, expected, gap)
        if not decision.lost:
            return decision, decision
        others = [ix for ix in self.texts.written(step, old, track.lines) if ix.path != index.path]
        found = elsewhere(old, *track.lines, others)
        if found is None:
            return decision, decision
        if found.kind == "re-anchored":
            found = self._own_text(step, track.path, old, track.lines, found, decision)
            return self._kept_in_folder(track.path, found, decision), decision
        # twins elsewhere: keep what this file says, and name them
        twins = decision.refused(found.note, found.flags, found.candidates)
        return twins, twins

    def _own_text(
        self, step: Changes, path: str, old: Text, lines: Lines, found: Decision, instead: Decision
    ) -> Decision:
        """`found` (in another file), unless its longest line was in other files before the
        step too (front matter, a licence): then `instead`, flagged, naming it."""
        if found.kind != "re-anchored" or found.path is None:
            return found
        longest = max(old.lines[lines[0] - 1 : lines[1]], key=lambda line: len(line.strip()))
        key = (step.parent, longest.strip())
        if key not in self._holders:
            self._holders[key] = files_holding(self.checkout, *key)
        if all(holder == path for holder in self._holders[key]):
            return found
        assert found.lines is not None
        note = f"its text was added to {found.path}, but other files held it already"
        return instead.refused(note, ("ambiguous",), ((found.path, *found.lines),))

    def _kept_in_folder(self, path: str, found: Decision, instead: Decision) -> Decision:
        """`found` (in another file), unless outside `path`'s revision folder: then
        `instead`, flagged, naming it."""
        folder = revision_folder(path, self.revisions)
        if found.path is None or folder is None or found.path.startswith(folder):
            return found
        assert found.lines is not None
        note = f"its text was added at {found.path}, out of its revision folder {folder}"
        return instead.refused(note, ("left-revision",), ((found.path, *found.lines),))

    def _one_line(
        self,
        tracks: list[Track],
        before: list[Lines],
        decisions: dict[int, Decision],
        mapped: list[Mapped],
    ) -> None:
        """No move or best match puts two citations on a line they did not share before: the
        weaker (both, when alike) is reported not found."""
        found = [decisions.get(i) for i in range(len(tracks))]
        after = [
            None if d and d.path else d.lines if d else m.lines
            for d, m in zip(found, mapped, strict=True)
        ]
        placed, scores = [bool(d and d.placed) for d in found], [d.score if d else 3 for d in found]
        losers = one_line_rule(before, after, placed, scores)
        for i in losers:
            lines = after[i]
            assert lines is not None
            won = next(j for j, a in enumerate(after) if j != i and a and overlap(a, lines))
            how = "as well: neither is taken" if won in losers else "better"
            note = (
                f"the cited lines were edited; its text was not found: the lines most like it"
                f" ({lines_text(*lines)}) are cited by {tracks[won].citation.entry}, which they"
                f" match {how}"
            )
            decisions[i] = Decision("changed", None, note, flags=("not-found",))

    def _pair(self, old_blob: str, new_blob: str) -> list[Hunk]:
        if (old_blob, new_blob) not in self._pairs:
            self._pairs[old_blob, new_blob] = pair_hunks(self.checkout, old_blob, new_blob)
        return self._pairs[old_blob, new_blob]

"""Each statement against the revision before, pure: *same* (equal text, same heading
first), *changed* (the nearest unmatched one under its heading reads `ALIKE`), else *new*."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..citations.compare import QUOTE_MAP, spaced
from .statement import Statement

ALIKE = 0.6
"""The least difflib ratio at which an unmatched earlier statement is its rewording."""


@dataclass(frozen=True)
class Change:
    """How a statement stands against the revision before its own."""

    kind: str
    """`new`, `changed` or `same`."""
    previous: Statement | None = None
    """The earlier revision's statement it rewords or repeats."""


def normalised(text: str) -> str:
    """A statement's text as compared across revisions."""
    return spaced(text.translate(QUOTE_MAP))


def page(path: str, revision: str) -> str:
    """A file's path with its revision's folder name as `*`: the same page in each."""
    return "/".join("*" if part == revision else part for part in path.split("/"))


def changes(
    revisions: Sequence[str], statements: Mapping[str, Sequence[Statement]]
) -> dict[str, list[Change]]:
    """revision -> the change of each of its statements, in their order."""
    found: dict[str, list[Change]] = {}
    previous: tuple[str, Sequence[Statement], list[str]] | None = None
    for revision in revisions:
        mine = statements.get(revision, ())
        texts = [normalised(s.text) for s in mine]  # once: as new, then as old
        if previous is None:
            found[revision] = [Change("new") for _ in mine]
        else:
            found[revision] = compare(*previous, revision, mine, texts)
        previous = (revision, mine, texts)
    return found


def compare(
    old_revision: str,
    old: Sequence[Statement],
    old_texts: list[str],
    revision: str,
    new: Sequence[Statement],
    new_texts: list[str],
) -> list[Change]:
    """Each statement of `new` against those of `old`, given their `normalised` texts (by
    index: a statement hashes its whole text on every look-up); each old one matched once."""
    headed: dict[tuple[str, str], list[int]] = {}
    anywhere: dict[str, list[int]] = {}
    pages: dict[tuple[str, str], list[int]] = {}
    for n, statement in enumerate(old):
        headed.setdefault((old_texts[n], statement.heading), []).append(n)
        anywhere.setdefault(old_texts[n], []).append(n)
        pages.setdefault((page(statement.path, old_revision), statement.heading), []).append(n)
    used: set[int] = set()
    same: dict[int, int] = {}  # repeated statements first, same heading first
    for m, statement in enumerate(new):
        groups = (headed.get((new_texts[m], statement.heading), []), anywhere.get(new_texts[m], []))
        match = next((n for group in groups for n in group if n not in used), None)
        if match is not None:
            used.add(match)
            same[m] = match
    result: list[Change] = []
    for m, statement in enumerate(new):
        if m in same:
            result.append(Change("same", old[same[m]]))
            continue
        group = pages.get((page(statement.path, revision), statement.heading), [])
        candidates = ((n, old_texts[n].split(" ")) for n in group if n not in used)
        nearest = most_alike(new_texts[m].split(" "), candidates, ALIKE)
        if nearest is not None:
            used.add(nearest[0])
        result.append(Change("changed", old[nearest[0]]) if nearest else Change("new"))
    return result


def most_alike(
    words: list[str], candidates: Iterable[tuple[int, list[str]]], floor: float
) -> tuple[int, float] | None:
    """The first candidate (index, words) whose words read most like `words`, and difflib's
    ratio, if at least `floor` (words: difflib's time grows with the product of lengths)."""
    best: tuple[int, float] | None = None
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(words)
    for n, candidate in candidates:
        matcher.set_seq1(candidate)
        least = best[1] if best else floor
        if matcher.real_quick_ratio() >= least and matcher.quick_ratio() >= least:
            ratio = matcher.ratio()
            if ratio >= least and (best is None or ratio > best[1]):
                best = (n, ratio)
    return best

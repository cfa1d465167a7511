"""A conformance suite's requirements against a revision's statements, pure: each requirement
(its text and the spec page its URL names) aligned with the statement or statements holding
it, and the statements of those pages that no requirement names."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .revisions import ALIKE, most_alike
from .statement import Statement

SPECIFICATION = "https://modelcontextprotocol.io/specification/"
"""Where a revision's pages are published: `SPECIFICATION + REVISION/PAGE#anchor`."""
SIMILAR = ALIKE
"""The least difflib ratio (on words) at which a statement is a requirement's rewording, as a
statement's rewording across revisions is judged."""
SHARE = 1 / 3
"""The least share of a requirement's words the statements inside it must hold: a fragment
(`MUST NOT be empty`) inside a long requirement does not stand for it."""

_EDITORIAL = re.compile(r"\s*\[[^\]]*\](?!\()")
"""`[for MissingRequiredClientCapabilityError]`: the suite's insertion, not the page's text."""
_WORD = re.compile(r"\w+")
KINDS = ("exact", "contained", "spanning", "similar")
"""How a requirement is aligned, strongest first; else `outside` or `none`."""
Forms = list[tuple[str, str]]
"""Each statement's words alone, and after its context."""
SCOPES = ("anchor", "page", "revision")
"""Where the statements stand, nearest the URL first: under its anchor, on its page, or
elsewhere in its revision (a page moved, a sentence repeated on another page)."""


class Requirement(NamedTuple):
    """A requirement as a suite states it: a key (its check ID), its text, its page's URL."""

    key: str
    text: str
    url: str


class Target(NamedTuple):
    """The revision, page (`basic/index`) and anchor (no `#`, maybe empty) a URL names."""

    revision: str
    page: str
    anchor: str


@dataclass(frozen=True)
class Alignment:
    """How one requirement stands in its revision's statements."""

    requirement: Requirement
    how: str
    """One of `KINDS`, `outside` (its URL names no page of the revisions read), or `none`."""
    statements: tuple[Statement, ...] = ()
    """The statements holding it, in their order."""
    scope: str = ""
    """One of `SCOPES`, where aligned."""
    ratio: float = 1.0
    """difflib's ratio of a `similar` alignment; 1.0 otherwise."""
    whole: bool = False
    """Whether the statements hold every word of the requirement (exact, spanning, or it
    stands inside one statement); not when they stand inside it or reword it."""


def target(url: str, base: str = SPECIFICATION) -> Target | None:
    """What a requirement's URL names, if a page under `base`."""
    if not url.startswith(base):
        return None
    path, _, anchor = url[len(base) :].partition("#")
    revision, _, page = path.strip("/").partition("/")
    return Target(revision, page, anchor) if revision else None


def on_page(statement: Statement, where: Target) -> bool:
    """Whether a statement's file is the page: `REVISION/PAGE.mdx` or `REVISION/PAGE/index.mdx`."""
    stem = statement.path.rsplit(".", 1)[0]
    page = f"/{where.revision}/{where.page}" if where.page else f"/{where.revision}/index"
    return stem.endswith((page, page + "/index"))


def words(text: str) -> str:
    """A text as compared: its words, one space apart; markup, punctuation, quotes and the
    suite's bracketed insertions aside."""
    return " ".join(_WORD.findall(_EDITORIAL.sub("", text)))


def align(
    requirements: Iterable[Requirement],
    statements: Mapping[str, Sequence[Statement]],
    base: str = SPECIFICATION,
) -> list[Alignment]:
    """Each requirement aligned with the statements (revision -> its statements, in file
    and line order) of the revision its URL names."""
    found: list[Alignment] = []
    compared = {rev: [_compared(s) for s in mine] for rev, mine in statements.items()}
    for requirement in requirements:
        where = target(requirement.url, base)
        if where is None or where.revision not in statements:
            found.append(Alignment(requirement, "outside"))
            continue
        mine = statements[where.revision]
        found.append(_aligned(requirement, where, mine, compared[where.revision]))
    return found


def _compared(statement: Statement) -> tuple[str, str]:
    """A statement's words alone, and after its context (the lead-in of its list)."""
    alone = words(statement.text)
    return alone, words(f"{statement.context} {statement.text}") if statement.context else alone


def _aligned(
    requirement: Requirement, where: Target, mine: Sequence[Statement], compared: Forms
) -> Alignment:
    """The strongest kind found, nearest scope first; the best `similar` one, else none.
    Exact, contained and similar compare a statement with its context too."""
    text = words(requirement.text)
    scopes = [_scope(s, where) for s in mine]
    paths = [s.path for s in mine]
    texts = [alone for alone, _ in compared]
    for kind, find in (("exact", _exact), ("contained", _holding), ("spanning", _spanning)):
        for scope in range(len(SCOPES)):
            chosen = [n for n, s in enumerate(scopes) if s <= scope]
            indices = find(text, compared, chosen, paths)
            if indices:
                held = tuple(mine[n] for n in indices)
                return Alignment(requirement, kind, held, SCOPES[scope], whole=True)
    indices = _inside(text, texts, mine, scopes)
    if indices:
        held = tuple(mine[n] for n in indices)
        nearest = SCOPES[min(scopes[n] for n in indices)]
        return Alignment(requirement, "contained", held, nearest)
    forms = sorted(range(len(compared)), key=lambda n: scopes[n])  # on a tie, the nearest scope's
    pairs = ((n, form.split()) for n in forms for form in dict.fromkeys(compared[n]))
    best = most_alike(text.split(), pairs, SIMILAR)  # alone or after its context
    if best is None:
        return Alignment(requirement, "none")
    n, ratio = best
    return Alignment(requirement, "similar", (mine[n],), SCOPES[scopes[n]], round(ratio, 3))


def _scope(statement: Statement, where: Target) -> int:
    if not on_page(statement, where):
        return 2
    return 0 if where.anchor and statement.anchor == where.anchor else 1


def _exact(text: str, compared: Forms, indices: list[int], _: list[str]) -> list[int]:
    """The first statement whose words, alone or after its context, are the requirement's."""
    return next(([n] for n in indices if text in compared[n]), [])


def _holding(text: str, compared: Forms, indices: list[int], _: list[str]) -> list[int]:
    """The first statement the requirement stands inside (with its context)."""
    return next(([n] for n in indices if f" {text} " in f" {compared[n][1]} "), [])


def _spanning(text: str, compared: Forms, indices: list[int], paths: list[str]) -> list[int]:
    """The fewest consecutive statements of one file (2 or more) whose joined texts hold the
    requirement, from the one it begins in to the one it ends in."""
    chosen, texts = set(indices), [alone for alone, _ in compared]
    for first in indices:
        joined, run = texts[first], [first]
        for n in range(first + 1, len(texts)):
            if (
                n not in chosen
                or paths[n] != paths[first]
                or len(joined) - len(texts[first]) > len(text)
            ):
                break
            joined, run = f"{joined} {texts[n]}", [*run, n]
            if f" {text} " in f" {joined} ":
                rest = " ".join(texts[m] for m in run[1:])
                if f" {text} " in f" {rest} ":
                    break  # it begins in a later statement: found from that one
                return run
    return []


def _inside(text: str, texts: list[str], mine: Sequence[Statement], scopes: list[int]) -> list[int]:
    """The statements of one file standing inside the requirement (nearest scope's file
    first), if they hold `SHARE` of its words: a sentence the suite joined with another."""
    padded = f" {text} "
    inside = [n for n, t in enumerate(texts) if t and f" {t} " in padded]
    for scope in range(len(SCOPES)):
        files = dict.fromkeys(mine[n].path for n in inside if scopes[n] <= scope)
        for path in files:
            held = [n for n in inside if mine[n].path == path]
            if sum(len(texts[n].split()) for n in held) >= SHARE * len(text.split()):
                return held
    return []


def unnamed(
    alignments: Iterable[Alignment],
    statements: Mapping[str, Sequence[Statement]],
    base: str = SPECIFICATION,
) -> list[Statement]:
    """The statements of the pages some requirement names (by its URL, or by the statements
    it aligned with) that no requirement aligned with, in their order."""
    named: set[Statement] = set()
    pages: dict[str, list[Target]] = {}
    files: set[str] = set()
    for alignment in alignments:
        named.update(alignment.statements)
        files.update(s.path for s in alignment.statements)
        where = target(alignment.requirement.url, base)
        if where is not None:
            pages.setdefault(where.revision, []).append(where)
    return [
        s
        for revision, wheres in pages.items()
        for s in statements.get(revision, ())
        if s not in named and (s.path in files or any(on_page(s, w) for w in wheres))
    ]

"""Follow citations from one commit of their source to another, through git's diff.

`remap` says what the diff hunks alone say; this module reads the cited files where the
hunks touched a range, to tell an edit that only re-indented or re-quoted the lines (the
same once normalised) and a block moved within its file from a real change. Used by
`register bump` to move a pin and by `register verify --against` to preview a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..citations.compare import Kind, file_kind, same_text
from ..model.registers import Citation
from ..sources.diffs import Hunk
from ..sources.gitsource import Checkout, GitSourceError
from .remap import Mapped, find_moved, remap


@dataclass
class Followed:
    """Where one citation went."""

    citation: Citation
    kind: str
    """carried, re-anchored, changed or gone (`remap.KINDS`)."""
    path: str
    """The full path at the new commit (the old one when the file is gone)."""
    lines: tuple[int, int] | None
    """The lines at the new commit; None when gone."""
    note: str = ""
    """Why, for the report: renamed, moved, edited, deleted."""
    file_deleted: bool = False


def follow(
    checkout: Checkout,
    old_sha: str,
    new_sha: str,
    citations: Sequence[Citation],
    markdown: Sequence[str] = (),
) -> list[Followed]:
    """Where each citation (all of one source, resolved) goes from `old_sha` to `new_sha`;
    `markdown` is the source's globs of Markdown files (`compare.file_kind`)."""
    if old_sha == new_sha:
        return [Followed(c, "carried", _path(c), (c.start, c.end)) for c in citations]
    paths = {_path(c) for c in citations}
    by_path = {path: checkout.changed_ranges(old_sha, new_sha, path) for path in paths}
    diffs = [by_path[_path(c)] for c in citations]
    first = [
        _first_guess(c, path, hunks) for c, (path, hunks) in zip(citations, diffs, strict=True)
    ]
    touched = [
        i for i, f in enumerate(first) if f.kind in ("changed", "gone") and diffs[i][0] is not None
    ]
    checkout.prefetch(old_sha, {_path(first[i].citation) for i in touched})
    checkout.prefetch(new_sha, {first[i].path for i in touched})
    for i in touched:
        first[i] = _settle(first[i], diffs[i][1], checkout, (old_sha, new_sha), markdown)
    return first


def _path(citation: Citation) -> str:
    assert citation.repo_path is not None, "only resolved citations are followed"
    return citation.repo_path


def _first_guess(citation: Citation, new_path: str | None, hunks: list[Hunk]) -> Followed:
    """What the hunks alone say (the file's deletion included)."""
    old_path = _path(citation)
    if new_path is None:
        return Followed(citation, "gone", old_path, None, "the file was deleted", True)
    mapped = remap(citation.start, citation.end, hunks)
    renamed = f"renamed from {old_path}" if new_path != old_path else ""
    kind = "re-anchored" if mapped.kind == "carried" and renamed else mapped.kind
    return Followed(citation, kind, new_path, mapped.lines, renamed)


def _settle(
    guess: Followed,
    hunks: list[Hunk],
    checkout: Checkout,
    shas: tuple[str, str],
    markdown: Sequence[str],
) -> Followed:
    """A changed or gone range, looked at: the same text, moved, or really changed. The
    text is compared by the rule of its file's kind before and after (both must agree
    when a rename changed it: `.md` to `.go` is compared as Markdown and as code)."""
    citation = guess.citation
    old_sha, new_sha = shas
    kinds = {file_kind(_path(citation), markdown), file_kind(guess.path, markdown)}
    try:
        old = checkout.read_text(old_sha, _path(citation)) or []
        new = checkout.read_text(new_sha, guess.path) or []
    except GitSourceError as err:  # a binary file: the hunks are all there is
        return Followed(citation, guess.kind, guess.path, guess.lines, str(err))
    block = old[citation.start - 1 : citation.end]
    now = new[guess.lines[0] - 1 : guess.lines[1]] if guess.lines else None
    if now is not None and all(same_text(block, now, kind) for kind in kinds):
        return _with(guess, Mapped("re-anchored", guess.lines), _only_spacing(kinds))
    # Line by line, code's rule is the stricter wherever a rename left any code.
    moved = find_moved(block, new, hunks, "markdown" if kinds == {"markdown"} else "code")
    if moved is not None:
        return _with(guess, Mapped("re-anchored", moved), "moved within the file")
    what = "edited" if guess.kind == "changed" else "deleted"
    return _with(guess, Mapped(guess.kind, guess.lines), f"the cited lines were {what}")


def _only_spacing(kinds: set[Kind]) -> str:
    return "edited in spacing or markup only" if "markdown" in kinds else "edited in spacing only"


def _with(guess: Followed, mapped: Mapped, note: str) -> Followed:
    notes = "; ".join(n for n in (guess.note, note) if n)
    return Followed(guess.citation, mapped.kind, guess.path, mapped.lines, notes)

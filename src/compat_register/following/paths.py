"""Where a cited file went in one step of history: git's rename pairing, checked.

git may pair a page with another revision folder's near-identical copy: a file the step
wrote in the same folder under the same name that git scores as a rename is preferred, and
a file that would still leave its revision folder is not followed (flagged instead).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Collection
from typing import NamedTuple

from ..sources.diffs import Changes

RENAME_SCORE = 50
"""The similarity (%) at which git itself takes a deletion and an addition for a rename."""


class Moved(NamedTuple):
    """What one step did to a file it renamed or deleted (`new_path` None); `left`: the
    revision folder the new path is outside of (not followed)."""

    new_path: str | None
    old_blob: str
    new_blob: str
    note: str = ""
    left: str | None = None


def revision_folder(path: str, revisions: Collection[str]) -> str | None:
    """The folder of `path` named by a revision (`docs/specification/2025-06-18/`), or None."""
    parts = path.split("/")[:-1]
    for i, part in enumerate(parts):
        if part in revisions:
            return "/".join(parts[: i + 1]) + "/"
    return None


def _stem(path: str) -> tuple[str, str]:
    folder, name = posixpath.split(path)
    return folder, name.rsplit(".", 1)[0] if "." in name[1:] else name


def successor(
    step: Changes, path: str, score: Callable[[str, str], int], revisions: Collection[str]
) -> Moved | None:
    """Where `step` moved `path`; None when it left it in place (modified or not)."""
    renamed, deleted = step.renamed.get(path), step.deleted.get(path)
    if renamed is None and deleted is None:
        return None
    old_blob = renamed[2] if renamed else deleted or ""
    twin = _same_place(step, path, renamed[0] if renamed else None)
    if twin is not None and score(path, twin[0]) >= RENAME_SCORE:
        paired = f"; git paired it with {renamed[0]}" if renamed else ""
        note = f"renamed from {path} (the same folder and name preferred{paired})"
        new_path, new_blob = twin
    elif renamed is None:
        return Moved(None, old_blob, "", "the file was deleted")
    else:
        new_path, new_blob, note = renamed[0], renamed[3], f"renamed from {path}"
    folder = revision_folder(path, revisions)
    if folder is None or new_path.startswith(folder):
        return Moved(new_path, old_blob, new_blob, note)
    note = f"its file was renamed to {new_path}, out of its revision folder {folder}"
    return Moved(new_path, old_blob, new_blob, note, left=folder)


def _same_place(step: Changes, path: str, paired: str | None) -> tuple[str, str] | None:
    """The one file `step` wrote in `path`'s folder under its name, unless git paired it so."""
    if paired is not None and _stem(paired) == _stem(path):
        return None
    written = {**step.added, **{new: blob for new, _, _, blob in step.renamed.values()}}
    found = [(p, b) for p, b in written.items() if p != paired and _stem(p) == _stem(path)]
    return found[0] if len(found) == 1 else None

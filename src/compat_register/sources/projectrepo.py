"""The repository holding the registers themselves (`ProjectRepo`): a folder's files at any
commit by blob id, its history; and which repository holds a folder (`repository_of`)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..checking.safety import check_repo_path
from . import git
from .checkout import Checkout
from .diffs import LOG_FORMAT, LoggedCommit, parse_log, tree_blobs
from .git import GitSourceError, require, require_sha


def repository_of(folder: Path) -> Path | None:
    """The work tree holding `folder` as git finds it (`rev-parse --show-toplevel`), None
    outside any; GitSourceError for a repository git refuses."""
    if not folder.is_dir():
        return None
    try:
        top = git.run(["rev-parse", "--show-toplevel"], cwd=folder)
    except GitSourceError as exc:
        message = str(exc)
        if "not a git repository" in message or "must be run in a work tree" in message:
            return None
        raise GitSourceError(f"{folder}: {message}") from exc
    top = top.rstrip(b"\n")
    return Path(os.fsdecode(top)) if top else None


class ProjectRepo(Checkout):
    """The repository holding the registers: a folder's files by blob id, its history."""

    def tree(self, sha: str, folder: str) -> dict[str, str]:
        """{name: blob id} of the files directly in `folder` ('' the top) at commit `sha`."""
        require_sha(sha)
        if folder:  # it goes to cat-file's standard input: one line, no odd path
            require(check_repo_path(folder))
        name = f"{sha}:{folder}" if folder else f"{sha}^{{tree}}"
        found = self._object(name)
        if found is None or found[1] != "tree":
            return {}
        return tree_blobs(found[2])

    def blob(self, blob_id: str) -> bytes | None:
        """The bytes of a blob, or None when not held."""
        require_sha(blob_id)
        found = self._object(blob_id)
        return found[2] if found is not None and found[1] == "blob" else None

    def log(self, folder: str) -> list[LoggedCommit]:
        """The commits that changed files directly in `folder`, newest first, along first
        parents."""
        options = ["--first-parent", "--diff-merges=first-parent", "--raw", "--no-abbrev"]
        options += ["--no-renames", "--no-color", LOG_FORMAT]
        out = self.run_git("log", *options, "HEAD", "--", folder or ".")
        return [c for c in parse_log(out) if _in_folder(c, folder)]

    def head(self) -> str | None:
        """The sha of HEAD, or None in a repository without commits."""
        found = self._object("HEAD^{commit}")
        return found[0] if found is not None else None

    def shallow_roots(self) -> set[str]:
        """The commits whose parents this clone does not hold (a shallow clone's edge)."""
        try:  # a path from the work tree, or absolute
            path = os.fsdecode(self.git("rev-parse", "--git-path", "shallow").rstrip(b"\n"))
            return set((self.root / path).read_text(encoding="ascii").split())
        except (GitSourceError, OSError):
            return set()


def blob_id(data: bytes) -> str:
    """The id git gives a blob of these bytes (what `git hash-object` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _in_folder(commit: LoggedCommit, folder: str) -> bool:
    """Keep only the changes to files directly in `folder`; False when none is left."""
    commit.changes = [c for c in commit.changes if os.path.dirname(c[0]) == folder]
    return bool(commit.changes)

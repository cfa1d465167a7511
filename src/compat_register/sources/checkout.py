"""A git repository read at pinned commits, touching no work tree: blobs through one
`git cat-file --batch` (`catfile`), trees, diffs and logs through the runner (`git`)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from ..checking.safety import check_commit, check_repo_path
from . import git
from .catfile import CatFile, Texts, text_of
from .filetext import FileText
from .git import FULL_SHA, GitSourceError, check_rev, require, require_sha


class Checkout:
    """A git repository (bare or not) read at pinned commits; each (commit, path) read at
    most once, kept as a `FileText` (a run's one cache of file texts). One per thread."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.git_dir = _git_dir(root)
        self._texts: Texts = {}
        self._reader = CatFile(self.git_dir, root)

    def resolve(self, commit: str) -> str | None:
        """Full sha of the commit the hex prefix `commit` names, None when this repository
        does not hold it; GitSourceError when ambiguous."""
        require(check_commit(commit))
        found = self._object(f"{commit.lower()}^{{commit}}")
        if found is not None:
            return found[0]
        # git answers "missing" for an ambiguous `<hex>^{commit}`; only the bare name says
        # "ambiguous", and _object raises for that.
        self._object(commit.lower())
        return None

    def resolve_rev(self, rev: str) -> str | None:
        """Full sha of the commit `rev` names (a hex prefix, a branch, a tag, `HEAD`) or None;
        asked on cat-file's standard input, never a command line."""
        require(check_rev(rev))
        if check_commit(rev) is None and (sha := self.resolve(rev)) is not None:
            return sha
        found = self._object(f"{rev}^{{commit}}")
        return found[0] if found is not None else None

    def read_text(self, sha: str, path: str) -> list[str] | None:
        """The lines of `path` at full commit sha `sha` (UTF-8, errors replaced), None when no
        file; GitSourceError for a binary file. The cached list itself: do not change it."""
        text = self.file_text(sha, path)
        return None if text is None else text.lines

    def file_text(self, sha: str, path: str) -> FileText | None:
        """`read_text`'s lines as a `FileText` (its quote index built once); a (sha, path)
        in the cache was checked as it was read (verify asks once per citation)."""
        if (sha, path) not in self._texts:
            require_sha(sha)
            require(check_repo_path(path))
            self._texts[sha, path] = text_of(self._object(f"{sha}:{path}"))
        text = self._texts[sha, path]
        if isinstance(text, str):
            raise GitSourceError(f"{path} is a binary file")
        return text

    def paths(self, sha: str) -> list[str]:
        """Every file path in the tree of full commit sha `sha`, in git's order."""
        require_sha(sha)
        try:
            out = self.git("ls-tree", "-r", "-z", "--name-only", sha)
        except GitSourceError as exc:
            raise GitSourceError(f"git cannot list {sha} in {self.root}: {exc}") from exc
        return [os.fsdecode(path) for path in out.split(b"\0") if path]

    def prefetch(self, sha: str, paths: Iterable[str]) -> None:
        """Read many files at `sha` in one pass; later `read_text` calls hit the cache."""
        self.read_many((sha, path) for path in paths)

    def read_many(self, wanted: Iterable[tuple[str, str]]) -> None:
        """Read many (full commit sha, path) files a chunk at a time, for `read_text` to find;
        a name that is no full sha or safe path is left to `read_text`."""
        todo = [
            (sha, path)
            for sha, path in dict.fromkeys(wanted)
            if (sha, path) not in self._texts
            and FULL_SHA.fullmatch(sha)
            and check_repo_path(path) is None
        ]
        self._reader.read_many(todo, self._texts)

    def run_git(self, *args: str) -> str:
        """`git ARGS` here, decoded; callers pass full shas only, never a user's text."""
        try:
            return git.text(self.git(*args))
        except GitSourceError as exc:
            raise GitSourceError(f"git {args[0]} failed in {self.root}: {exc}") from exc

    def git(self, *args: str) -> bytes:
        """The raw output of `git ARGS` here, paths quoted whatever the user's config says."""
        return git.run(["-c", "core.quotePath=true", *args], git_dir=self.git_dir, cwd=self.root)

    def close(self) -> None:
        self._reader.close()

    def __enter__(self) -> Checkout:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _object(self, name: str) -> tuple[str, str, bytes] | None:
        """(sha, type, data) of the object `name`, None if git says it is missing."""
        return self._reader.object(name)


def _git_dir(root: Path) -> str:
    """The absolute git directory of the work tree or bare repository at `root`: seen on
    disk when plainly one, else asked of git, told not to look above `root`."""
    plain = _plain_git_dir(root)
    if plain is not None:
        return plain
    ceiling = {"GIT_CEILING_DIRECTORIES": os.path.dirname(os.path.realpath(root))}
    try:
        out = git.run(["rev-parse", "--absolute-git-dir"], cwd=root, env=ceiling)
    except GitSourceError:  # no such directory, or no repository at it
        out = b""
    if not out.strip():
        raise GitSourceError(f"{root} is not a git repository")
    return os.fsdecode(out.rstrip(b"\n"))


_HEAD = re.compile(rb"ref: refs/|[0-9a-f]{40}(?:[0-9a-f]{24})?\s*\Z")
"""What git's own test (`validate_headref`) takes for a HEAD: a ref under refs/, or a sha."""


def _plain_git_dir(root: Path) -> str | None:
    """The git directory `rev-parse --absolute-git-dir` finds at `root` (a bare one too, which
    git finds only when named), seen on disk without starting git in the plain cases only:
    `root/.git` or `root` with HEAD, objects/, refs/, no commondir, both ours. None: ask git."""
    dot = root / ".git"
    candidate = dot if os.path.lexists(dot) else root
    try:
        owners = {os.stat(root).st_uid, os.stat(candidate).st_uid}
        if owners != {os.geteuid()} or not os.path.isdir(candidate):
            return None
        if os.path.lexists(candidate / "commondir"):
            return None
        if not (os.path.isdir(candidate / "objects") and os.path.isdir(candidate / "refs")):
            return None
        with open(candidate / "HEAD", "rb") as head:
            headref = head.read(100)
    except OSError:
        return None
    return os.path.realpath(candidate) if _HEAD.match(headref) else None

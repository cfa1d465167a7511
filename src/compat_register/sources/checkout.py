"""A git repository read at pinned commits, touching no work tree: objects through one
`git cat-file --batch` for the repository's life, asked one name or one chunk of names at a
time; trees, diffs and logs through the runner (`git`)."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from ..checking.safety import check_commit, check_repo_path
from . import git
from .filetext import FileText
from .git import FULL_SHA, DamagedRepository, GitSourceError, check_rev, require, require_sha

BINARY = "binary"  # a blob with a NUL byte in its first 8000 bytes (git's test)
CHUNK = 100  # most requests written before reading their answers
CHUNK_BYTES = 8192
"""Most bytes of requests written before reading their answers, unless one request alone:
they fit whole in any pipe's buffer (64 KiB on Linux, 16 KiB on macOS). Past it, git,
blocked writing answers nobody reads yet, would stop reading the names we still write."""

Found = tuple[str, str, bytes] | None  # an object's (sha, type, data), None when missing


class Checkout:
    """A git repository (bare or not) read at pinned commits; each (commit, path) read at
    most once, kept as a `FileText` (a run's one cache of file texts). One per thread."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.git_dir = _git_dir(root)
        self._texts: dict[tuple[str, str], FileText | str | None] = {}
        """(full commit sha, path) -> the file's text, `BINARY`, or None."""
        self._process: subprocess.Popen[bytes] | None = None

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
        """`read_text`'s lines as a `FileText`; a (sha, path) in the cache was checked as it
        was read (verify asks once per citation)."""
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
        """Read many (full commit sha, path) files, a round trip per chunk of requests, for
        `read_text` to find; a name that is no full sha or safe path is left to `read_text`."""
        todo = [
            (sha, path)
            for sha, path in dict.fromkeys(wanted)
            if (sha, path) not in self._texts
            and FULL_SHA.fullmatch(sha)
            and check_repo_path(path) is None
        ]
        for chunk in chunks([f"{sha}:{path}" for sha, path in todo]):
            answers = self._ask([name for _, name in chunk])
            for (n, _), found in zip(chunk, answers, strict=True):
                self._texts[todo[n]] = text_of(found)

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
        """End the cat-file reader: its pipes closed, so git ends, and waited for."""
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(BrokenPipeError), process:  # one already dead: a broken pipe
                if process.stdin is not None:
                    process.stdin.close()

    def __enter__(self) -> Checkout:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _object(self, name: str) -> Found:
        return self._ask([name])[0]

    def _ask(self, names: list[str]) -> list[Found]:
        """git's answer to each name (`<sha> <type> <size>` and the data, `<name> missing`,
        `<name> ambiguous`); one that cannot be trusted ends the reader, started anew next."""
        if self._process is None:
            pipe = subprocess.PIPE
            self._process = git.start(
                ["cat-file", "--batch"], stdin=pipe, stdout=pipe, git_dir=self.git_dir
            )
        reader = self._process
        assert reader.stdin is not None and reader.stdout is not None
        try:
            reader.stdin.write(b"".join(os.fsencode(name) + b"\n" for name in names))
            reader.stdin.flush()
            return [self._answer(reader.stdout, name) for name in names]
        except OSError as exc:
            self.close()
            raise GitSourceError(f"git cannot read {self.root}: {exc}") from exc
        except GitSourceError:
            self.close()
            raise

    def _answer(self, stream: IO[bytes], name: str) -> Found:
        header = stream.readline().split()
        if header[-1:] == [b"missing"]:  # the name itself may hold spaces: look at the end
            return None
        if header[-1:] == [b"ambiguous"]:
            raise GitSourceError(f"commit {name!r} is ambiguous in {self.root}")
        if len(header) != 3 or not header[2].isdigit():
            reply = b" ".join(header).decode(errors="replace") or "no answer"
            raise GitSourceError(f"git cannot read {self.root}: cat-file said {reply!r}")
        size = int(header[2])
        data = stream.read(size)  # then the newline after, apart: no copy of the object
        if len(data) != size or not stream.read(1):  # git stopped inside the object
            raise DamagedRepository(f"{self.root} is damaged: git cannot unpack {name}")
        return os.fsdecode(header[0]), os.fsdecode(header[1]), data


def chunks(names: list[str]) -> Iterator[list[tuple[int, str]]]:
    """The names, numbered, in chunks of at most `CHUNK` names and `CHUNK_BYTES` bytes (a
    longer name alone: git answers it once it has read all of it)."""
    chunk: list[tuple[int, str]] = []
    size = 0
    for n, name in enumerate(names):
        written = len(os.fsencode(name)) + 1
        if chunk and (len(chunk) == CHUNK or size + written > CHUNK_BYTES):
            yield chunk
            chunk, size = [], 0
        chunk.append((n, name))
        size += written
    if chunk:
        yield chunk


def text_of(found: Found) -> FileText | str | None:
    """What the cache holds for an object: its text, BINARY, or None (no blob)."""
    if found is None or found[1] != "blob":
        return None
    if b"\0" in found[2][:8000]:
        return BINARY
    # Split on '\n' only (not str.splitlines, which also splits on \f, \x1c, U+2028, ...) so
    # line numbers agree with git and GitHub.
    text = found[2].decode("utf-8", errors="replace")
    lines = text.removesuffix("\n").split("\n") if text else []
    if "\r" in text:  # a CRLF file: each line without its '\r'
        lines = [line.removesuffix("\r") for line in lines]
    return FileText(lines)


def _git_dir(root: Path) -> str:
    """The absolute git directory of the work tree or bare repository at `root`: seen on
    disk when plainly one, else asked of git, told not to look above `root`."""
    if (plain := _plain_git_dir(root)) is not None:
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
        plain = os.path.isdir(candidate / "objects") and os.path.isdir(candidate / "refs")
        if owners != {os.geteuid()} or not plain or os.path.lexists(candidate / "commondir"):
            return None
        with open(candidate / "HEAD", "rb") as head:
            headref = head.read(100)
    except OSError:
        return None
    return os.path.realpath(candidate) if _HEAD.match(headref) else None

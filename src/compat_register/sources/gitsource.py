"""Pinned sources: the only module of compat-register that talks to git.

It checks what users write before git sees it (repo URLs, commits, paths), reads files at
pinned commits without touching a work tree (`Checkout`), and fills the cache of source
repositories (`SourceCache`). Every failure is a `GitSourceError` holding one line.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any

from ..checking.safety import check_commit, check_repo_path, check_repo_url, is_local_path
from ..storage.project import state_dir
from .diffs import LOG_FORMAT, Hunk, LoggedCommit, parse_diff, parse_log, tree_blobs
from .filetext import FileText

_FULL_SHA = re.compile(r"[0-9a-f]{40}")
_ALIAS = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")  # a folder's name: bounded
_BINARY = "binary"
# A branch or tag name as `bump` fetches it: no refspec syntax (':', '+', '*', '^'), no option.
_REF = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)*")
_TIP = "refs/register/tip"
_CHUNK = 100
"""Requests `read_many` writes before reading their answers (well inside a pipe's buffer)."""
# Explicit prefixes, no colour/ext-diff/textconv: the user's git config must not change the
# parse. --text: a `-diff` or `binary` attribute (a .gitattributes, core.attributesFile) would
# otherwise turn a file's hunks into one "Binary files ... differ" line, read as no change.
_DIFF_OPTIONS = ("--no-color", "--no-ext-diff", "--no-textconv", "--text", "-M", "--unified=0")
_DIFF_PREFIXES = ("--src-prefix=a/", "--dst-prefix=b/")
# The environment of every fetch: no transport but these, and no prompt that would hang CI.
_FETCH_ENV = {"GIT_ALLOW_PROTOCOL": "https:ssh:file", "GIT_TERMINAL_PROMPT": "0"}


def _lazy(name: str) -> ModuleType:
    """The module `name`, imported when one of its attributes is first used (the standard
    library's recipe). GitPython takes a tenth of `register verify` to import, and verify
    reads objects through `git cat-file` of its own: only sync, bump and history need it."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, f"{name} is not installed"
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    import git
else:
    git = _lazy("git")


class GitSourceError(Exception):
    """One-line, user-facing message (no traceback ever reaches a user)."""


class DamagedRepository(GitSourceError):
    """git holds an object it cannot unpack: the repository (a cache, say) is damaged."""


def _require(problem: str | None) -> None:
    if problem is not None:
        raise GitSourceError(problem)


def _require_sha(sha: str) -> None:
    if not _FULL_SHA.fullmatch(sha):
        raise GitSourceError(f"{sha!r} is not a full lowercase commit sha")


def _require_literal(path: Path) -> None:
    # GitPython runs git in expandvars(expanduser(path)) (its git.util.expand_path, written
    # out here so that checking a path does not import it): refuse rather than read elsewhere.
    expanded = os.path.normpath(os.path.abspath(os.path.expandvars(os.path.expanduser(path))))
    if expanded != os.path.abspath(path):
        raise GitSourceError(f"{path}: GitPython would expand the '$' or '~' in this path")


def _git_message(exc: Exception) -> str:
    """The line of a git failure worth showing: git's own `fatal:`/`error:` line if any."""
    text = str(exc.stderr if isinstance(exc, git.GitCommandError) else exc).strip()
    found = re.search(r"(?:fatal|error):.*", text)  # GitPython wraps stderr in "stderr: '...'"
    return found.group().rstrip("' ") if found else (text or type(exc).__name__).splitlines()[0]


class Checkout:
    """A git repository (bare or not) from which blobs at pinned commits are read without
    touching any work tree.

    Reads go through one persistent `git cat-file --batch` process, so thousands of reads
    cost one process start; each (commit, path) is read at most once, and kept (as a
    `FileText`, the one cache of file texts in a run). Not thread-safe: use one Checkout
    per thread.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        _require_literal(root)
        self.git_dir = _git_dir(root)
        self._texts: dict[tuple[str, str], FileText | str | None] = {}
        self._diffs: dict[tuple[str, str], dict[str, tuple[str | None, list[Hunk]]]] = {}
        self._gitpython: git.Repo | None = None
        self._reader: subprocess.Popen[bytes] | None = None

    @property
    def _repo(self) -> git.Repo:
        """GitPython's handle on the repository, opened when first needed (to list a tree,
        diff, log): reading objects does without it."""
        if self._gitpython is None:
            try:
                self._gitpython = git.Repo(self.root)
            except (git.GitError, OSError) as exc:
                raise GitSourceError(f"{self.root} is not a git repository") from exc
        return self._gitpython

    def resolve(self, commit: str) -> str | None:
        """Full 40-hex sha of the commit named by the hex prefix `commit`, or None when this
        repository does not hold it. An ambiguous prefix raises GitSourceError."""
        _require(check_commit(commit))
        found = self._object(f"{commit.lower()}^{{commit}}")
        if found is not None:
            return found[0]
        # git answers "missing" for an ambiguous `<hex>^{commit}`; only the bare name says
        # "ambiguous", and _object raises for that.
        self._object(commit.lower())
        return None

    def resolve_rev(self, rev: str) -> str | None:
        """Full sha of the commit `rev` names: a hex prefix, a branch, a tag, `HEAD`, ...;
        None when this repository has no such commit.

        The name goes to git on the standard input of `cat-file --batch` (as `REV^{commit}`),
        never on a command line, so no text of a user's can be read as an option.
        """
        _require(_check_rev(rev))
        if check_commit(rev) is None and (sha := self.resolve(rev)) is not None:
            return sha
        found = self._object(f"{rev}^{{commit}}")
        return found[0] if found is not None else None

    def read_text(self, sha: str, path: str) -> list[str] | None:
        """The lines of `path` at full commit sha `sha` (str, no line endings, decoded as
        UTF-8 with errors='replace'), or None if the path does not exist there or is a tree.
        Raises GitSourceError('... is a binary file') when the blob holds a NUL byte in its
        first 8000 bytes (git's own test). The cached list itself: do not change it."""
        text = self.file_text(sha, path)
        return None if text is None else text.lines

    def file_text(self, sha: str, path: str) -> FileText | None:
        """`read_text`'s lines as a `FileText` (whose quote index is then built once)."""
        _require_sha(sha)
        _require(check_repo_path(path))
        if (sha, path) not in self._texts:
            self._texts[sha, path] = self._read(sha, path)
        text = self._texts[sha, path]
        if isinstance(text, str):
            raise GitSourceError(f"{path} is a binary file")
        return text

    def paths(self, sha: str) -> list[str]:
        """Every file path in the tree of full commit sha `sha` (`git ls-tree -r`), in git's
        order. `sha` is checked to be 40 hex digits, so git never reads it as an option."""
        _require_sha(sha)
        try:
            out = self._repo.git.ls_tree("-r", "-z", "--name-only", sha, stdout_as_string=False)
        except git.GitCommandError as exc:
            raise GitSourceError(
                f"git cannot list {sha} in {self.root}: {_git_message(exc)}"
            ) from exc
        return [os.fsdecode(path) for path in bytes(out).split(b"\0") if path]

    def prefetch(self, sha: str, paths: Iterable[str]) -> None:
        """Read many files at `sha` in one pass; later `read_text` calls hit the cache."""
        batch = self.batch(sha)
        batch.ask(paths)
        batch.collect()

    def read_many(self, wanted: Iterable[tuple[str, str]]) -> None:
        """Read many (full commit sha, path) files through the checkout's one `cat-file`,
        the requests of each chunk written at once: a round trip per chunk, not per file
        (what a busy machine makes slow). Later `read_text` calls hit the cache."""
        todo = [
            (sha, path)
            for sha, path in dict.fromkeys(wanted)
            if (sha, path) not in self._texts
            and _FULL_SHA.fullmatch(sha)
            and check_repo_path(path) is None
        ]
        reader = self._cat_file()
        assert reader.stdin is not None and reader.stdout is not None
        try:
            for first in range(0, len(todo), _CHUNK):
                chunk = todo[first : first + _CHUNK]  # small enough to sit in the pipe whole
                reader.stdin.write(b"".join(os.fsencode(f"{s}:{p}\n") for s, p in chunk))
                reader.stdin.flush()
                for key in chunk:
                    self._texts[key] = _text_of(_answer(reader.stdout))
        except (OSError, ValueError, IndexError) as exc:
            raise GitSourceError(f"git cannot read {self.root}: {exc}") from exc

    def batch(self, sha: str) -> BlobBatch:
        """Start reading files at `sha` in the background: see `BlobBatch`."""
        _require_sha(sha)
        return BlobBatch(self, sha)

    def changed_ranges(
        self, old_sha: str, new_sha: str, path: str
    ) -> tuple[str | None, list[Hunk]]:
        """Follow `path` from commit `old_sha` to `new_sha`: (its new path, or None if it was
        deleted; the hunks of `git diff -M --unified=0` for it). A path the diff does not
        mention comes back unchanged with no hunks. One `git diff` per commit pair."""
        _require_sha(old_sha)
        _require_sha(new_sha)
        _require(check_repo_path(path))
        if (old_sha, new_sha) not in self._diffs:
            self._diffs[old_sha, new_sha] = parse_diff(self._diff(old_sha, new_sha))
        new_path, hunks = self._diffs[old_sha, new_sha].get(path, (path, []))
        return new_path, list(hunks)

    def run_git(self, *args: str) -> str:
        """The output of `git ARGS` in this repository, decoded (errors replaced).

        Run by subprocess, not GitPython, with colour, external diff and textconv off, so the
        user's git config cannot change what `diffs` parses. Callers pass options and full
        shas only: no text of a user's reaches git as an option."""
        command = ["git", "--git-dir", self.git_dir, "-c", "core.quotePath=true", *args]
        try:
            done = subprocess.run(command, capture_output=True, check=False)
        except OSError as exc:
            raise GitSourceError(f"cannot run git in {self.root}: {exc}") from exc
        if done.returncode != 0:
            problem = done.stderr.decode(errors="replace").strip().splitlines()
            line = next((p for p in problem if p.startswith(("fatal:", "error:"))), "")
            raise GitSourceError(f"git {args[0]} failed in {self.root}: {line or 'no reason'}")
        return done.stdout.decode("utf-8", errors="replace")

    def close(self) -> None:
        """End the cat-file processes."""
        self._drop_reader()
        if self._gitpython is not None:
            self._gitpython.close()

    def __enter__(self) -> Checkout:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _read(self, sha: str, path: str) -> FileText | str | None:
        found = self._object(f"{sha}:{path}")
        return _text_of(None if found is None else (found[1], found[2]))

    def _object(self, name: str) -> tuple[str, str, bytes] | None:
        """(sha, type, data) of the object `name`, None if git says it is missing.

        Asked of one `git cat-file --batch` kept for the checkout's life: it answers
        `<sha> <type> <size>` and the data, or `<name> missing`, or `<name> ambiguous`.
        """
        reader = self._cat_file()
        assert reader.stdin is not None and reader.stdout is not None
        try:
            reader.stdin.write(os.fsencode(name) + b"\n")
            reader.stdin.flush()
            header = reader.stdout.readline().split()
            if header[-1:] == [b"missing"]:  # the name itself may hold spaces: look at the end
                return None
            if header[-1:] == [b"ambiguous"]:
                raise GitSourceError(f"commit {name!r} is ambiguous in {self.root}")
            if len(header) == 3 and header[2].isdigit():
                size = int(header[2])
                data = reader.stdout.read(size + 1)[:-1]  # and the newline after
                if len(data) == size:
                    return os.fsdecode(header[0]), os.fsdecode(header[1]), data
                self._drop_reader()  # git stopped inside the object: it could not unpack it
                raise DamagedRepository(f"{self.root} is damaged: git cannot unpack {name}")
        except OSError as exc:
            self._drop_reader()
            raise GitSourceError(f"git cannot read {self.root}: {exc}") from exc
        self._drop_reader()  # the next request starts a new reader: one bad name ends no other
        reply = b" ".join(header).decode(errors="replace") or "no answer"
        raise GitSourceError(f"git cannot read {self.root}: cat-file said {reply!r}")

    def _drop_reader(self) -> None:
        """End the reader (it has died, or its answers can no longer be trusted)."""
        reader, self._reader = self._reader, None
        if reader is not None:
            _end(reader)

    def _cat_file(self) -> subprocess.Popen[bytes]:
        if self._reader is None:
            command = ["git", "--git-dir", self.git_dir, "cat-file", "--batch"]
            self._reader = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
            )
        return self._reader

    def _diff(self, old_sha: str, new_sha: str) -> str:
        try:
            out = self._repo.git.diff(
                *_DIFF_OPTIONS, *_DIFF_PREFIXES, old_sha, new_sha, "--", stdout_as_string=False
            )
        except git.GitCommandError as exc:
            raise GitSourceError(f"git diff failed in {self.root}: {_git_message(exc)}") from exc
        return bytes(out).decode("utf-8", errors="replace")


def _end(process: subprocess.Popen[bytes]) -> None:
    """Close a reader's pipes, so git ends, and wait for that. A git that died already
    (it refused a name, or a pack is damaged) leaves a broken pipe: nothing to say to it."""
    with contextlib.suppress(BrokenPipeError):
        if process.stdin is not None:
            process.stdin.close()
    with process:  # closes the rest and waits
        pass


def _git_dir(root: Path) -> str:
    """The absolute git directory of the repository at `root`, a work tree or a bare
    repository; raises GitSourceError when `root` is neither.

    Asked of git (`rev-parse --absolute-git-dir`), told not to look above `root` (as
    GitPython's `Repo(root)` does not) and not to take a GIT_DIR from the environment.
    """
    outside = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES")
    env = {key: value for key, value in os.environ.items() if key not in outside}
    env["GIT_CEILING_DIRECTORIES"] = os.path.dirname(os.path.realpath(root))  # as git sees it
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--absolute-git-dir"], cwd=root, env=env, capture_output=True
        )
    except OSError:  # no such directory
        done = None
    if done is None or done.returncode != 0 or not done.stdout.strip():
        raise GitSourceError(f"{root} is not a git repository")
    return os.fsdecode(done.stdout.rstrip(b"\n"))


def _check_rev(rev: str) -> str | None:
    # cat-file --batch reads one name per line: a newline would start a second request.
    if not rev or len(rev) > 256 or any(c in rev for c in "\n\r\0"):
        return f"revision {rev!r} is empty, too long, or holds a newline or NUL"
    return None


class BlobBatch:
    """Files at one commit, read by a `git cat-file --batch` that runs beside the caller.

    Paths are asked for as the caller learns them (say, register by register while the rest
    is still being parsed) and git answers into a temporary file rather than a pipe, so it
    never waits for the caller to read: the blobs are ready by the time they are needed.
    `collect` puts them in the checkout's cache, where `read_text` finds them.
    """

    def __init__(self, checkout: Checkout, sha: str) -> None:
        self.checkout, self.sha = checkout, sha
        self._asked: list[str] = []
        self._seen: set[str] = set()
        self._answers = tempfile.TemporaryFile()  # noqa: SIM115 - closed by collect()
        # Not through GitPython: it ties git's stdout to a pipe that git would fill and stall.
        command = ["git", "--git-dir", checkout.git_dir, "cat-file", "--batch"]
        self._process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=self._answers, stderr=subprocess.DEVNULL
        )

    def ask(self, paths: Iterable[str]) -> None:
        """Request the files not yet read or asked for; unsafe paths are left to read_text."""
        wanted = [p for p in paths if p not in self._seen and check_repo_path(p) is None]
        wanted = [p for p in wanted if (self.sha, p) not in self.checkout._texts]
        self._seen.update(wanted)
        self._asked.extend(wanted)
        assert self._process.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # git died: collect() says so
            self._process.stdin.write("".join(f"{self.sha}:{p}\n" for p in wanted).encode())
            self._process.stdin.flush()  # git starts on these now, not when a buffer fills

    def collect(self) -> None:
        """Wait for git's answers and cache them; on failure nothing is cached."""
        assert self._process.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self._process.stdin.close()
        failed = self._process.wait() != 0
        self._answers.seek(0)
        out = self._answers.read()
        self._answers.close()
        if failed:  # git stopped part way (a damaged pack, say): nothing is cached, and
            # each file is read on its own by `read_text`, where a bad one fails alone
            raise GitSourceError(f"git cat-file failed in {self.checkout.root}")
        for path, found in zip(self._asked, _batch_objects(out), strict=True):
            self.checkout._texts[self.sha, path] = _text_of(found)


def _text_of(found: tuple[str, bytes] | None) -> FileText | str | None:
    """What the cache holds for an object (type, data): its text, _BINARY, or None."""
    if found is None or found[0] != "blob":
        return None
    if b"\0" in found[1][:8000]:
        return _BINARY
    return FileText(_lines(found[1]))


def _answer(stream: IO[bytes]) -> tuple[str, bytes] | None:
    """(type, data) of the next answer of a `git cat-file --batch`, None for a missing one."""
    header = stream.readline().split()
    if header[-1:] == [b"missing"]:
        return None
    data = stream.read(int(header[2]) + 1)[:-1]  # and the newline after
    return header[1].decode(), data


def _batch_objects(out: bytes) -> Iterator[tuple[str, bytes] | None]:
    """(type, data) of each answer of `git cat-file --batch`, None for a missing object."""
    position = 0
    while position < len(out):
        end = out.index(b"\n", position)
        header = out[position:end].split(b" ")
        if header[-1] == b"missing" or len(header) != 3:
            position = end + 1
            yield None
            continue
        size = int(header[2])
        yield header[1].decode(), out[end + 1 : end + 1 + size]
        position = end + 1 + size + 1


def _lines(data: bytes) -> list[str]:
    # Split on '\n' only (not str.splitlines, which also splits on \f, \x1c, U+2028, ...) so
    # line numbers agree with git and GitHub.
    lines = data.decode("utf-8", errors="replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    if b"\r" not in data:
        return lines  # most files: no line to trim, so no pass over thousands of lines
    return [line[:-1] if line.endswith("\r") else line for line in lines]


class SourceCache:
    """The cache of source repositories: `<root>/<alias>.git`, each a real bare repository
    that can fetch more commits later. A repo dir appears only once it holds its commit."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def repo_dir(self, alias: str) -> Path:
        """Where the cached repository of source `alias` lives (it may not exist)."""
        if not _ALIAS.fullmatch(alias):
            raise GitSourceError(f"source alias {alias!r} is not a plain name")
        return self.root / f"{alias}.git"

    def sync(
        self, alias: str, repo: str, commit: str, progress: Callable[[str], None] | None = None
    ) -> str:
        """Make the cache hold `commit` of `repo`; return its full sha.

        A full sha is fetched alone (`--depth=1`) if the server allows; else all branches and
        tags are. git's stderr lines (progress) go to `progress`. Safe to interrupt and to run
        twice at once; a failure raises GitSourceError and leaves an existing repo as it was.
        """
        _require(check_repo_url(repo))
        _require(check_commit(commit))
        return self._update(alias, lambda repo_dir: _fetch_into(repo_dir, repo, commit, progress))

    def fetch_ref(
        self,
        alias: str,
        repo: str,
        ref: str = "HEAD",
        progress: Callable[[str], None] | None = None,
    ) -> str:
        """Fetch the commit `ref` names in `repo` into the cache; return its full sha.

        `ref` is a branch or tag name, or `HEAD`: the tip of the remote's default branch
        (what `register bump` moves to by default). Only that commit is fetched
        (`--depth=1`): moving a pin needs the trees of two commits, not the history
        between them. The same rules as `sync`: safe to interrupt and to run twice at once.
        """
        _require(check_repo_url(repo))
        _require(_check_ref(ref))
        return self._update(alias, lambda repo_dir: _fetch_ref_into(repo_dir, repo, ref, progress))

    def _update(self, alias: str, fetch: Callable[[Path], str]) -> str:
        """Run `fetch` on the cached repo of `alias` (made first if missing), under its lock."""
        final = self.repo_dir(alias)
        _require_literal(self.root)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            with _locked(self.root / f"{alias}.lock"):
                for stale in self.root.glob(f"{alias}.git.tmp-*"):  # left by a killed sync
                    _remove_tree(stale)
                if final.exists() and not sound(final):
                    _remove_tree(final)  # damaged (a corrupt pack, say): fetched anew
                if final.exists():
                    return fetch(final)
                return _build(final, fetch)
        except (OSError, git.GitError) as exc:
            raise GitSourceError(f"cannot sync {alias}: {_git_message(exc)}") from exc


def sound(repo_dir: Path) -> bool:
    """Whether git can read every object of the repository (`git fsck`: each pack's checksum,
    each object unpacked and checked). A damaged cache would make every file it holds read
    as empty, and every citation of it look out of range."""
    command = ["git", "--git-dir", str(repo_dir), "fsck", "--no-dangling", "--no-progress"]
    try:
        done = subprocess.run(command, capture_output=True, check=False)
    except OSError:
        return False
    return done.returncode == 0


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock; the file stays, as deleting it would race


def _build(final: Path, fetch: Callable[[Path], str]) -> str:
    tmp = final.with_name(f"{final.name}.tmp-{os.getpid()}")
    try:
        tmp.mkdir()
        git.Git(tmp).init("--bare", "--quiet")
        sha = fetch(tmp)
        tmp.rename(final)  # atomic: `final` never exists half-made
        return sha
    finally:
        _remove_tree(tmp)


def _remove_tree(path: Path, seconds: float = 5.0) -> None:
    """Remove `path`, and again while something still writes into it: a process an
    interrupted `git fetch` started (index-pack, writing the pack) can outlive it by a
    moment, and a file it makes during one removal leaves the folder behind."""
    deadline = time.monotonic() + seconds
    while True:
        shutil.rmtree(path, ignore_errors=True)
        if not path.exists() or time.monotonic() > deadline:
            return
        time.sleep(0.05)


def _fetch_into(
    repo_dir: Path, repo: str, commit: str, progress: Callable[[str], None] | None
) -> str:
    with Checkout(repo_dir) as checkout:
        sha = checkout.resolve(commit)
    if sha is not None:
        return sha
    cmd = _origin(repo_dir, repo)
    try:
        _fetch(cmd, commit.lower(), progress)
    except GitSourceError as exc:
        raise GitSourceError(f"cannot fetch {commit} from {repo}: {exc}") from exc
    with Checkout(repo_dir) as checkout:
        sha = checkout.resolve(commit)
    if sha is None:
        raise GitSourceError(f"commit {commit} not found in {repo}")
    # A ref keeps the pinned commit from being garbage-collected.
    cmd.update_ref(f"refs/register/{sha}", sha)
    return sha


def _origin(repo_dir: Path, repo: str) -> git.Git:
    """A git command in `repo_dir` whose remote `origin` is `repo`."""
    cmd = git.Git(repo_dir)
    # `git remote add` has no `--` before its URL; a config value is never read as an option.
    # A relative local path is meant from the current directory, not from the cache.
    cmd.config("--", "remote.origin.url", os.path.abspath(repo) if is_local_path(repo) else repo)
    return cmd


def _fetch_ref_into(
    repo_dir: Path, repo: str, ref: str, progress: Callable[[str], None] | None
) -> str:
    cmd = _origin(repo_dir, repo)
    try:
        _run_fetch(cmd, ["origin", f"+{ref}:{_TIP}"], progress, shallow=True)
    except GitSourceError as exc:
        raise GitSourceError(f"cannot fetch {ref} from {repo}: {exc}") from exc
    with Checkout(repo_dir) as checkout:
        sha = checkout.resolve_rev(_TIP)
    if sha is None:
        raise GitSourceError(f"{ref} of {repo} is not a commit")
    cmd.update_ref(f"refs/register/{sha}", sha)  # kept from garbage collection
    return sha


def _check_ref(ref: str) -> str | None:
    """Error unless `ref` is HEAD or a plain branch or tag name (it goes into a refspec)."""
    if _REF.fullmatch(ref) and ".." not in ref and not ref.endswith((".lock", "/", ".")):
        return None
    return f"{ref!r} is not a branch or tag name"


def _fetch(cmd: git.Git, commit: str, progress: Callable[[str], None] | None) -> None:
    if _FULL_SHA.fullmatch(commit):
        with contextlib.suppress(GitSourceError):  # the server refuses unadvertised commits
            refspec = f"+{commit}:refs/register/{commit}"
            _run_fetch(cmd, ["origin", refspec], progress, shallow=True)
            return
    all_refs = ["origin", "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"]
    _run_fetch(cmd, all_refs, progress)


def _run_fetch(
    cmd: git.Git, args: list[str], progress: Callable[[str], None] | None, shallow: bool = False
) -> None:
    # git's stderr is read here, not in GitPython's pump threads (RemoteProgress), so that an
    # exception raised by `progress`, or Ctrl-C, stops git at once.
    flags = ["--progress"] if progress else []
    # Options go before `--`: after it git reads `--depth=1` as a repository path.
    flags += ["--depth=1"] if shallow else []
    # unpackLimit=1: keep every fetch as one pack, which git installs whole or not at all, so
    # an interrupted fetch never leaves a commit without its trees and blobs.
    handle: Any = cmd(c="fetch.unpackLimit=1").fetch(
        *flags, "--", *args, as_process=True, with_stdout=False, env=_FETCH_ENV
    )
    proc = handle.proc
    problem = ""
    try:
        for line in _stderr_lines(proc.stderr):
            if not problem and line.startswith(("fatal:", "error:")):
                problem = line  # the first says why; later ones only say that it failed
            if progress:
                progress(line)
        if proc.wait() != 0:
            raise GitSourceError(problem or "git fetch failed")
    finally:
        if proc.poll() is None:
            proc.terminate()  # SIGTERM lets git remove its own temporary files
            proc.wait()
        proc.stderr.close()


def _stderr_lines(stream: IO[bytes]) -> Iterator[str]:
    # git ends a progress update with '\r' and a finished step with '\n'.
    pending = b""
    while chunk := os.read(stream.fileno(), 65536):
        *done, pending = re.split(rb"[\r\n]", pending + chunk)
        yield from (d.decode(errors="replace").strip() for d in done if d.strip())
    if pending.strip():
        yield pending.decode(errors="replace").strip()


def locate(
    alias: str, path_key: str | None, cache: SourceCache, environ: Mapping[str, str]
) -> Path | None:
    """Where a source's checkout is, in DESIGN order: env `source_variable(alias)`, then
    the sources.yaml `path:` key, then the cache dir if it exists; None if none. Relative
    paths are returned as given."""
    variable = source_variable(alias)
    if environ.get(variable):
        return Path(environ[variable])
    if path_key:
        return Path(path_key)
    cached = cache.repo_dir(alias)
    return cached if cached.is_dir() else None


def source_variable(alias: str) -> str:
    """The environment variable naming a local clone of source `alias`:
    `REGISTER_SOURCE_` and the alias upper-cased, other characters than A-Z and 0-9 `_`."""
    return "REGISTER_SOURCE_" + re.sub(r"[^A-Za-z0-9]", "_", alias).upper()


def default_cache_root(environ: Mapping[str, str], registers_dir: Path) -> Path:
    """REGISTER_CACHE if set, else `<registers_dir>/../.register/cache`."""
    if environ.get("REGISTER_CACHE"):
        return Path(environ["REGISTER_CACHE"])
    return state_dir(registers_dir) / "cache"


def repository_of(folder: Path) -> Path | None:
    """The work tree of the git repository holding `folder`, or None outside of any.

    Asked of git itself (`rev-parse --show-toplevel`), so that git's own rules apply, such
    as GIT_CEILING_DIRECTORIES. A repository git refuses to read (one owned by another
    user, say) raises GitSourceError with git's reason.
    """
    _require_literal(folder)
    try:
        top = git.Git(folder).rev_parse("--show-toplevel")
    except git.GitCommandError as exc:
        message = _git_message(exc)
        if "not a git repository" in message or "must be run in a work tree" in message:
            return None
        raise GitSourceError(f"{folder}: {message}") from exc
    except (git.GitError, OSError):
        return None
    return Path(top) if top else None


class ProjectRepo(Checkout):
    """The repository holding the registers themselves (not a pinned source): the files
    of a folder at any commit by blob id, and the history of that folder."""

    def tree(self, sha: str, folder: str) -> dict[str, str]:
        """{name: blob id} of the files directly in `folder` (a path from the top of the
        repository, '' for the top) at commit `sha`; empty when the folder is absent."""
        _require_sha(sha)
        if folder:  # it goes to cat-file's standard input: one line, no odd path
            _require(check_repo_path(folder))
        name = f"{sha}:{folder}" if folder else f"{sha}^{{tree}}"
        found = self._object(name)
        if found is None or found[1] != "tree":
            return {}
        return tree_blobs(found[2])

    def blob(self, blob_id: str) -> bytes | None:
        """The bytes of a blob, or None when the repository does not hold it."""
        _require_sha(blob_id)
        found = self._object(blob_id)
        return found[2] if found is not None and found[1] == "blob" else None

    def log(self, folder: str, since: str | None = None) -> list[LoggedCommit]:
        """The commits that changed files directly in `folder`, newest first, along first
        parents (a merge is its change against the branch it was merged into); with
        `since`, only those after that commit."""
        span = [f"{since}..HEAD"] if since else ["HEAD"]
        if since:
            _require_sha(since)
        try:
            out = self._repo.git.log(
                "--first-parent",
                "--diff-merges=first-parent",
                "--raw",
                "--no-abbrev",
                "--no-renames",
                "--no-color",
                LOG_FORMAT,
                *span,
                "--",
                folder or ".",
                stdout_as_string=False,
            )
        except git.GitCommandError as exc:
            raise GitSourceError(f"git log failed in {self.root}: {_git_message(exc)}") from exc
        text = bytes(out).decode("utf-8", errors="replace")
        return [c for c in parse_log(text) if _in_folder(c, folder)]

    def head(self) -> str | None:
        """The sha of HEAD, or None in a repository without commits."""
        found = self._object("HEAD^{commit}")
        return found[0] if found is not None else None

    def shallow_roots(self) -> set[str]:
        """The commits whose parents this clone does not hold (a shallow clone's edge)."""
        try:
            path = Path(self._repo.git.rev_parse("--git-path", "shallow"))
        except git.GitCommandError:
            return set()
        if not path.is_absolute():
            path = self.root / path
        try:
            return set(path.read_text(encoding="ascii").split())
        except OSError:
            return set()


def blob_id(data: bytes) -> str:
    """The id git gives a blob of these bytes (what `git hash-object` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _in_folder(commit: LoggedCommit, folder: str) -> bool:
    """Keep only the changes to files directly in `folder`; a commit without any is dropped."""
    commit.changes = [c for c in commit.changes if os.path.dirname(c[0]) == folder]
    return bool(commit.changes)

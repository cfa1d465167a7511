"""The cache of source repositories, `<root>/<alias>.git`, filled by `register sync` and
`bump`: bare repositories, each appearing only once it holds its commit, rebuilt when damaged
or not as the tool made it (`foreign`); syncs take turns under a lock, no link is followed.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from ..checking.safety import check_commit, check_repo_url, is_local_path
from . import git
from .checkout import Checkout
from .git import FULL_SHA, GitSourceError, check_alias, check_ref, require

_TIP = "refs/register/tip"

MADE = frozenset(
    {"HEAD", "config", "objects", "refs", "packed-refs", "shallow", "FETCH_HEAD"}
    | {"logs", "gc.log", "gc.pid"}  # what git's reflogs and automatic gc may add
)  # what a repository `git init --bare --template=` made holds once fetched into

CONFIG = frozenset(
    {"core.repositoryformatversion", "core.filemode", "core.bare", "remote.origin.url"}
    | {"core.ignorecase", "core.precomposeunicode", "core.symlinks"}  # as the disk needs
)  # the config keys `git init --bare` and the tool (`remote.origin.url`) write

ELSEWHERE = ("objects/info/alternates", "objects/info/http-alternates")  # objects from elsewhere

Progress = Callable[[str], None] | None  # told each line of git's progress


class SourceCache:
    """The cache of source repositories: `<root>/<alias>.git`, each a bare repository that
    can fetch more commits later."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.rebuilt: dict[str, str] = {}
        """Each alias whose repository was removed before a fetch, and why (an info line)."""

    def repo_dir(self, alias: str) -> Path:
        require(check_alias(alias))
        return self.root / f"{alias}.git"

    def sync(self, alias: str, repo: str, commit: str, progress: Progress = None) -> str:
        """Make the cache hold `commit` of `repo` (a full sha fetched alone if the server
        allows, else all branches and tags); its full sha. Safe to interrupt and to run
        twice at once."""
        require(check_repo_url(repo) or check_commit(commit))

        def fetch(repo_dir: Path) -> str:
            if (sha := _resolved(repo_dir, commit)) is not None:
                return _kept(repo_dir, sha, "")  # it may have come with a branch that moves
            _fetch_from(repo_dir, repo, commit, lambda: _fetch(repo_dir, commit.lower(), progress))
            missing = f"commit {commit} not found in {repo}"
            return _kept(repo_dir, _resolved(repo_dir, commit), missing)

        return self._update(alias, fetch)

    def fetch_ref(self, alias: str, repo: str, ref: str = "HEAD", progress: Progress = None) -> str:
        """Fetch the commit `ref` (a branch, a tag, or `HEAD`: the remote's default branch)
        names in `repo`, alone (`--depth=1`), into the cache; its full sha."""
        require(check_repo_url(repo) or check_ref(ref))

        def fetch(repo_dir: Path) -> str:
            refspec = ["origin", f"+{ref}:{_TIP}"]
            _fetch_from(
                repo_dir, repo, ref, lambda: _run_fetch(repo_dir, refspec, progress, shallow=True)
            )
            with Checkout(repo_dir) as checkout:
                sha = checkout.resolve_rev(_TIP)
            return _kept(repo_dir, sha, f"{ref} of {repo} is not a commit")

        return self._update(alias, fetch)

    def foreign(self, alias: str) -> str | None:
        """Why the cached repository of `alias` is not one the tool made ("PATH is a
        symbolic link ..."); None when it is, or when there is none."""
        repo_dir = self.repo_dir(alias)
        why = foreign(repo_dir) if os.path.lexists(repo_dir) else None
        return f"{repo_dir} {why}" if why else None

    def _update(self, alias: str, fetch: Callable[[Path], str]) -> str:
        """Run `fetch` on the cached repo of `alias` (made first if missing), under its lock;
        one the tool did not make, or damaged, is removed first and fetched anew."""
        final = self.repo_dir(alias)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            with _locked(self.root / f"{alias}.lock"):
                for stale in self.root.glob(f"{alias}.git.tmp-*"):  # left by a killed sync
                    _remove_tree(stale)
                why = self.foreign(alias)
                if why is None and final.exists() and not sound(final):
                    why = f"{final} is damaged"  # a corrupt pack, say
                if why is not None:
                    self.rebuilt[alias] = why
                    _remove_tree(final)
                if final.exists():
                    return fetch(final)
                return _build(final, fetch)
        except OSError as exc:
            raise GitSourceError(f"cannot sync {alias}: {exc}") from exc


def foreign(repo_dir: Path) -> str | None:
    """Why the repository at `repo_dir` is not one the tool made (words after its path: "is
    a symbolic link ..."), or None: only what git writes fetching, a config of known keys."""
    if os.path.islink(repo_dir):
        return f"is a symbolic link (to {os.readlink(repo_dir)!r})"
    if not os.path.isdir(repo_dir):
        return "is not a folder"
    names = set(os.listdir(repo_dir))
    if not {"HEAD", "config", "objects", "refs"} <= names:
        return "is not a git repository"
    borrowed = [name for name in ELSEWHERE if os.path.lexists(repo_dir / name)]
    odd = sorted(names - MADE)[:4] or borrowed[:1]
    if odd:
        return f"holds {', '.join(odd)}, which register sync never writes"
    special = _not_plain(repo_dir)
    if special:
        return f"holds {special}, a symbolic link or special file"
    try:  # the keys of its own config file (includes not followed)
        out = git.run(["config", "--file", str(repo_dir / "config"), "--list", "-z", "--name-only"])
    except GitSourceError:
        return "has a config git cannot read"
    unknown = sorted({git.text(key) for key in out.split(b"\0") if key} - CONFIG)
    if unknown:
        return f"sets {unknown[0]} in its config, which register sync never writes"
    return None


def _not_plain(folder: Path) -> str | None:
    """The first entry under `folder` neither a plain file nor a folder (a link, a FIFO)."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                inner = _not_plain(Path(entry.path))
                if inner:
                    return f"{entry.name}/{inner}"
            elif not entry.is_file(follow_symlinks=False):
                return entry.name
    return None


def sound(repo_dir: Path) -> bool:
    """Whether git can read every object of the repository (`git fsck`): a damaged cache
    would read every file as empty, and every citation of it out of range."""
    try:
        git.run(["fsck", "--no-dangling", "--no-progress"], git_dir=repo_dir)
    except GitSourceError:
        return False
    return True


def _in_cache(repo_dir: Path, *args: str) -> None:
    try:
        git.run(args, git_dir=repo_dir)
    except GitSourceError as exc:
        raise GitSourceError(f"git {args[0]} failed in {repo_dir}: {exc}") from exc


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold the lock file at `path` (a link there is removed, never followed)."""
    if os.path.islink(path):
        os.unlink(path)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock; the file stays, as deleting it would race


def _build(final: Path, fetch: Callable[[Path], str]) -> str:
    tmp = final.with_name(f"{final.name}.tmp-{os.getpid()}")
    try:
        tmp.mkdir()
        # No template: no hooks, info or description, only what `MADE` names.
        _in_cache(tmp, "init", "--bare", "--quiet", "--template=", "--object-format=sha1")
        sha = fetch(tmp)
        tmp.rename(final)  # atomic: `final` never exists half-made
        return sha
    finally:
        _remove_tree(tmp)


def _remove_tree(path: Path, seconds: float = 5.0) -> None:
    """Remove `path` (a link itself), again while something writes into it: the index-pack
    of an interrupted `git fetch` can outlive it by a moment."""
    deadline = time.monotonic() + seconds
    while True:
        if os.path.islink(path) or (os.path.lexists(path) and not path.is_dir()):
            os.unlink(path)
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.lexists(path) or time.monotonic() > deadline:
            return
        time.sleep(0.05)


def _resolved(repo_dir: Path, commit: str) -> str | None:
    with Checkout(repo_dir) as checkout:
        return checkout.resolve(commit)


def _kept(repo_dir: Path, sha: str | None, missing: str) -> str:
    """`sha`, kept from garbage collection by a ref; GitSourceError(`missing`) for None."""
    if sha is None:
        raise GitSourceError(missing)
    _in_cache(repo_dir, "update-ref", f"refs/register/{sha}", sha)
    return sha


def _fetch_from(repo_dir: Path, repo: str, what: str, fetch: Callable[[], None]) -> None:
    """Set `repo` as the cache's origin, then `fetch` from it."""
    # `git remote add` has no `--` before its URL; a config value is never read as an option.
    # A relative local path is meant from the current directory, not from the cache.
    url = os.path.abspath(repo) if is_local_path(repo) else repo
    _in_cache(repo_dir, "config", "--", "remote.origin.url", url)
    try:
        fetch()
    except GitSourceError as exc:
        raise GitSourceError(f"cannot fetch {what} from {repo}: {exc}") from exc


def _fetch(repo_dir: Path, commit: str, progress: Progress) -> None:
    if FULL_SHA.fullmatch(commit):
        with contextlib.suppress(GitSourceError):  # the server refuses unadvertised commits
            refspec = f"+{commit}:refs/register/{commit}"
            _run_fetch(repo_dir, ["origin", refspec], progress, shallow=True)
            return
    all_refs = ["origin", "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"]
    _run_fetch(repo_dir, all_refs, progress)


def _run_fetch(repo_dir: Path, args: list[str], progress: Progress, shallow: bool = False) -> None:
    """`git fetch ARGS`, its stderr read line by line here, so that an exception raised by
    `progress`, or Ctrl-C, stops git at once."""
    flags = ["--progress"] if progress else []
    # Options go before `--`: after it git reads `--depth=1` as a repository path.
    flags += ["--depth=1"] if shallow else []
    # unpackLimit=1: keep every fetch as one pack, which git installs whole or not at all, so
    # an interrupted fetch never leaves a commit without its trees and blobs.
    command = ["-c", "fetch.unpackLimit=1", "fetch", *flags, "--", *args]
    proc = git.start(command, stderr=subprocess.PIPE, git_dir=repo_dir)
    assert proc.stderr is not None
    # git ends a progress update with '\r' and a finished step with '\n': both end a line.
    stderr = io.TextIOWrapper(proc.stderr, "utf-8", errors="replace", newline=None)
    problem = ""
    try:
        for said in stderr:
            if not (line := said.strip()):
                continue
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
        stderr.close()

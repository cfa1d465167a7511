"""The one git runner: every git process starts here, hardened (a repository read may be a
pull request's): no hook, fsmonitor, pager, signature program, unnamed bare repository,
transport but https/ssh/file, system config, replace ref, nor the caller's repository. A
failure is a `GitSourceError` of git's own line; a user's text is checked before git sees it."""

from __future__ import annotations

import functools
import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

from ..storage.errors import RegisterError
from ..storage.settings import inherited

GIT = "git"

HARDENED = (
    "--no-pager",
    *("-c", f"core.hooksPath={os.devnull}"),  # no hook, whatever hooks/ holds
    *("-c", "core.fsmonitor=false"),  # a config's fsmonitor is a command git would run
    *("-c", "safe.bareRepository=explicit"),  # a bare repository only when named
    *("-c", "log.showSignature=false"),  # else `git log` runs a config's gpg.program
)  # before any command's own options: the command line outranks every config file

_SAFE = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_NO_REPLACE_OBJECTS": "1",  # a planted refs/replace/ must not change what is read
    "GIT_ALLOW_PROTOCOL": "https:ssh:file",  # what sources.yaml may name (checking.safety)
    "GIT_TERMINAL_PROMPT": "0",  # no prompt that would hang CI
    "LANGUAGE": "C",  # git's messages untranslated, so that `reason` finds its
    "LC_ALL": "C",  # `fatal:` and `error:` lines
}  # in every git's environment, over the caller's

FULL_SHA = re.compile(r"[0-9a-f]{40}")
_ALIAS = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")  # a folder's name: bounded
# A branch or tag name as `bump` fetches it: no refspec syntax (':', '+', '*', '^'), no option.
_REF = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)*")

Target = int | IO[bytes] | None  # a started git's stream: PIPE, DEVNULL, a file, inherited


class GitSourceError(RegisterError):
    """One-line, user-facing message (no traceback ever reaches a user)."""


class DamagedRepository(GitSourceError):
    """git holds an object it cannot unpack: the repository (a cache, say) is damaged."""


@functools.cache
def _callers_repository() -> frozenset[str]:
    """What `git rev-parse --local-env-vars` names: a repository, index or config of the
    caller's (a git hook's GIT_DIR), never the one read here."""
    env = {"PATH": inherited().get("PATH", os.defpath), **_SAFE}
    asked = [GIT, "rev-parse", "--local-env-vars"]  # read in no repository: from /
    out = subprocess.run(asked, cwd=os.sep, env=env, capture_output=True, check=False)
    if out.returncode != 0:
        raise GitSourceError(reason(out.stderr))
    return frozenset(out.stdout.decode().split())


def environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment without the caller's repository, `extra` over it, and
    the hardening (`_SAFE`) over all."""
    unsafe = _callers_repository()
    env = {key: value for key, value in inherited().items() if key not in unsafe}
    return {**env, **(extra or {}), **_SAFE}


def command(args: Sequence[str], git_dir: Path | str | None = None) -> list[str]:
    where = ["--git-dir", os.path.abspath(git_dir)] if git_dir is not None else []
    return [GIT, *HARDENED, *where, *args]


def run(
    args: Sequence[str],
    *,
    git_dir: Path | str | None = None,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
) -> bytes:
    """The standard output of `git ARGS` (in the repository `git_dir`, run in `cwd`, with
    `env` added); a `GitSourceError` of git's reason when it cannot start or fails."""
    try:
        done = subprocess.run(
            command(args, git_dir),
            cwd=cwd,
            env=environment(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
    except OSError as exc:
        raise GitSourceError(f"cannot run git: {exc.strerror or exc}") from exc
    if done.returncode != 0:
        raise GitSourceError(reason(done.stderr))
    return done.stdout


def start(
    args: Sequence[str],
    *,
    stdin: Target = subprocess.DEVNULL,
    stdout: Target = subprocess.DEVNULL,
    stderr: Target = subprocess.DEVNULL,
    git_dir: Path | str | None = None,
) -> subprocess.Popen[bytes]:
    """`git ARGS` started with these streams, for a caller that talks to it as it runs."""
    try:
        return subprocess.Popen(
            command(args, git_dir), stdin=stdin, stdout=stdout, stderr=stderr, env=environment()
        )
    except OSError as exc:
        raise GitSourceError(f"cannot run git: {exc.strerror or exc}") from exc


def reason(stderr: bytes) -> str:
    """git's first `fatal:` or `error:` line, else its first line, else `no reason`."""
    lines = [line.strip() for line in text(stderr).splitlines() if line.strip()]
    said = next((line for line in lines if line.startswith(("fatal:", "error:"))), None)
    return said or (lines[0] if lines else "no reason")


def text(out: bytes) -> str:
    """git's output as UTF-8 text, anything else replaced (a path in another encoding must
    not stop a run)."""
    return out.decode("utf-8", errors="replace")


def require(problem: str | None) -> None:
    """Raise the problem a `check_` found, if any."""
    if problem is not None:
        raise GitSourceError(problem)


def require_sha(sha: str) -> None:
    """Refuse anything but a full lowercase sha (so git never reads it as an option)."""
    if not FULL_SHA.fullmatch(sha):
        raise GitSourceError(f"{sha!r} is not a full lowercase commit sha")


def check_rev(rev: str) -> str | None:
    """Error unless `rev` fits on one line of `cat-file --batch`'s input."""
    if not rev or len(rev) > 256 or any(c in rev for c in "\n\r\0"):
        return f"revision {rev!r} is empty, too long, or holds a newline or NUL"
    return None


def check_ref(ref: str) -> str | None:
    """Error unless `ref` is HEAD or a plain branch or tag name (it goes into a refspec)."""
    if _REF.fullmatch(ref) and ".." not in ref and not ref.endswith((".lock", "/", ".")):
        return None
    return f"{ref!r} is not a branch or tag name"


def check_alias(alias: str) -> str | None:
    """Error unless `alias` is a plain name, fit to name a folder of the cache."""
    return None if _ALIAS.fullmatch(alias) else f"source alias {alias!r} is not a plain name"

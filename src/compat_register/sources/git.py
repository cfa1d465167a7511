"""The one git runner: every git process the tool starts, starts here, hardened.

`run` returns a command's output, `start` a process read as it runs; a git that cannot
start or fails is a `GitSourceError` holding git's own line. What a user wrote never goes
where git reads options. Hardened because a repository read here may be a pull request's:
no hook, fsmonitor, pager, signature program, unnamed bare repository, transport but
https/ssh/file, system config, replace ref, or repository of the caller's environment.
"""

from __future__ import annotations

import os
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
)
"""git's options before any command's own: the command line outranks every config file."""

_SAFE = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_NO_REPLACE_OBJECTS": "1",  # a planted refs/replace/ must not change what is read
    "GIT_ALLOW_PROTOCOL": "https:ssh:file",  # what sources.yaml may name (checking.safety)
    "GIT_TERMINAL_PROMPT": "0",  # no prompt that would hang CI
    "LANGUAGE": "C",  # git's messages untranslated, so that `reason` finds its
    "LC_ALL": "C",  # `fatal:` and `error:` lines
}
"""Set in every git's environment, over the caller's and the runner's callers'."""

CALLERS_REPOSITORY = frozenset(
    [
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_CONFIG",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_OBJECT_DIRECTORY",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_IMPLICIT_WORK_TREE",
        "GIT_GRAFT_FILE",
        "GIT_INDEX_FILE",
        "GIT_NO_REPLACE_OBJECTS",
        "GIT_REPLACE_REF_BASE",
        "GIT_PREFIX",
        "GIT_INTERNAL_SUPER_PREFIX",
        "GIT_SHALLOW_FILE",
        "GIT_COMMON_DIR",
    ]
)
"""What `git rev-parse --local-env-vars` names: a repository, index or config of the
caller's (a git hook's GIT_DIR and GIT_INDEX_FILE, say), never the one read here."""

Target = int | IO[bytes] | None
"""Where a started git's stream goes: `subprocess.PIPE`, `DEVNULL`, a file, or inherited."""


class GitSourceError(RegisterError):
    """One-line, user-facing message (no traceback ever reaches a user)."""


class DamagedRepository(GitSourceError):
    """git holds an object it cannot unpack: the repository (a cache, say) is damaged."""


def environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment git runs in: this process's without the caller's repository
    (`CALLERS_REPOSITORY`), `extra` over it, and the hardening (`_SAFE`) over all."""
    env = {key: value for key, value in inherited().items() if key not in CALLERS_REPOSITORY}
    return {**env, **(extra or {}), **_SAFE}


def command(args: Sequence[str], git_dir: Path | str | None = None) -> list[str]:
    """The command line of `git ARGS`, in the repository at `git_dir` when one is named."""
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
    `env` added to its environment); a `GitSourceError` holding git's reason when git
    cannot start or fails."""
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


def succeeds(args: Sequence[str], *, git_dir: Path | str | None = None) -> bool:
    """Whether `git ARGS` runs and exits 0 (its output is not wanted)."""
    try:
        run(args, git_dir=git_dir)
    except GitSourceError:
        return False
    return True


def start(
    args: Sequence[str],
    *,
    stdin: Target = subprocess.DEVNULL,
    stdout: Target = subprocess.DEVNULL,
    stderr: Target = subprocess.DEVNULL,
    git_dir: Path | str | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """`git ARGS` (in the repository `git_dir`) started with these streams, for a caller
    that talks to it as it runs; a `GitSourceError` when git cannot start."""
    try:
        return subprocess.Popen(
            command(args, git_dir),
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            env=environment(env),
        )
    except OSError as exc:
        raise GitSourceError(f"cannot run git: {exc.strerror or exc}") from exc


def reason(stderr: bytes | str) -> str:
    """The line of git's error output worth showing: its first `fatal:` or `error:` line,
    else its first line, else `no reason`."""
    text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    said = next((line for line in lines if line.startswith(("fatal:", "error:"))), None)
    return said or (lines[0] if lines else "no reason")


def text(out: bytes) -> str:
    """git's output as text: UTF-8, with anything else replaced (a path or a line of a file
    in another encoding must not stop a run)."""
    return out.decode("utf-8", errors="replace")

"""The one git runner: every git process compat-register starts, starts here.

One way to start git (`run` for a command's output, `start` for a process read as it runs:
`cat-file --batch`, `fetch`), one environment (`environment`), and one error mapping: a
git that cannot be started or exits non-zero becomes a `GitSourceError` holding one line,
git's own `fatal:` or `error:` line when it printed one (`reason`). Callers add what they
were doing ("git diff failed in ROOT: ...").

Callers hand git options and full shas they checked; whatever a user wrote goes after
`--`, on git's standard input, or into a config value, never where git reads options. The
repository is named by `git_dir`, which the runner hands git as an absolute path: a relative
one would be read from `cwd`, not from where the caller meant it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO

from ..storage.errors import RegisterError

GIT = "git"

_C_LOCALE = {"LANGUAGE": "C", "LC_ALL": "C"}
"""git's messages untranslated, so that `reason` finds its `fatal:` and `error:` lines."""

Target = int | IO[bytes] | None
"""Where a started git's stream goes: `subprocess.PIPE`, `DEVNULL`, a file, or inherited."""


class GitSourceError(RegisterError):
    """One-line, user-facing message (no traceback ever reaches a user)."""


class DamagedRepository(GitSourceError):
    """git holds an object it cannot unpack: the repository (a cache, say) is damaged."""


def environment(
    extra: Mapping[str, str] | None = None, without: Sequence[str] = ()
) -> dict[str, str]:
    """The environment git runs in: this process's, git's messages in English, `extra`
    over it, and none of the variables named in `without`."""
    env = {key: value for key, value in os.environ.items() if key not in without}
    env.update(_C_LOCALE)
    env.update(extra or {})
    return env


def command(args: Sequence[str], git_dir: Path | str | None = None) -> list[str]:
    """The command line of `git ARGS`, in the repository at `git_dir` when one is named."""
    where = ["--git-dir", os.path.abspath(git_dir)] if git_dir is not None else []
    return [GIT, *where, *args]


def run(
    args: Sequence[str],
    *,
    git_dir: Path | str | None = None,
    cwd: Path | str | None = None,
    env: Mapping[str, str] | None = None,
) -> bytes:
    """The standard output of `git ARGS` (in the repository `git_dir`, run in `cwd`); a
    `GitSourceError` holding git's reason when git cannot start or fails."""
    try:
        done = subprocess.run(
            command(args, git_dir),
            cwd=cwd,
            env=environment() if env is None else env,
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
            env=environment() if env is None else env,
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

"""Build real git repositories in temporary directories, for tests.

    repo = GitRepo(tmp_path / "src")
    repo.write("docs/a.md", "one\ntwo\n")
    first = repo.commit("add a")

Commits are deterministic: fixed names and dates (each commit one second after the previous),
and no system or global git config is read.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

EPOCH = 1_700_000_000


def git_env() -> dict[str, str]:
    """The environment for a deterministic git: no user or system config."""
    env = dict(os.environ)
    for name in list(env):
        if name.startswith("GIT_"):
            del env[name]
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C")
    return env


class GitRepo:
    """A non-bare git repository at `root` (created if missing) on branch `main`."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.ticks = 0
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "--quiet", "--initial-branch=main")
        # the tool's own folder stays out of commits, as a project's .gitignore keeps it
        # (`register init` writes one): a commit of it is what a stranger's would be
        (root / ".git" / "info" / "exclude").write_text(".register/\n", "utf-8")

    @property
    def url(self) -> str:
        """A `file://` URL of the repository."""
        return self.root.as_uri()

    def git(self, *args: str, env: dict[str, str] | None = None, input: str | None = None) -> str:
        """Run git in the repository and return its stdout without the final newline."""
        done = subprocess.run(
            ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *args],
            cwd=self.root,
            env={**git_env(), **(env or {})},
            input=input,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.removesuffix("\n")

    def write(self, path: str, text: str | bytes) -> None:
        """Write a file of the work tree (parents created); it is staged by `commit`."""
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_bytes(text.encode("utf-8"))  # no newline translation

    def rm(self, path: str) -> None:
        """Remove a file from the work tree and the index."""
        self.git("rm", "--quiet", "--", path)

    def mv(self, old: str, new: str) -> None:
        """Rename a file (parents of `new` created)."""
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", "--", old, new)

    def commit(self, message: str = "change") -> str:
        """Commit everything in the work tree; return the new commit's full sha."""
        self.ticks += 1
        date = f"{EPOCH + self.ticks} +0000"
        self.git("add", "--all")
        env = {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
        self.git("commit", "--quiet", "--allow-empty", "-m", message, env=env)
        return self.git("rev-parse", "HEAD")

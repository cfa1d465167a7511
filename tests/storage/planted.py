"""A register project in a real git repository, and what a stranger's pull request can
plant in it: files committed under `.register/`, links, a journal, FIFOs. The commands run
as a user types them, from the project's folder, in a process of their own."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

from commands import command
from gitrepo import GitRepo

CASES = Path(__file__).parent.parent / "cases"


def make_project(root: Path) -> GitRepo:
    """`root/project`: tests/cases/base as its registers folder, committed (`.register/`
    excluded, as its .gitignore would); and `root/outside`, a folder beside it holding
    `victim`, which nothing the project holds may reach."""
    repo = GitRepo(root / "project")
    shutil.copytree(CASES / "base", repo.root / "registers")
    repo.commit("registers")
    (root / "outside").mkdir()
    (root / "outside" / "victim").write_text("keep me\n", "utf-8")
    return repo


def register(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`register ARGS` run in `root` (the project's folder: no --registers)."""
    return subprocess.run(
        command(*args), cwd=root, capture_output=True, text=True, check=False, timeout=120
    )


def snapshot(folder: Path) -> dict[str, object]:
    """Every entry under `folder` (links as their target, FIFOs as such), `.git` left out."""
    found: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        if ".git" in path.relative_to(folder).parts[:1]:
            continue
        name = str(path.relative_to(folder))
        if path.is_symlink():
            found[name] = ("link", os.readlink(path))
        elif path.is_fifo():
            found[name] = "fifo"
        elif path.is_file():
            found[name] = path.read_bytes()
        else:
            found[name] = "folder"
    return found


def plant(repo: GitRepo, path: str, data: str | bytes | None = None, link: str = "") -> None:
    """Commit a file (or a link to `link`) at `path` the way a pull request would: past
    the project's ignore rules (`git add -f`)."""
    target = repo.root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    if link:
        target.symlink_to(link)
    else:
        repo.write(path, data or "")
    repo.git("add", "-f", "--", path)
    repo.git("commit", "--quiet", "-m", f"plant {path}")


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def journal(state: str, *files: dict[str, object]) -> str:
    """A journal of this version's format."""
    return json.dumps({"version": 2, "state": state, "files": list(files)})


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The one `Error:` line a refusal prints (no traceback, no internal error)."""
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("Error: "), line
    return line

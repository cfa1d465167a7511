"""A project as a new user makes it: `register init p`, its one source's `repo:` a local
bare repository with real history standing in for the public one, and the installed
`register` run in it as a subprocess with relative paths (`Project.register`)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import builder
from gitrepo import GitRepo, git_env

REGISTER = str(Path(sys.executable).parent / "register")
"""The console script this environment installed."""
HANG = 120
"""Seconds after which a command counts as hung: a generous bound (a run here takes a
second or two, a loaded machine makes that a few), not a measure of speed (bench/)."""
INIT_REPO = "https://github.com/modelcontextprotocol/modelcontextprotocol"
SCHEMA = "schema/2024-11-05/schema.ts"


def schema(tail: str = "") -> str:
    """A schema.ts holding the lines `register init`'s example register cites."""
    lines = [f"// line {n}" for n in range(1, 50)]
    lines[20] = "  _meta?: {"
    lines[24] = "    progressToken?: ProgressToken;"
    lines[36] = "  _meta?: { [key: string]: unknown };"
    lines[41] = "export interface Result {"
    return "\n".join(lines) + "\n" + tail


@dataclass
class Project:
    root: Path
    upstream: GitRepo
    bare: Path
    """The source's `repo:`, a bare clone of `upstream`."""
    early: str
    """A commit before the pin (what a stranger's planted cache holds)."""
    pinned: str
    tip: str

    def register(self, *args: str) -> subprocess.CompletedProcess[str]:
        """The installed `register ARGS`, run from the project's root."""
        command = [REGISTER, *args]
        env = git_env()
        return subprocess.run(
            command, cwd=self.root, env=env, capture_output=True, text=True, timeout=HANG
        )

    def absolute(self, *args: str) -> subprocess.CompletedProcess[str]:
        """`register ARGS --registers ABSOLUTE-PATH`, which ran on every version."""
        return self.register(*args, "--registers", str(self.root / "registers"))

    @property
    def sources(self) -> Path:
        return self.root / "registers" / "sources.yaml"

    @property
    def cached(self) -> Path:
        """The cached repository of the source `spec`."""
        return self.root / ".register" / "cache" / "spec.git"


def new_project(tmp_path: Path) -> Project:
    """`register init p` in `tmp_path`, pinned to the second of three upstream commits."""
    upstream, early = builder.source(tmp_path / "upstream", {"README": "early\n"}, "early")
    upstream.write(SCHEMA, schema())
    pinned = upstream.commit("pinned")
    upstream.write(SCHEMA, schema("// appended\n"))
    tip = upstream.commit("tip")
    bare = tmp_path / "upstream.git"
    upstream.git("clone", "--quiet", "--bare", str(upstream.root), str(bare))
    init = [REGISTER, "init", "p"]
    subprocess.run(init, cwd=tmp_path, env=git_env(), capture_output=True, check=True)
    project = Project(tmp_path / "p", upstream, bare, early, pinned, tip)
    written = project.sources.read_text(encoding="utf-8").split("commit: ", 1)[1].split()[0]
    builder.edit_sources(project.sources.parent, INIT_REPO, str(bare))
    builder.edit_sources(project.sources.parent, written, pinned)
    return project

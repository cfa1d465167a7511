"""A new project's first steps, as a user types them: `register init p`, then `cd p` and the
installed `register` with no `--registers` (every path relative). The source's `repo:` is a
local bare repository standing in for the public one (issue 34, item 1: git was handed a
relative `--git-dir` together with `cwd=` that same folder, and found neither)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gitrepo import GitRepo, git_env

REGISTER = str(Path(sys.executable).parent / "register")
INIT_REPO = "https://github.com/modelcontextprotocol/modelcontextprotocol"


def schema(tail: str = "") -> str:
    """A schema.ts holding the lines `register init`'s example register cites."""
    lines = [f"// line {n}" for n in range(1, 50)]
    lines[20] = "  _meta?: {"
    lines[24] = "    progressToken?: ProgressToken;"
    lines[36] = "  _meta?: { [key: string]: unknown };"
    lines[41] = "export interface Result {"
    return "\n".join(lines) + "\n" + tail


def register(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [REGISTER, *args], cwd=project, env=git_env(), capture_output=True, text=True, check=False
    )


def test_sync_verify_and_bump_from_a_new_projects_root(tmp_path: Path) -> None:
    upstream = GitRepo(tmp_path / "upstream")
    upstream.write("schema/2024-11-05/schema.ts", schema())
    pinned = upstream.commit("first")
    upstream.write("schema/2024-11-05/schema.ts", schema("// appended\n"))
    tip = upstream.commit("second")
    bare = tmp_path / "upstream.git"
    upstream.git("clone", "--quiet", "--bare", str(upstream.root), str(bare))

    assert register(tmp_path, "init", "p").returncode == 0
    project = tmp_path / "p"
    sources = project / "registers" / "sources.yaml"
    text = sources.read_text(encoding="utf-8")
    written = text.split("commit: ", 1)[1].split()[0]
    sources.write_text(
        text.replace(INIT_REPO, str(bare)).replace(written, pinned), encoding="utf-8"
    )

    for command in (["check"], ["sync"], ["verify"], ["bump", "spec"], ["verify"]):
        done = register(project, *command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert f"commit: {tip}" in sources.read_text(encoding="utf-8")
    assert (project / ".register" / "cache" / "spec.git" / "HEAD").is_file()

"""A new project's first steps, as a user types them: `register init p`, then `cd p` and the
installed `register` with no `--registers` (every path relative). Issue 34, item 1: git was
handed a relative `--git-dir` together with `cwd=` that same folder, and found neither."""

from __future__ import annotations

from pathlib import Path

from initproject import new_project


def test_sync_verify_and_bump_from_a_new_projects_root(tmp_path: Path) -> None:
    project = new_project(tmp_path)
    for command in (["check"], ["sync"], ["verify"], ["bump", "spec"], ["verify"]):
        done = project.register(*command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert f"commit: {project.tip}" in project.sources.read_text(encoding="utf-8")
    assert (project.cached / "HEAD").is_file()

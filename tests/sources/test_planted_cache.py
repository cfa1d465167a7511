"""A cache a stranger committed: `.register/cache/spec.git` as a pull request brings it, a
real bare repository holding real commits of the source, with hooks and config that run a
command, a replace ref that swaps a file's text, or a link to a repository elsewhere. The
installed `register` runs sync, verify and bump on it (an absolute `--registers`, as every
version took it): no hook or command ever runs, nothing
outside the project is touched, and every result is the one a clean cache gives (issue 35)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from initproject import SCHEMA, Project, new_project

from gitrepo import git_env

HOOKS = ("reference-transaction", "post-checkout", "post-merge", "pre-auto-gc", "post-update")


def git(*args: str, input: str | None = None) -> str:
    done = subprocess.run(
        ["git", *args], env=git_env(), input=input, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def command(path: Path, marker: Path) -> Path:
    """An executable at `path` that notes its own name in `marker` when run."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\necho "$0" >> "{marker}"\n', encoding="utf-8")
    path.chmod(0o755)
    return path


def plant(project: Project, commit: str) -> Path:
    """A bare repository at the cache's place, as a stranger makes and commits it: `git
    init --bare` (its templates and all) holding `commit` fetched from the source."""
    repo = project.cached
    git("init", "--quiet", "--bare", str(repo))
    git("--git-dir", str(repo), "fetch", "--quiet", str(project.bare), f"{commit}:refs/heads/main")
    return repo


def with_hooks(repo: Path, marker: Path) -> None:
    for name in HOOKS:
        command(repo / "hooks" / name, marker)


def with_hooks_path(repo: Path, marker: Path) -> None:
    for name in HOOKS:
        command(repo / "tools" / name, marker)
    git("--git-dir", str(repo), "config", "core.hooksPath", str(repo / "tools"))


def with_commands_in_config(repo: Path, marker: Path) -> None:
    run = str(command(repo / "tools" / "run", marker))
    for key in ("core.fsmonitor", "core.sshCommand", "core.askPass", "credential.helper"):
        git("--git-dir", str(repo), "config", key, run)
    git("--git-dir", str(repo), "config", "core.pager", run)


PLANTED = {"hooks": with_hooks, "hooksPath": with_hooks_path, "config": with_commands_in_config}


def clean_config(repo: Path) -> list[str]:
    return git("config", "--file", str(repo / "config"), "--list", "--name-only").split()


@pytest.mark.parametrize("planted", PLANTED)
def test_sync_and_bump_run_nothing_a_planted_cache_brings(tmp_path: Path, planted: str) -> None:
    project = new_project(tmp_path)
    marker = tmp_path / "ran"
    PLANTED[planted](plant(project, project.early), marker)

    synced = project.absolute("sync")
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert synced.returncode == 0, synced.stdout + synced.stderr
    assert f"spec: {project.pinned}" in synced.stdout
    assert "info: spec: " in synced.stdout and "removed and fetched anew" in synced.stdout
    assert sorted(clean_config(project.cached)) == sorted(
        ["core.repositoryformatversion", "core.filemode", "core.bare", "remote.origin.url"]
    )
    assert not (project.cached / "hooks").exists()
    verified = project.absolute("verify")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "4 ok," in verified.stdout

    PLANTED[planted](project.cached, marker)  # planted again, after the tool's own sync
    bumped = project.absolute("bump", "spec")
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert bumped.returncode == 0, bumped.stdout + bumped.stderr
    assert f"commit: {project.tip}" in project.sources.read_text(encoding="utf-8")


def test_verify_refuses_a_planted_cache_and_names_why(tmp_path: Path) -> None:
    project = new_project(tmp_path)
    marker = tmp_path / "ran"
    with_hooks(plant(project, project.pinned), marker)
    verified = project.absolute("verify")
    assert verified.returncode == 1
    assert f"{project.cached} holds branches, description, hooks, info, which " in (verified.stdout)
    assert "run register sync spec" in verified.stdout
    assert (project.cached / "hooks" / "reference-transaction").exists()  # read-only: kept
    assert not marker.exists()


def test_a_planted_replace_ref_changes_no_text_verify_reads(tmp_path: Path) -> None:
    """A replace ref in the cache would make git hand over other bytes for a blob: a
    citation of a line the source never held would verify."""
    project = new_project(tmp_path)
    synced = project.absolute("sync")
    assert synced.returncode == 0, synced.stdout + synced.stderr
    register = project.root / "registers" / "example.yaml"
    text = register.read_text(encoding="utf-8")
    register.write_text(text.replace("ProgressToken;”", "FakeToken;”"), encoding="utf-8")
    repo = str(project.cached)
    real = git("--git-dir", repo, "rev-parse", f"{project.pinned}:{SCHEMA}")
    fake_text = project.upstream.git("show", f"{project.pinned}:{SCHEMA}").replace(
        "ProgressToken;", "FakeToken;"
    )
    fake = git("--git-dir", repo, "hash-object", "-w", "--stdin", input=fake_text + "\n")
    git("--git-dir", repo, "replace", real, fake)

    verified = project.absolute("verify")
    assert verified.returncode == 1, verified.stdout
    assert "1 broken," in verified.stdout


def test_a_cache_linked_elsewhere_is_refused_never_followed(tmp_path: Path) -> None:
    project = new_project(tmp_path)
    victim = tmp_path / "elsewhere" / "victim.git"
    git("init", "--quiet", "--bare", str(victim))
    git("--git-dir", str(victim), "fetch", "--quiet", str(project.bare), f"{project.early}:refs/x")
    git("--git-dir", str(victim), "config", "remote.origin.url", "https://example.org/victim")
    before = sorted(str(p.relative_to(victim)) for p in victim.rglob("*"))
    project.cached.parent.mkdir(parents=True)
    project.cached.symlink_to(victim)

    for command in ("sync", "verify", "bump"):
        args = (command, "spec", project.tip) if command == "bump" else (command,)
        refused = project.absolute(*args)
        assert refused.returncode == 1, refused.stdout + refused.stderr
        said = refused.stdout + refused.stderr
        assert str(project.cached) in said and f"a symbolic link (to {str(victim)!r})" in said
    assert git("--git-dir", str(victim), "config", "remote.origin.url") == (
        "https://example.org/victim"
    )
    assert sorted(str(p.relative_to(victim)) for p in victim.rglob("*")) == before
    project.cached.unlink()  # what the one line asks of the user
    assert project.absolute("sync").returncode == 0
    assert not project.cached.is_symlink() and (project.cached / "HEAD").is_file()
    assert project.absolute("verify").returncode == 0


def test_links_beside_the_cache_lead_nowhere(tmp_path: Path) -> None:
    """The lock beside a cached repository and a half-made one left by a killed sync,
    committed as links to places outside the project: neither is followed."""
    project = new_project(tmp_path)
    outside = tmp_path / "outside"
    (outside / "kept").mkdir(parents=True)
    (outside / "kept" / "file").write_text("kept\n", encoding="utf-8")
    cache = project.cached.parent
    cache.mkdir(parents=True)
    (cache / "spec.lock").symlink_to(outside / "made-by-the-lock")
    (cache / "spec.git.tmp-1").symlink_to(outside / "kept")

    synced = project.absolute("sync")
    assert not (outside / "made-by-the-lock").exists()
    assert (outside / "kept" / "file").read_text(encoding="utf-8") == "kept\n"
    assert synced.returncode == 1, synced.stdout + synced.stderr
    assert "a symbolic link (to " in synced.stdout + synced.stderr
    for link in ("spec.lock", "spec.git.tmp-1"):
        (cache / link).unlink()  # what the one line asks of the user
    assert project.absolute("sync").returncode == 0

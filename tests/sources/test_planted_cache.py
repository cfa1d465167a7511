"""A cache a stranger committed: `.register/cache/spec.git` as a pull request brings it, a
real bare repository holding real commits of the source, with hooks and config that run a
command, a replace ref that swaps a file's text, or a link to a repository elsewhere. The
installed `register` runs sync, verify and bump on it (an absolute `--registers`, as every
version took it): no hook or command ever runs, nothing
outside the project is touched, and every result is the one a clean cache gives (issue 35)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from initproject import SCHEMA, Project, new_project

from compat_register.sources.sourcecache import SourceCache
from gitrepo import GitRepo, git_env

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


def victim_of(tmp_path: Path, project: Project) -> tuple[Path, list[str]]:
    """A bare repository outside the project, lacking the pin (a sync would fetch into it),
    and what it holds."""
    victim = tmp_path / "elsewhere" / "victim.git"
    git("init", "--quiet", "--bare", str(victim))
    git("--git-dir", str(victim), "fetch", "--quiet", str(project.bare), f"{project.early}:refs/x")
    git("--git-dir", str(victim), "config", "remote.origin.url", "https://example.org/victim")
    return victim, sorted(str(p.relative_to(victim)) for p in victim.rglob("*"))


def untouched(victim: Path, before: list[str]) -> bool:
    url = git("--git-dir", str(victim), "config", "remote.origin.url")
    after = sorted(str(p.relative_to(victim)) for p in victim.rglob("*"))
    return url == "https://example.org/victim" and after == before


def test_a_cache_linked_elsewhere_is_never_followed(tmp_path: Path) -> None:
    """Through the commands: whatever refuses the link first (this check, or the storage
    stage's refusal of a link anywhere in `.register/`), nothing outside is touched, and
    verify reads nothing through it."""
    project = new_project(tmp_path)
    victim, before = victim_of(tmp_path, project)
    project.cached.parent.mkdir(parents=True)
    project.cached.symlink_to(victim)

    verified = project.absolute("verify")
    assert verified.returncode == 1
    assert f"{project.cached}" in verified.stdout
    assert f"a symbolic link (to {str(victim)!r})" in verified.stdout
    assert " 4 unverified," in verified.stdout
    for command in (["sync"], ["bump", "spec"]):
        done = project.absolute(*command)
        assert untouched(victim, before), command
        assert "Traceback" not in done.stderr, done.stderr


def test_sync_unlinks_a_linked_cache_and_fetches_anew(tmp_path: Path) -> None:
    project = new_project(tmp_path)
    victim, before = victim_of(tmp_path, project)
    cache = SourceCache(tmp_path / "cache")
    cache.root.mkdir()
    cache.repo_dir("spec").symlink_to(victim)
    assert cache.sync("spec", str(project.bare), project.pinned) == project.pinned
    assert untouched(victim, before)
    assert cache.rebuilt["spec"] == (
        f"{cache.repo_dir('spec')} is a symbolic link (to {str(victim)!r})"
    )
    assert not cache.repo_dir("spec").is_symlink()
    assert cache.foreign("spec") is None


def test_links_beside_the_cache_lead_nowhere(tmp_path: Path) -> None:
    """The lock beside a cached repository and a half-made one left by a killed sync,
    planted as links to places outside: neither is followed."""
    project = new_project(tmp_path)
    outside = tmp_path / "outside"
    (outside / "kept").mkdir(parents=True)
    (outside / "kept" / "file").write_text("kept\n", encoding="utf-8")
    cache = SourceCache(tmp_path / "cache")
    cache.root.mkdir()
    (cache.root / "spec.lock").symlink_to(outside / "made-by-the-lock")
    (cache.root / "spec.git.tmp-1").symlink_to(outside / "kept")

    assert cache.sync("spec", str(project.bare), project.pinned) == project.pinned
    assert not (outside / "made-by-the-lock").exists()
    assert (outside / "kept" / "file").read_text(encoding="utf-8") == "kept\n"
    assert not (cache.root / "spec.lock").is_symlink()
    assert not os.path.lexists(cache.root / "spec.git.tmp-1")


def test_a_register_folder_posing_as_a_bare_repository_is_still_seen_tracked(
    tmp_path: Path,
) -> None:
    """A commit that puts `HEAD`, `objects/` and `refs/` into `.register/` beside a planted
    history cache: git, asked from inside, would take the folder for a bare repository
    tracking nothing, and the cache would be read."""
    project = new_project(tmp_path)
    repo = GitRepo(project.root)
    repo.write(".register/HEAD", "ref: refs/heads/main\n")
    repo.write(".register/objects/k", "")
    repo.write(".register/refs/k", "")
    repo.write(".register/cache/history.json", "{}\n")
    repo.git("add", "--all", "--force")
    repo.commit("planted")
    checked = project.register("check")
    assert "tracked by git" in checked.stdout, checked.stdout


def test_a_project_root_posing_as_a_bare_repository_is_not_trusted(tmp_path: Path) -> None:
    """The project in a folder of a larger repository, a commit putting `HEAD`, `objects/`
    and `refs/` at the project's root beside a planted history cache: git, asked there,
    refuses the bare repository it finds (`safe.bareRepository`), so it cannot say what
    is tracked, and `.register/` is not used."""
    project = new_project(tmp_path)
    repo = GitRepo(tmp_path)
    for name in ("HEAD", "objects/k", "refs/k"):
        repo.write(f"p/{name}", "ref: refs/heads/main\n" if name == "HEAD" else "")
    repo.write("p/.register/cache/history.json", "{}\n")
    repo.git("add", "--all", "--force")
    repo.commit("planted")
    checked = project.register("check")
    assert "git cannot say what it tracks here" in checked.stdout, checked.stdout
    assert "Traceback" not in checked.stderr


def _alternates(repo: Path, elsewhere: Path) -> Callable[[], bool]:
    (repo / "objects" / "info" / "alternates").write_text(f"{elsewhere}/objects\n")
    return lambda: os.path.lexists(repo / "objects" / "info" / "alternates")


def _include(repo: Path, elsewhere: Path) -> Callable[[], bool]:
    git("--git-dir", str(repo), "config", "include.path", str(elsewhere / "config"))
    return lambda: "include" in (repo / "config").read_text()


def _linked_ref(repo: Path, elsewhere: Path) -> Callable[[], bool]:
    (repo / "refs" / "heads" / "linked").symlink_to(elsewhere / "HEAD")
    return lambda: os.path.lexists(repo / "refs" / "heads" / "linked")


def _a_file(repo: Path, elsewhere: Path) -> Callable[[], bool]:
    shutil.rmtree(repo)
    repo.write_text("not a repository\n")
    return lambda: repo.is_file()


PLANTED_SHAPES = {
    "alternates": (_alternates, "holds objects/info/alternates, which register sync never writes"),
    "include.path": (_include, "sets include.path in its config, which register sync never writes"),
    "a linked ref": (_linked_ref, "holds refs/heads/linked, a symbolic link or special file"),
    "a file": (_a_file, "is not a folder"),
}


@pytest.mark.parametrize("shape", PLANTED_SHAPES)
def test_a_cache_not_as_sync_makes_it_is_fetched_anew(tmp_path: Path, shape: str) -> None:
    project = new_project(tmp_path)
    cache = SourceCache(tmp_path / "cache")
    elsewhere, _ = victim_of(tmp_path, project)
    assert cache.sync("spec", str(project.bare), project.early) == project.early
    plant_in, why = PLANTED_SHAPES[shape]
    still_planted = plant_in(cache.repo_dir("spec"), elsewhere)

    assert cache.sync("spec", str(project.bare), project.pinned) == project.pinned
    assert not still_planted()
    assert cache.rebuilt["spec"] == f"{cache.repo_dir('spec')} {why}"
    assert cache.foreign("spec") is None


def test_a_fifo_in_a_cached_repository_stalls_nothing(tmp_path: Path) -> None:
    """git opening a FIFO among a repository's refs waits for a writer forever: a bump
    sees it before any git runs, and fetches the repository anew."""
    project = new_project(tmp_path)
    synced = project.absolute("sync")
    assert synced.returncode == 0, synced.stdout + synced.stderr
    os.mkfifo(project.cached / "refs" / "fifo")
    bumped = project.absolute("bump", "spec")
    assert bumped.returncode == 0, bumped.stdout + bumped.stderr
    assert f"commit: {project.tip}" in project.sources.read_text(encoding="utf-8")
    assert not os.path.lexists(project.cached / "refs" / "fifo")


def test_a_linked_cache_folder_is_not_read_through(tmp_path: Path) -> None:
    """`.register/cache` itself a link to a folder elsewhere holding a good synced
    repository: verify, which only reads, says so and reads no source through it."""
    project = new_project(tmp_path)
    assert project.absolute("sync").returncode == 0
    elsewhere = tmp_path / "elsewhere"
    project.cached.parent.rename(elsewhere)
    project.cached.parent.symlink_to(elsewhere)

    verified = project.absolute("verify")
    assert verified.returncode == 1, verified.stdout + verified.stderr
    assert f"a symbolic link (to {str(elsewhere)!r})" in verified.stdout
    assert " 0 ok," in verified.stdout and " 0 unverified," not in verified.stdout

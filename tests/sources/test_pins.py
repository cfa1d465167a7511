"""Clone first, cache second: one sources.yaml verifies offline on a laptop (a local clone
named by `path:` or REGISTER_SOURCE_<ALIAS>) and in CI (the cache `register sync` fills)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import builder
from compat_register.cli import main
from gitrepo import GitRepo
from registerfiles import done_entry, register_head

ENTRY = done_entry("['internal/a.go:2 “func A()”']")


@pytest.fixture
def laptop(tmp_path: Path) -> tuple[Path, GitRepo, str, dict[str, str]]:
    """The upstream repository, a project whose sources.yaml names both `repo:` (upstream)
    and `path: ../clone` (a clone, beside the project, holding the pin), and an environment
    with the cache in the tmp dir."""
    upstream, sha = builder.source(
        tmp_path / "upstream", {"internal/a.go": "package a\nfunc A() {}\n"}, "a"
    )
    shutil.copytree(upstream.root, tmp_path / "project" / "clone")
    sources = (
        "revisions: [r1]\nsources:\n"
        f"  up: {{title: Up, repo: '{upstream.root}', path: ../clone, commit: {sha},"
        " claims: ['internal/**']}\n"
    )
    registers = builder.registers(
        tmp_path / "project" / "registers", sources, {"t.yaml": register_head() + ENTRY}
    )
    return registers, upstream, sha, {"REGISTER_CACHE": str(tmp_path / "cache")}


def run(args: list[str], env: dict[str, str]) -> Result:
    result = CliRunner().invoke(main, args, env=env)
    assert "Traceback" not in result.output
    return result


def test_sync_skips_a_source_whose_clone_holds_the_pin(laptop, tmp_path: Path) -> None:
    registers, upstream, sha, env = laptop
    shutil.rmtree(upstream.root)  # offline: the repo cannot be reached
    synced = run(["sync", "--registers", str(registers)], env)
    assert synced.exit_code == 0, synced.output
    clone = registers / ".." / "clone"
    assert synced.stdout == f"up: {sha} (the checkout at {clone} holds it: nothing fetched)\n"
    assert not (tmp_path / "cache").exists()
    verified = run(["verify", "--registers", str(registers)], env)
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.startswith("1 citation: 1 ok, ")


def test_without_the_clone_the_cache_is_read(laptop) -> None:
    registers, _, sha, env = laptop
    shutil.rmtree(registers.parent / "clone")  # CI: only the project is checked out
    synced = run(["sync", "--registers", str(registers)], env)
    assert (synced.exit_code, synced.stdout) == (0, f"up: {sha}\n"), synced.output
    verified = run(["verify", "--registers", str(registers)], env)
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.startswith("1 citation: 1 ok, ")


def test_a_clone_without_the_pin_falls_back_to_the_cache(laptop) -> None:
    registers, upstream, sha, env = laptop
    shutil.rmtree(registers.parent / "clone")
    assert run(["sync", "--registers", str(registers), "up"], env).exit_code == 0
    stale = GitRepo(registers.parent / "old")  # a clone from before the pinned commit
    stale.write("README", "old\n")
    stale.commit("old")
    env = {**env, "REGISTER_SOURCE_UP": str(stale.root)}
    verified = run(["verify", "--registers", str(registers)], env)
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.startswith("1 citation: 1 ok, ")


def test_the_hint_names_each_place_tried_in_order(laptop) -> None:
    registers, upstream, sha, env = laptop
    old, _ = builder.source(registers.parent / "old", {"README": "old\n"}, "old")
    shutil.rmtree(registers.parent / "clone")
    (registers.parent / "clone").symlink_to(old.root)
    (Path(env["REGISTER_CACHE"]) / "up.git").mkdir(parents=True)  # no repository
    verified = run(["verify", "--registers", str(registers)], env)
    assert verified.exit_code == 1, verified.output
    clone = registers / ".." / "clone"
    cache = Path(env["REGISTER_CACHE"]) / "up.git"
    assert (
        f"path: ../clone: the checkout at {clone} does not hold commit {sha}; "
        f"then the cache: {cache} is not a git repository, so commit {sha} cannot be read"
    ) in verified.stdout
    assert (
        f"cannot be read: fetch it there (git -C {clone} fetch), or set "
        "REGISTER_SOURCE_UP to a clone that holds it, or run register sync up"
    ) in verified.stdout

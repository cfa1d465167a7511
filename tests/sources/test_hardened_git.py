"""The runner's hardening, seen from the caller's side: git takes no repository, index or
config from the environment it was started in (a git hook's GIT_DIR, a system config), and
no hook or configured command of a repository it reads ever runs (issue 35). The planted
cache itself: test_planted_cache.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import builder
from compat_register.sources.checkout import Checkout
from compat_register.sources.diffs import first_parent_steps, range_step, step_hunks
from compat_register.sources.projectrepo import ProjectRepo, repository_of
from compat_register.sources.sourcecache import SourceCache


def test_a_callers_repository_and_index_are_never_the_ones_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`register check` run from another repository's git hook inherits its GIT_DIR,
    GIT_WORK_TREE and GIT_INDEX_FILE: the registers' own repository is still the one read."""
    project, sha = builder.source(tmp_path / "project", {"registers/a.yaml": "a\n"})
    other, _ = builder.source(tmp_path / "other", {"b": "b\n"})
    monkeypatch.setenv("GIT_DIR", str(other.root / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other.root))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other.root / ".git" / "index"))
    assert repository_of(project.root / "registers") == project.root.resolve()
    with ProjectRepo(project.root) as repo:
        assert [c.sha for c in repo.log("registers")] == [sha]


def test_the_system_config_is_never_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A system config that rewrites the source's URL (or names any command) changes nothing."""
    src, sha = builder.source(tmp_path / "src", {"a.md": "a\n"})
    system = tmp_path / "gitconfig"
    system.write_text(f'[url "file:///nowhere/"]\n\tinsteadOf = {src.url}\n', encoding="utf-8")
    monkeypatch.delenv("GIT_CONFIG_NOSYSTEM", raising=False)
    monkeypatch.setenv("GIT_CONFIG_SYSTEM", str(system))
    cache = SourceCache(tmp_path / "cache")
    assert cache.sync("spec", src.url, sha) == sha


def test_no_hook_or_configured_command_of_a_repository_read_runs(tmp_path: Path) -> None:
    """A checkout named by REGISTER_SOURCE_<ALIAS> or `path:` is read, never changed: still
    its hooks, fsmonitor, pager, diff and textconv drivers stay off, and a replace ref
    swaps nothing."""
    src, first = builder.source(tmp_path / "src", {"a.md": "one\n"})
    src.write("a.md", "two\n")
    second = src.commit()
    marker = tmp_path / "ran"
    run = tmp_path / "run"
    run.write_text(f'#!/bin/sh\necho "$0 $*" >> "{marker}"\n', encoding="utf-8")
    run.chmod(0o755)
    fake = src.git("hash-object", "-w", "--stdin", input="fake\n")
    src.git("replace", src.git("rev-parse", f"{second}:a.md"), fake)
    for hook in ("reference-transaction", "post-checkout", "post-index-change"):
        (src.root / ".git" / "hooks" / hook).symlink_to(run)
    for key in ("core.fsmonitor", "core.pager", "diff.external", "diff.x.textconv"):
        src.git("config", key, str(run))
    src.write(".git/info/attributes", "* diff=x\n")
    with Checkout(src.root) as checkout:
        assert checkout.read_text(second, "a.md") == ["two"]
        step = range_step(checkout, first, second)
        assert step.modified == {"a.md"}
        hunks = {second: {"a.md": [(1, 1, 1, 1)]}}
        assert step_hunks(checkout, [step], ["a.md"], commits=False) == hunks
    assert repository_of(src.root) == src.root.resolve()
    with ProjectRepo(src.root) as project:
        assert [c.sha for c in project.log("")] == [second, first]
    assert not marker.exists(), marker.read_text(encoding="utf-8")
    assert "GIT_NO_REPLACE_OBJECTS" not in os.environ  # the runner's, not the test's


FAKE_GPG = """#!/bin/sh
cat > /dev/null
echo "$0 $*" >> "{marker}"
printf '\\n[GNUPG:] SIG_CREATED D 1 8 00 0 X\\n' >&2
printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nx\\n-----END PGP SIGNATURE-----\\n'
"""
"""A gpg that signs anything and notes each run (git takes its status line for success;
it reads what git writes first, or git may meet a closed pipe)."""


def test_a_signed_commit_runs_no_configured_gpg_program(tmp_path: Path) -> None:
    """`log.showSignature` and `gpg.program` in a repository's config would make every
    `git log` of it run that program: the registers' log and a bump's steps read none."""
    marker = tmp_path / "ran"
    gpg = tmp_path / "gpg"
    gpg.write_text(FAKE_GPG.format(marker=marker), encoding="utf-8")
    gpg.chmod(0o755)
    src, first = builder.source(tmp_path / "src", {"a.md": "one\n"})
    src.write("a.md", "two\n")
    src.git("-c", f"gpg.program={gpg}", "commit", "--quiet", "-S", "-am", "signed")
    second = src.git("rev-parse", "HEAD")
    marker.unlink()  # signing ran it; from here nothing may
    src.git("config", "log.showSignature", "true")
    src.git("config", "gpg.program", str(gpg))
    with ProjectRepo(src.root) as project:
        assert [c.sha for c in project.log("")] == [second, first]
    with Checkout(src.root) as checkout:
        assert first_parent_steps(checkout, first, second) is not None
    assert not marker.exists(), marker.read_text(encoding="utf-8")

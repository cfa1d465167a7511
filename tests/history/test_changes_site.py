"""The Changes page through `mkdocs build --strict`: made inside a git repository, turned
off with `history: false`, skipped with an info line outside one; its chart kept whole."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import builder
from compat_register.site.extensions import mkdocs_yaml
from historyrepo import build_history


def config(history: bool = True) -> str:
    plugin = "  - register\n" if history else "  - register: {history: false, verify: false}\n"
    return (
        "site_name: test\nstrict: true\nrepo_url: https://github.com/example/project\n"
        "theme: {name: material}\nplugins:\n  - search\n" + plugin + mkdocs_yaml()
    )


def build(root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(root / "site")],
        cwd=root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_site_of_a_repository_has_a_changes_page(tmp_path: Path) -> None:
    history = build_history(tmp_path)
    root = builder.site(history.project.root, config(), {"index.md": "# Home\n"})
    done = build(root)
    assert done.returncode == 0, done.stderr
    page = (root / "site" / "registers" / "changes" / "index.html").read_text(encoding="utf-8")
    sha = history.commits["state"]
    assert f'id="commit-{sha[:12]}"' in page
    assert f'href="https://github.com/example/project/commit/{sha}"' in page
    # the chart passes the sanitizer whole: its lines, its accessible name
    assert '<svg class="reg-chart" viewBox="0 0 640 180" role="img"' in page
    assert '<title id="chart-t">Test: 0 done, 1 partial, 1 missing on' in page
    assert page.count("<polyline") == 6
    t = (root / "site" / "registers" / "t" / "index.html").read_text(encoding="utf-8")
    assert f'href="../changes/#commit-{sha[:12]}">2023-11-14</a>: missing → partial' in t
    assert 'href="../changes/"' in t  # in the nav
    assert (root / ".register" / "cache" / "history.json").is_file()

    (root / "mkdocs.yml").write_text(config(history=False))
    shutil.rmtree(root / "site")
    done = build(root)
    assert done.returncode == 0, done.stderr
    assert not (root / "site" / "registers" / "changes").exists()
    assert "Last changes" not in (root / "site" / "registers" / "t" / "index.html").read_text()

    outside = tmp_path / "outside"
    shutil.copytree(root, outside, ignore=shutil.ignore_patterns(".git", "site", ".register"))
    (outside / "mkdocs.yml").write_text(
        config().replace("  - register\n", "  - register: {verify: false}\n")
    )
    done = build(outside, GIT_CEILING_DIRECTORIES=str(tmp_path))  # whatever holds tmp
    assert done.returncode == 0, done.stderr
    assert not (outside / "site" / "registers" / "changes").exists()
    [line] = [x for x in done.stderr.splitlines() if "no Changes page" in x]
    assert line.startswith("INFO") and "is not inside a git repository" in line


def test_serve_shows_a_new_commit_and_warns_when_git_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Under `mkdocs serve` a rebuild reads the history again: a new commit that changed
    no register is no row of the Changes page, and git failing is a warning, not a crash."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    from compat_register.history import repository
    from compat_register.history.repository import HistoryError

    history = build_history(tmp_path)
    root = history.project.root
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Home\n")
    (root / "mkdocs.yml").write_text(config())
    monkeypatch.chdir(root)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")

    def rebuild() -> str:
        mkdocs_build(load_config(str(root / "mkdocs.yml"), site_dir=str(root / "site")))
        return (root / "site" / "registers" / "changes" / "index.html").read_text("utf-8")

    assert "commit-" in rebuild()
    history.project.write("docs/index.md", "# Home, committed\n")
    sha = history.project.commit("Not a register change")
    page = rebuild()
    assert f"commit-{sha[:12]}" not in page  # a commit that changed no register is not listed

    def broken(root: Path, cache_file: object = None) -> None:
        raise HistoryError("git log failed in somewhere: fatal: bad object")

    monkeypatch.setattr(repository, "read_history", broken)  # build_site reads it there
    history.project.commit("Another")
    with caplog.at_level("WARNING"), pytest.raises(Abort, match="1 warnings in strict mode"):
        rebuild()  # the site is made without the page; --strict fails on the warning
    assert any("no Changes page: git log failed" in r.getMessage() for r in caplog.records)

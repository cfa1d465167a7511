"""The Changes page through `mkdocs build --strict`: made inside a git repository, turned
off with `history: false`, skipped with an info line outside one; its chart kept whole."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

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
    root = history.project.root
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Home\n")
    (root / "mkdocs.yml").write_text(config())
    done = build(root)
    assert done.returncode == 0, done.stderr
    page = (root / "site" / "registers" / "changes" / "index.html").read_text(encoding="utf-8")
    sha = history.commits["state"]
    assert f'id="commit-{sha[:12]}"' in page
    assert f'href="https://github.com/example/project/commit/{sha}"' in page
    # the chart passes the sanitizer whole: its lines, its accessible name
    assert '<svg class="reg-chart" viewbox="0 0 640 180" role="img"' in page
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

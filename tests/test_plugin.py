"""The `register` MkDocs plugin: real `mkdocs build --strict` runs on throwaway sites."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gitrepo import GitRepo

GOLDEN = Path(__file__).parent / "golden" / "basic" / "registers"

CONFIG = """\
site_name: test
strict: true
theme: {name: material}
plugins:
  - search
  - tags
  - register
markdown_extensions:
  - admonition
  - attr_list
  - tables
  - toc: {permalink: true}
  - pymdownx.details
  - pymdownx.highlight
  - pymdownx.superfences
"""


def make_site(root: Path, nav: bool = True) -> Path:
    """A site with one hand-written page and the golden registers."""
    shutil.copytree(GOLDEN, root / "registers")
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# Home\n\nSee the [overview](registers/index.md).\n")
    (root / "docs" / "legend.md").write_text("# Legend\n")
    config = CONFIG + ("nav:\n  - Home: index.md\n  - Legend: legend.md\n" if nav else "")
    (root / "mkdocs.yml").write_text(config)
    return root


def build(
    root: Path, *command: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = command or (sys.executable, "-m", "mkdocs")
    return subprocess.run(
        [*command, "build", "--strict", "-f", str(root / "mkdocs.yml"), "-d", str(root / "site")],
        cwd=root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
    )


def html(root: Path, page: str) -> str:
    return (root / "site" / page / "index.html").read_text(encoding="utf-8")


def test_strict_build_adds_generated_pages_and_leaves_docs_alone(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    before = sorted(p.name for p in (site / "docs").rglob("*"))
    done = build(site)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (site / "docs").rglob("*")) == before
    alpha = html(site, "registers/alpha")
    assert 'id="alp-01"' in alpha and 'href="../beta/#bet-01"' in alpha
    assert 'href="../../legend/"' in alpha  # the legend page exists, so the header links it
    assert "register LV is not published yet" in alpha
    assert "<script>window.__pwned" not in alpha and 'href="javascript' not in alpha
    overview = html(site, "registers")
    assert "data-reg-filters" in overview and "assets/compat-register/register.js" in overview
    assert "Citation health" in overview  # the nav section was appended
    assert (site / "site" / "registers" / "health" / "index.html").exists()
    notices = [line for line in done.stderr.splitlines() if "not published yet" in line]
    assert notices and all(line.startswith("INFO") for line in notices)  # pending: info only


def test_build_without_nav_lists_the_pages(tmp_path: Path) -> None:
    site = make_site(tmp_path, nav=False)
    done = build(site)
    assert done.returncode == 0, done.stderr
    assert "Alpha" in html(site, "registers/beta")


def test_dangling_reference_fails_a_strict_build(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    beta = site / "registers" / "beta.yaml"
    beta.write_text(beta.read_text().replace("ALP-01..ALP-02", "ALP-01 and ALP-99"))
    done = build(site)
    assert done.returncode != 0
    assert "ALP-99 does not exist" in done.stderr


def test_stale_citation_warns_and_checkout_shows_excerpt(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "impl")
    repo.write("internal/server.go", "".join(f"func line{n}() {{}}\n" for n in range(1, 61)))
    sha = repo.commit("impl")
    site = make_site(tmp_path / "site-root")
    sources = site / "registers" / "sources.yaml"
    sources.write_text(sources.read_text().replace("abcdef1", sha[:12]))
    env = {"REGISTER_SOURCE_IMPL": str(repo.root)}
    done = build(site, env=env)
    assert done.returncode == 0, done.stderr
    alpha = html(site, "registers/alpha")
    assert 'class="hll"' in alpha and "line40" in alpha  # the cited line, highlighted
    assert f"internal/server.go:40 @ {sha[:7]}" in alpha
    alpha_yaml = site / "registers" / "alpha.yaml"
    alpha_yaml.write_text(
        alpha_yaml.read_text().replace("internal/server.go:40", "internal/gone.go:40")
    )
    done = build(site, env=env)
    assert done.returncode != 0
    assert "WARNING" in done.stderr and "gone.go" in done.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("properdocs") is None,
    reason="properdocs is not installed (pip install -e '.[test]' brings it)",
)
def test_properdocs_runs_the_plugin_unchanged(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    done = build(site, sys.executable, "-m", "properdocs")
    assert done.returncode == 0, done.stderr
    assert 'id="alp-01"' in html(site, "registers/alpha")


def test_serve_watches_registers_and_templates(tmp_path: Path) -> None:
    from compat_register import render
    from compat_register.plugin import RegisterPlugin

    class Server:
        def __init__(self) -> None:
            self.watched: list[str] = []

        def watch(self, path: str) -> None:
            self.watched.append(path)

    plugin = RegisterPlugin()
    errors, warnings = plugin.load_config({}, str(tmp_path / "mkdocs.yml"))
    assert not errors and not warnings
    server = Server()
    plugin.on_serve(server, config=None, builder=None)  # type: ignore[arg-type]
    assert server.watched == [str(tmp_path / "registers"), str(render.PACKAGED_TEMPLATES)]

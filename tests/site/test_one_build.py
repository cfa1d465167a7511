"""One site build (`api.build_site`): `register render` and the MkDocs plugin give the same
files for the same project and options, a register file that does not load included."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import builder
from compat_register import api
from compat_register.cli import main
from gitrepo import GitRepo
from test_plugin import make_site

BROKEN = "title: Broken\nentries: [\n"
"""A register file that does not load (the flow sequence is never closed)."""


def project(tmp_path: Path) -> tuple[Path, str]:
    """The plugin tests' site (the golden registers, a legend page) with a register file
    that does not load, pinned to a real checkout; returns the site and the checkout."""
    repo, sha = builder.source(tmp_path / "impl", builder.IMPL, "impl")
    site = make_site(tmp_path / "site")
    builder.edit_sources(site / "registers", builder.GOLDEN_PIN, sha[:12])
    (site / "registers" / "broken.yaml").write_text(BROKEN)
    return site, str(repo.root)


def plugin_files(site: Path) -> dict[str, str]:
    """What the plugin adds to a build of `site`: generated path -> text."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files

    config = load_config(str(site / "mkdocs.yml"), site_dir=str(site / "out"))
    config = config.plugins.on_config(config)
    files = config.plugins.on_files(get_files(config), config=config)
    return {f.src_uri: f.content_string for f in files if f.generated_by}


def rendered_files(site: Path, *flags: str) -> tuple[dict[str, str], str]:
    """What `register render` writes for `site`, and its output."""
    out = site.parent / "rendered"
    args = ["render", "--registers", str(site / "registers"), "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--legend", "legend.md", *flags])
    assert result.exit_code == 1, result.output  # the broken register is an error
    written = {p.relative_to(out).as_posix(): p.read_text() for p in out.rglob("*") if p.is_file()}
    return written, result.output


@pytest.mark.parametrize("offline", [False, True], ids=["checkout", "offline"])
def test_render_and_the_plugin_make_the_same_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, offline: bool
) -> None:
    site, checkout = project(tmp_path)
    monkeypatch.setenv("REGISTER_SOURCE_IMPL", checkout)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(site)
    config = (site / "mkdocs.yml").read_text()
    options = "  - register:\n      history: false\n" + ("      verify: false\n" if offline else "")
    (site / "mkdocs.yml").write_text(config.replace("  - register\n", options))
    plugin = plugin_files(site)
    written, output = rendered_files(site, "--no-history", *(["--offline"] if offline else []))
    assert plugin == written
    assert "registers/broken.md" in written
    assert ("registers/alpha/excerpts.html" in written) is not offline  # the checkout's lines
    assert "broken.yaml does not load" in written["registers/broken.md"]
    assert "These registers do not load" in written["registers/index.md"]
    assert "registers/broken.yaml:" in output


def test_render_takes_the_plugins_layout_options(tmp_path: Path) -> None:
    site, _ = project(tmp_path)
    out = tmp_path / "out"
    args = ["render", "--registers", str(site / "registers"), "--out", str(out), "--offline"]
    args += ["--no-history", "--pages", "reg", "--overview", "reg/all.md"]
    args += ["--health", "health.md", "--revisions", "revs", "--priorities", "todo.md"]
    CliRunner().invoke(main, args)
    for page in ["reg/alpha.md", "reg/broken.md", "reg/all.md", "health.md", "todo.md"]:
        assert (out / page).is_file(), page
    assert (out / "revs" / "index.md").is_file() and (out / "health" / "alpha.md").is_file()
    assert "](reg/broken.md)" in (out / "health.md").read_text()  # its notice links the page


def test_render_says_when_the_history_is_a_shallow_clone(tmp_path: Path) -> None:
    """The Changes page of a shallow clone shows the commits it holds: render says so, as
    the plugin does."""
    origin = GitRepo(tmp_path / "origin")
    shutil.copytree(make_site(tmp_path / "made") / "registers", origin.root / "registers")
    origin.commit("registers")
    (origin.root / "registers" / "beta.yaml").write_text(
        (origin.root / "registers" / "beta.yaml").read_text().replace("None.", "None at all.")
    )
    origin.commit("edit beta")
    clone = tmp_path / "clone"
    GitRepo(tmp_path / "unused").git("clone", "--quiet", "--depth", "1", origin.url, str(clone))
    out = tmp_path / "out"
    args = ["render", "--registers", str(clone / "registers"), "--out", str(out), "--offline"]
    result = CliRunner().invoke(main, args, env={**os.environ})
    assert "a shallow clone: the Changes page shows the history it holds" in result.output
    assert (out / "registers" / "changes.md").is_file()


def test_a_site_build_reports_as_values(tmp_path: Path) -> None:
    """The site is values: pages, excerpts, downloads, assets, the nav section and the
    problems, with nothing written."""
    site, _ = project(tmp_path)
    options = api.SiteOptions(verify=False, history=False)
    built = api.build_site(site / "registers", options)
    assert not (tmp_path / "rendered").exists()
    assert set(built.assets) == {
        "assets/compat-register/register.css",
        "assets/compat-register/register.js",
    }
    assert list(built.downloads) == ["registers/registers.json"]
    assert built.nav[0] == {"Overview": "registers/index.md"}
    assert {"broken (does not load)": "registers/broken.md"} in built.nav
    assert built.failed and any(d.file.endswith("broken.yaml") for d in built.diagnostics)
    nav = built.nav_for([{"Home": "index.md"}], "Registers")
    assert nav == [{"Home": "index.md"}, {"Registers": built.nav}]
    assert built.nav_for(["registers/alpha.md"], "Registers") == ["registers/alpha.md"]
    assert built.nav_for(None, "Registers") is None

"""The `register` MkDocs plugin: real `mkdocs build --strict` runs on throwaway sites."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compat_register.site.extensions import mkdocs_yaml
from conftest import RunLine
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
""" + mkdocs_yaml()


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


@pytest.mark.parametrize("nav", [True, False], ids=["nav", "no-nav"])
def test_a_registers_own_health_page_is_in_no_nav(tmp_path: Path, nav: bool) -> None:
    """Built and linked from the health page, but left out of the nav, the one MkDocs makes
    by folder too: material draws the whole nav on every page (issue 25)."""
    site = make_site(tmp_path, nav=nav)
    done = build(site)
    assert done.returncode == 0, done.stderr
    assert 'href="alpha/"' in html(site, "registers/health")
    assert "Citation health: Alpha" in html(site, "registers/health/alpha")
    for page in ("registers/alpha", "registers/health", "registers/health/alpha"):
        assert "Citation health: Alpha" not in nav_html(site, page)
    assert "health/alpha.md" not in done.stderr  # not named as a page the nav omits


def nav_html(root: Path, page: str) -> str:
    """The primary nav of a built page (material's sidebar)."""
    text = html(root, page)
    start = text.index('<nav class="md-nav md-nav--primary"')
    return text[start : text.index('<div class="md-sidebar md-sidebar--secondary"', start)]


def test_dangling_reference_fails_a_strict_build(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    beta = site / "registers" / "beta.yaml"
    beta.write_text(beta.read_text().replace("ALP-01..ALP-02", "ALP-01 and ALP-99"))
    done = build(site)
    assert done.returncode != 0
    assert "ALP-99 does not exist" in done.stderr


def test_a_done_entry_citing_only_the_spec_fails_a_strict_build(tmp_path: Path) -> None:
    """The evidence rule: BET-01 is done, and with its note's citation of impl gone it
    cites only the specification."""
    site = make_site(tmp_path)
    beta = site / "registers" / "beta.yaml"
    beta.write_text(beta.read_text().replace(" (internal/server.go:41)", ""))
    done = build(site)
    assert done.returncode != 0
    assert "BET-01: state 'done' cites nothing of the subject impl" in done.stderr


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
    assert "line40" not in alpha
    link = f'class="reg-excerpt" href="excerpts.html#x[0-9a-f]+">internal/server.go:40 @ {sha[:7]}<'
    assert re.search(link, alpha)  # the file is beside the page
    excerpt = (site / "site" / "registers" / "alpha" / "excerpts.html").read_text()
    marked = '<span class="hll"><span class="kd">func</span><span class="w"> </span>'
    assert marked + '<span class="nx">line40' in excerpt
    assert "line40" not in (site / "site" / "search" / "search_index.json").read_text()
    alpha_yaml = site / "registers" / "alpha.yaml"
    alpha_yaml.write_text(
        alpha_yaml.read_text().replace("internal/server.go:40", "internal/gone.go:40")
    )
    done = build(site, env=env)
    assert done.returncode != 0
    assert "WARNING" in done.stderr and "gone.go" in done.stderr


@pytest.mark.parametrize("named_by", ["path", "variable", "missing-path"])
def test_a_checkout_that_lacks_the_pin_fails_a_strict_build(tmp_path: Path, named_by: str) -> None:
    """What verify fails, the strict build fails: a checkout the project names (`path:` or
    REGISTER_SOURCE_IMPL) without the pinned commit, or a `path:` with no checkout at all;
    one line names the source, the commit and what to run."""
    repo = GitRepo(tmp_path / "impl")
    repo.write("internal/server.go", "package server\n")
    repo.commit("impl")
    site = make_site(tmp_path / "site-root")
    sources = site / "registers" / "sources.yaml"
    env = {}
    if named_by == "variable":
        env = {"REGISTER_SOURCE_IMPL": str(repo.root)}
    else:
        path = "../../impl" if named_by == "path" else "../../nowhere"
        sources.write_text(
            sources.read_text().replace("commit: abcdef1", f"commit: abcdef1\n    path: {path}")
        )
    done = build(site, env=env)
    assert done.returncode != 0, done.stderr
    (line,) = [line for line in done.stderr.splitlines() if "impl: " in line]
    assert line.startswith("ERROR") and "registers/sources.yaml:" in line
    assert "commit abcdef1" in line
    how = "clone the repository there" if named_by == "missing-path" else "fetch it there (git -C"
    assert how in line and "citations unverified" in line, line


def test_a_synced_cache_that_lacks_the_pin_fails_a_strict_build(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`register sync` cloned impl into the cache (REGISTER_CACHE) at its pin; the pin then
    moved to a commit made after the sync: the strict build fails as verify does, with one
    line naming the source, the commit and what to run (docs/site.md, "Warnings and
    --strict")."""
    repo = GitRepo(tmp_path / "impl")
    repo.write("internal/server.go", "".join(f"func line{n}() {{}}\n" for n in range(1, 61)))
    synced = repo.commit("impl")
    site = make_site(tmp_path / "site-root")
    sources = site / "registers" / "sources.yaml"
    text = sources.read_text().replace("repo: null", f"repo: {repo.url}")
    sources.write_text(text.replace("abcdef1", synced))
    cache = {"REGISTER_CACHE": str(tmp_path / "cache")}
    monkeypatch.setenv("REGISTER_CACHE", cache["REGISTER_CACHE"])
    done = run_line(["sync", "--registers", str(site / "registers"), "impl"])
    assert done.exit_code == 0 and done.stdout.strip() == f"impl: {synced}", done.output
    held = build(site, env=cache)
    assert held.returncode == 0, held.stderr  # the cache holds the pin: nothing to say
    repo.write("internal/server.go", "package server\n")
    later = repo.commit("later")
    sources.write_text(text.replace("abcdef1", later))
    done = build(site, env=cache)
    assert done.returncode != 0, done.stderr
    (line,) = [line for line in done.stderr.splitlines() if "impl: " in line]
    assert line.startswith("ERROR") and "registers/sources.yaml:" in line
    assert f"does not hold commit {later}" in line and "cache" in line
    assert "run register sync impl" in line and "3 citations unverified" in line, line


def test_an_unsynced_source_without_a_checkout_passes_a_strict_build(tmp_path: Path) -> None:
    """Offline by design (the CI case): no checkout named, none synced, a notice only."""
    site = make_site(tmp_path / "site-root")
    done = build(site)
    assert done.returncode == 0, done.stderr
    assert "ERROR" not in done.stderr and "WARNING" not in done.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("properdocs") is None,
    reason="properdocs is not installed (pip install -e '.[test]' brings it)",
)
def test_properdocs_runs_the_plugin_unchanged(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    done = build(site, sys.executable, "-m", "properdocs")
    assert done.returncode == 0, done.stderr
    assert 'id="alp-01"' in html(site, "registers/alpha")


@pytest.mark.skipif(
    importlib.util.find_spec("properdocs") is None, reason="properdocs is not installed"
)
def test_properdocs_finds_the_plugin_under_its_own_entry_point() -> None:
    """ProperDocs reads `properdocs.plugins` before `mkdocs.plugins`: the plugin is listed
    in both, so ProperDocs takes it from its own group."""
    from properdocs.plugins import get_plugins

    found = get_plugins()["register"]
    assert (found.group, found.value) == (
        "properdocs.plugins",
        "compat_register.plugin:RegisterPlugin",
    )


def test_serve_watches_registers_and_templates(tmp_path: Path) -> None:
    from compat_register.plugin import RegisterPlugin
    from compat_register.site import jinja

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
    assert server.watched == [str(tmp_path / "registers"), str(jinja.PACKAGED_TEMPLATES)]


def test_a_template_error_is_one_line_naming_the_template(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    (site / "templates").mkdir()
    (site / "templates" / "health.md.j2").write_text("# Health\n\n{{ fmt.no_such_thing() }}\n")
    config = site / "mkdocs.yml"
    config.write_text(
        config.read_text().replace("  - register\n", "  - register:\n      templates: templates\n")
    )
    done = build(site)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert f"{site / 'templates' / 'health.md.j2'}:3: UndefinedError" in done.stderr


def test_generated_pages_are_cleaned_and_written_ones_are_not(tmp_path: Path) -> None:
    """A site's template may write raw HTML: on a generated page only the allowlist passes."""
    site = make_site(tmp_path)
    (site / "templates").mkdir()
    hostile = '<img src="x.png" onerror="window.__pwned = 1"><script>window.__pwned = 2</script>'
    (site / "templates" / "health.md.j2").write_text(f"# Health\n\n{hostile}\n")
    (site / "docs" / "index.md").write_text(f"# Home\n\n{hostile}\n")
    config = site / "mkdocs.yml"
    config.write_text(
        config.read_text().replace("  - register\n", "  - register:\n      templates: templates\n")
    )
    done = build(site)
    assert done.returncode == 0, done.stderr
    health = html(site, "registers/health")
    assert '<img src="x.png">' in health and "__pwned" not in health
    assert hostile in (site / "site" / "index.html").read_text()  # the author's own page


def dirty_build(site: Path) -> set[str]:
    """A rebuild as `mkdocs serve --dirty` makes one (the plugin kept, as MkDocs keeps
    one that defines on_startup): the pages MkDocs built, by src URI."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    from compat_register import api

    built: list[str] = []
    clean = api.clean_html
    with pytest.MonkeyPatch.context() as patch:  # the plugin cleans each generated page built
        patch.setattr(api, "clean_html", lambda page: built.append(page) or clean(page))
        config = load_config(str(site / "mkdocs.yml"), site_dir=str(site / "site"), strict=False)
        config.plugins.on_startup(command="serve", dirty=True)
        mkdocs_build(config, dirty=True)
    titles = (re.search(r"<h1[^>]*>(.*?)<", page) for page in built)
    return {found[1] for found in titles if found}


def test_a_dirty_rebuild_builds_only_the_pages_an_edit_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plugin writes a generated file only when its bytes change: after an edit of
    beta's risk, `--dirty` builds beta's page and the overview (which shows risks) again;
    alpha's page, the health page and the priorities are left as they were."""
    site = make_site(tmp_path)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    assert {"Alpha", "Beta", "Citation health", "Registers"} <= dirty_build(site)
    written = site / "site" / "registers" / "alpha" / "index.html"
    alpha, when = html(site, "registers/alpha"), written.stat().st_mtime_ns
    beta = site / "registers" / "beta.yaml"
    beta.write_text(beta.read_text().replace("risk: None.", "risk: None at all."))
    assert dirty_build(site) == {"Beta", "Registers"}
    assert "None at all." in html(site, "registers/beta")
    assert "None at all." in html(site, "registers")
    assert html(site, "registers/alpha") == alpha and written.stat().st_mtime_ns == when
    assert dirty_build(site) == set()  # nothing changed: no page built


def build_aborts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`mkdocs build` of a site made here, which the plugin's error must abort."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    site = make_site(tmp_path)
    config = load_config(str(site / "mkdocs.yml"), site_dir=str(site / "site"))
    with pytest.raises(Abort, match="BuildError"):
        mkdocs_build(config)


def test_an_unexpected_error_is_a_plugin_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """MkDocs logs a plugin's error as one line and aborts: no traceback."""
    from compat_register import api

    def broken(paths: object, **options: object) -> api.Verified:
        raise RuntimeError("boom")

    # build_site calls it
    monkeypatch.setattr("compat_register.api.publishing.verify_citations", broken)
    build_aborts(tmp_path, monkeypatch)
    assert "register plugin: RuntimeError: boom" in caplog.text


def test_a_generated_file_it_cannot_write_is_a_plugin_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The plugin writes its files to its own folder: a full or read-only disk is one line
    naming the file, not a traceback."""

    def full(path: Path, data: bytes) -> None:
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr("compat_register.api.publishing.write_changed", full)
    build_aborts(tmp_path, monkeypatch)
    assert "register plugin: OSError: [Errno 28] No space left on device: '" in caplog.text
    assert "Traceback" not in caplog.text


def test_repository_site_names_exactly_the_extensions_pages_are_written_for() -> None:
    """mkdocs.yml's markdown_extensions are the one list in site/extensions.py."""
    import yaml

    from compat_register.site.extensions import MARKDOWN_EXTENSIONS

    config = yaml.safe_load((Path(__file__).parent.parent / "mkdocs.yml").read_text())
    named = {
        (item if isinstance(item, str) else next(iter(item))): (
            {} if isinstance(item, str) else next(iter(item.values()))
        )
        for item in config["markdown_extensions"]
    }
    assert named == MARKDOWN_EXTENSIONS
    assert yaml.safe_load(mkdocs_yaml())["markdown_extensions"] == config["markdown_extensions"]

"""`register init`: a working register project in one command, on real builds and checkouts."""

from __future__ import annotations

import datetime
import errno
import json
import os
import re
from pathlib import Path

import click
import pytest
import yaml

import builder
import engines
from compat_register import api
from compat_register.scaffold import newproject as project
from compat_register.site.extensions import MARKDOWN_EXTENSIONS
from conftest import RunLine
from gitrepo import GitRepo
from test_plugin import build, html

FIXTURES = Path(__file__).parent / "fixtures"
PIN = "b0f60ba5409db7a6582440a7b473cc0398890f15"
MINIMAL = "site_name: {name}\ntheme: material\nplugins:\n  - search\n  - register\n"


def spec_clone(root: Path) -> GitRepo:
    """A clone standing in for the specification: the first 48 lines of its 2024-11-05
    schema.ts as they are at the pinned commit (tests never reach the network)."""
    repo = GitRepo(root)
    repo.write(
        "schema/2024-11-05/schema.ts", (FIXTURES / "mcp-schema-2024-11-05-head.ts").read_text()
    )
    repo.commit("schema")
    return repo


def repin(project_dir: Path, sha: str) -> None:
    """Point the example's source at `sha`, as an author moving a pin to a fork would."""
    builder.edit_sources(project_dir / "registers", PIN, sha)


def test_init_then_check_verify_and_strict_build(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "proj"
    done = run_line(["init", str(here)])
    assert done.exit_code == 0, done.output
    assert f"wrote {here / 'registers/example.yaml'}" in done.stdout
    assert "register sync && register verify" in done.stdout

    monkeypatch.chdir(here)
    checked = run_line(["check"])
    assert (checked.exit_code, checked.stdout) == (0, "0 errors, 0 warnings\n")

    clone = spec_clone(tmp_path / "spec")
    repin(here, clone.git("rev-parse", "HEAD"))
    monkeypatch.setenv("REGISTER_SOURCE_SPEC", str(clone.root))
    verified = run_line(["verify", "--strict"])
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.startswith("4 citations: 4 ok, 0 moved, 0 broken"), verified.stdout

    built = build(here, env={"REGISTER_SOURCE_SPEC": str(clone.root)})
    assert built.returncode == 0, built.stderr
    page = html(here, "registers/example")
    assert 'id="ex-01"' in page and 'id="ex-02"' in page
    assert page.count('class="reg-excerpt"') == 4  # one excerpt per citation
    excerpts = (here / "site" / "registers" / "example" / "excerpts.html").read_text()
    assert excerpts.count("<section") == 4 and 'class="hll"' in excerpts  # cited lines marked
    assert "{ #" not in page and "{ ." not in page and "```" not in page


def test_init_offline_build_passes_and_links_the_pinned_lines(tmp_path: Path) -> None:
    api.init(tmp_path, "Offline")
    built = build(tmp_path)
    assert built.returncode == 0, built.stderr
    page = html(tmp_path, "registers/example")
    assert f"modelcontextprotocol/blob/{PIN}/schema/2024-11-05/schema.ts#L21" in page
    assert "{ #" not in page


@pytest.mark.skipif(not engines.installed("zensical"), reason="zensical is not installed")
def test_init_for_zensical_renders_then_builds(tmp_path: Path, run_line: RunLine) -> None:
    """`register init --engine zensical`: no plugin in mkdocs.yml, the assets named there,
    what render writes left out of git, and its CI workflow's steps build the site."""
    done = run_line(["init", str(tmp_path), "--engine", "zensical"])
    assert done.exit_code == 0, done.output
    assert "register render --out docs && zensical serve" in done.output
    config = (tmp_path / "mkdocs.yml").read_text()
    assert "- register" not in config and "assets/compat-register/register.js" in config
    assert "/docs/registers/" in (tmp_path / ".gitignore").read_text()
    assert "zensical" in (tmp_path / "requirements.txt").read_text()
    workflow = (tmp_path / ".github" / "workflows" / "registers.yml").read_text()
    assert "run: register render --out docs\n" in workflow and "zensical build --strict" in workflow
    engines.build_with("zensical", tmp_path)
    page = html(tmp_path, "registers/example")
    assert 'id="ex-01"' in page and "assets/compat-register/register.css" in page
    assert f"modelcontextprotocol/blob/{PIN}/schema/2024-11-05/schema.ts#L21" in page


def test_a_minimal_mkdocs_yml_renders_the_same_pages(tmp_path: Path) -> None:
    """The plugin adds the extensions itself: the pages do not depend on mkdocs.yml naming them."""
    pages = {}
    for kind in ("init", "minimal"):
        root = tmp_path / kind
        api.init(root, "same", today=datetime.date(2026, 1, 1))
        if kind == "minimal":
            (root / "mkdocs.yml").write_text(MINIMAL.format(name="same"))
        assert build(root).returncode == 0
        pages[kind] = [article(html(root, page)) for page in ("registers/example", "registers")]
    assert pages["init"] == pages["minimal"]
    assert 'id="ex-01"' in pages["minimal"][0]


def article(page: str) -> str:
    """A page's content, without the theme's navigation (mkdocs.yml's features change it)."""
    return page[page.index("<article") : page.index("</article>")]


def test_a_conflicting_extension_option_fails_the_build_naming_it(tmp_path: Path) -> None:
    api.init(tmp_path)
    config = MINIMAL.format(name="x") + "markdown_extensions:\n  - pymdownx.highlight:\n"
    (tmp_path / "mkdocs.yml").write_text(config + "      line_spans: __x\n")
    built = build(tmp_path)
    assert built.returncode == 1
    assert "register plugin: markdown_extensions: pymdownx.highlight: line_spans" in built.stderr
    assert "Traceback" not in built.stderr


def test_a_site_keeps_its_own_permalink_symbol(tmp_path: Path) -> None:
    api.init(tmp_path)
    config = MINIMAL.format(name="x") + "markdown_extensions:\n  - toc: {permalink: '#'}\n"
    (tmp_path / "mkdocs.yml").write_text(config)
    built = build(tmp_path)
    assert built.returncode == 0, built.stderr
    assert re.search(r'class="headerlink"[^>]*>#</a>', html(tmp_path, "registers/example"))


def test_init_refuses_to_overwrite_and_writes_nothing(tmp_path: Path, run_line: RunLine) -> None:
    (tmp_path / "registers").mkdir()
    (tmp_path / "registers" / "sources.yaml").write_text("mine\n")
    (tmp_path / "mkdocs.yml").write_text("mine\n")
    done = run_line(["init", str(tmp_path)])
    assert done.exit_code == 1
    assert done.stderr == (
        f"Error: {tmp_path}: would overwrite mkdocs.yml, registers/sources.yaml; nothing written\n"
    )
    assert sorted(p.name for p in tmp_path.rglob("*")) == [
        "mkdocs.yml",
        "registers",
        "sources.yaml",
    ]
    assert (tmp_path / "mkdocs.yml").read_text() == "mine\n"


def test_init_into_an_unwritable_folder_is_one_line(tmp_path: Path, run_line: RunLine) -> None:
    (tmp_path / "file").write_text("")
    done = run_line(["init", str(tmp_path / "file" / "proj")])
    assert done.exit_code == 1
    assert done.stderr.startswith("Error: cannot write ") and "Traceback" not in done.output


def test_a_full_disk_during_init_names_the_folder_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")  # no file name, as fsync's

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(api.InitError) as refused:
        api.init(tmp_path / "new")
    assert str(refused.value) == f"cannot write {tmp_path / 'new'}: No space left on device"


def test_project_files_are_valid_and_point_where_they_say() -> None:
    texts = project.files("A: name", datetime.date(2026, 2, 3))
    config = yaml.safe_load(texts["mkdocs.yml"])
    assert config["site_name"] == "A: name"
    names = [
        next(iter(item)) if isinstance(item, dict) else item
        for item in config["markdown_extensions"]
    ]
    assert names == list(MARKDOWN_EXTENSIONS)
    for path in ("registers/sources.yaml", "registers/example.yaml"):
        modeline = texts[path].splitlines()[0]
        schema = modeline.removeprefix("# yaml-language-server: $schema=")
        assert (Path(path).parent / schema).as_posix().replace("registers/../", "") in texts
    assert "created: 2026-02-03" in texts["registers/example.yaml"]
    workflow = yaml.safe_load(texts[".github/workflows/registers.yml"])
    runs = [step.get("run") for step in workflow["jobs"]["registers"]["steps"]]
    assert "register sync" in runs and "register verify --format github" in runs
    assert "mkdocs build --strict" in runs
    hooks = yaml.safe_load(texts[".pre-commit-config.yaml"])["repos"][0]["hooks"]
    assert hooks[0]["entry"] == "register check"


ROOT = Path(__file__).resolve().parents[1]


def register_commands(text: str) -> list[list[str]]:
    """Each `register ...` command line in a YAML text's `run:` or `entry:` values."""
    found = re.findall(r"(?:run|entry): (register [^\n]*)", text)
    return [line.split() for line in found]


def test_hook_action_and_workflow_run_commands_that_exist() -> None:
    from compat_register.cli import main

    texts = [
        (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"),
        (ROOT / "action.yml").read_text(encoding="utf-8"),
        *project.files("x", datetime.date(2026, 1, 1)).values(),
    ]
    commands = [words for text in texts for words in register_commands(text)]
    assert len(commands) >= 6
    for words in commands:
        command = main.get_command(click.Context(main), words[1])
        assert command is not None, words
        options = {opt for param in command.params for opt in param.opts}
        used = {word for word in words[2:] if word.startswith("--")}
        assert used <= options, words
    hook = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))[0]
    assert (hook["id"], hook["language"], hook["pass_filenames"]) == (
        "register-check",
        "python",
        False,
    )
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"


def test_under_serve_a_register_that_stops_loading_keeps_its_page_with_the_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plugin instance lives on between rebuilds (on_startup), as under `mkdocs serve`:
    the page of a file that stops loading shows its problems, as a cold build's does (not
    its last rendering, which would make the rebuilt site another than a cold build's)."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    api.init(tmp_path, "serve")
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(tmp_path)  # messages name files relative to the working directory

    def rebuild() -> None:
        config = load_config(str(tmp_path / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
        config.plugins.on_startup(command="serve", dirty=False)
        mkdocs_build(config)

    rebuild()
    example = tmp_path / "registers" / "example.yaml"
    good = example.read_text(encoding="utf-8")
    example.write_text(good.replace("\nprefix: EX", "\n  prefix: EX"), encoding="utf-8")
    (tmp_path / "registers" / "never.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    rebuild()
    page = html(tmp_path, "registers/example")
    assert "registers/example.yaml does not load" in page
    assert "registers/example.yaml:6:3: error: example: invalid YAML: 'prefix:' is indented" in page
    assert 'id="ex-01"' not in page  # no stale rendering below the problem
    never = html(tmp_path, "registers/never")
    assert "registers/never.yaml does not load" in never and "registers/never.yaml:2:1" in never
    pairs = (("registers", 'href="example/"'), ("registers/health", 'href="../example/"'))
    for page, link in pairs:
        assert "These registers do not load" in html(tmp_path, page)
        assert f"{link}>example</a>: 1 problem" in html(tmp_path, page)
    example.write_text(good, encoding="utf-8")
    rebuild()
    assert "does not load" not in article(html(tmp_path, "registers/example"))  # nav: never
    assert "These registers do not load" in html(tmp_path, "registers")  # never.yaml


@pytest.mark.parametrize("registers", ["registers", "site/data/registers", "./regs"])
def test_the_action_caches_the_folder_the_tool_keeps_its_cache_in(
    registers: str, tmp_path: Path
) -> None:
    """action.yml's cache step saves what `register sync` fills: beside the registers
    input (or $REGISTER_CACHE), as `layout.Paths.of` says, not the workspace's."""
    import subprocess
    import sys

    from compat_register.storage.layout import Paths

    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    steps = action["runs"]["steps"]
    where = next(step for step in steps if step.get("id") == "where")
    cache = next(step for step in steps if "actions/cache" in step.get("uses", ""))
    assert cache["with"]["path"] == "${{ steps.where.outputs.cache }}"
    for environ in ({}, {"REGISTER_CACHE": "/ci/cache"}):
        output = tmp_path / "output"
        output.write_text("", encoding="utf-8")
        env = {"PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin", **environ}
        env |= {"REGISTERS": registers, "GITHUB_OUTPUT": str(output)}
        subprocess.run(["bash", "-c", where["run"]], env=env, check=True, cwd=tmp_path)
        wanted = Paths.of(Path(registers), api.Settings.read(environ).cache).cache
        assert output.read_text(encoding="utf-8") == f"cache={wanted}\n"


def uncommented(text: str) -> str:
    """A YAML text with its commented-out examples (`# key: ...`, `#   - item`) taken in."""
    return re.sub(r"(?m)^(\s*)# ((?:\s*)(?:[a-z_]+:|- ))", r"\1\2", text)


def test_init_s_sources_yaml_has_an_example_of_every_key(tmp_path: Path, run_line: RunLine) -> None:
    """docs/start.md: "the pinned sources, with commented examples of every key"; the
    examples check clean once uncommented, and the revisions are the specification's six."""
    text = project.files("x", datetime.date(2026, 1, 1))["registers/sources.yaml"]
    data = yaml.safe_load(uncommented(text))
    ours = yaml.safe_load((ROOT / "registers" / "sources.yaml").read_text(encoding="utf-8"))
    assert data["revisions"] == ours["revisions"]
    assert [str(r) for r in ours["revisions"]][-2:] == ["2026-07-28", "draft"]
    schema = json.loads((ROOT / "docs/schema/sources.schema.json").read_text(encoding="utf-8"))
    defs = schema["$defs"]
    sources = data["sources"].values()
    claims = [c for s in sources for c in s.get("claims", []) if isinstance(c, dict)]
    written = {
        "top": set(data),
        "source": {key for source in sources for key in source},
        "coverage": {key for s in sources for key in s.get("coverage", {})},
        "requirements": {key for s in sources for key in s.get("requirements", {})},
        "claim": {key for claim in claims for key in claim},
        "link": {key for link in data["links"] for key in link},
    }
    wanted = {name: defs[name]["properties"] for name in written if name != "top"}
    wanted["top"] = schema["properties"]
    for name, keys in wanted.items():
        assert set(keys) - {"_meta"} <= written[name], name  # _meta: once is enough
    assert "_meta" in written["source"]
    builder.registers(tmp_path, uncommented(text))
    checked = run_line(["check", "--registers", str(tmp_path)])
    assert checked.exit_code == 0, checked.output


def test_coverage_with_nothing_configured_says_so_and_how(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not `0 statements ... (100.0% covered)`: one located error naming the key to add."""
    assert run_line(["init", str(tmp_path / "p")]).exit_code == 0
    monkeypatch.chdir(tmp_path / "p")
    result = run_line(["coverage"])
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "registers/sources.yaml:1:1: error: sources: no coverage is configured: no source "
        "names its statement files; add coverage: {statements: [GLOB]} to the "
        "specification's source (the sources.yaml of register init holds one, commented out; "
        "docs/coverage.md)"
    ]


def test_the_issue_s_cite_in_a_fresh_project(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`register cite --grep _meta 2025-11-25/basic/index.mdx`, as a new user typed it: the
    spec's claims of init's sources.yaml give the page to `spec`, searched alone."""
    assert run_line(["init", str(tmp_path / "p")]).exit_code == 0
    clone = GitRepo(tmp_path / "spec")
    page = "docs/specification/2025-11-25/basic/index.mdx"
    clone.write(page, "# Overview\n\nThe `_meta` property is reserved.\n")
    clone.write("docs/specification/2025-06-18/basic/index.mdx", "The _meta key, older.\n")
    repin(tmp_path / "p", clone.commit("pages"))
    monkeypatch.chdir(tmp_path / "p")
    monkeypatch.setenv("REGISTER_SOURCE_SPEC", str(clone.root))
    found = run_line(["cite", "--grep", "_meta", "2025-11-25/basic/index.mdx"])
    assert found.exit_code == 0, found.output
    assert found.stdout.splitlines() == [
        "2025-11-25/basic/index.mdx:3 “The `_meta` property is reserved.”",
        "1 of 1 hit in 1 file (1 claimed file of spec)",
    ]

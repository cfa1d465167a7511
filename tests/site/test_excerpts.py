"""Excerpt files and the excerpt cache: highlighted once, kept between builds, on a real
checkout (a git repository built here), through the plugin and `register render`."""

from __future__ import annotations

import logging
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compat_register.cli import main
from compat_register.site import excerpts, sanitize
from compat_register.site.excerpts import Highlighter
from compat_register.site.excerptstore import ExcerptStore, digest
from compat_register.site.extensions import mkdocs_yaml
from gitrepo import GitRepo

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "basic" / "registers"

CONFIG = """\
site_name: excerpts
theme: {name: material}
plugins:
  - search
  - register
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The golden registers, citing a checkout of `impl`, in a site; the cache in tmp_path."""
    repo = GitRepo(tmp_path / "impl")
    repo.write("internal/server.go", "".join(f"func line{n}() {{}}\n" for n in range(1, 61)))
    sha = repo.commit("impl")
    site = tmp_path / "site-root"
    shutil.copytree(GOLDEN, site / "registers")
    sources = site / "registers" / "sources.yaml"
    sources.write_text(sources.read_text().replace("abcdef1", sha))
    (site / "docs").mkdir()
    (site / "docs" / "index.md").write_text("# Home\n")
    (site / "mkdocs.yml").write_text(CONFIG + mkdocs_yaml())
    monkeypatch.setenv("REGISTER_SOURCE_IMPL", str(repo.root))
    monkeypatch.setenv("REGISTER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(site)
    return site


def build(site: Path) -> str:
    """A build by a fresh plugin (as a new `mkdocs build` process has); the excerpt file."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    config = load_config(str(site / "mkdocs.yml"), site_dir=str(site / "site"))
    # MkDocs keeps a plugin that defines on_startup across builds of one process: forget
    # what its highlighter holds, as a new process would not have it.
    config.plugins["register"].highlighter = None
    mkdocs_build(config)
    return (site / "site" / "registers" / "alpha" / "excerpts.html").read_text()


def counting_highlights(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every block highlighted from now on (each one is cleaned once, after Markdown)."""
    made: list[str] = []
    clean = sanitize.clean_excerpt
    monkeypatch.setattr(sanitize, "clean_excerpt", lambda html: made.append(html) or clean(html))
    return made


def test_a_second_build_highlights_nothing(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = counting_highlights(monkeypatch)
    first = build(project)
    assert len(made) == 1 and "line40" in first
    (folder,) = (project.parent / "cache" / "excerpts").iterdir()  # one per settings
    assert [path.name for path in folder.iterdir()] == ["alpha.json"]
    assert build(project) == first and len(made) == 1  # read from the cache


def test_an_edit_highlights_only_the_excerpt_it_changed(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alpha = project / "registers" / "alpha.yaml"
    alpha.write_text(
        alpha.read_text().replace(
            "- internal/server.go:40\n",
            ("- internal/server.go:40\n      - internal/server.go:50\n"),
        )
    )
    made = counting_highlights(monkeypatch)
    build(project)
    assert len(made) == 2
    alpha.write_text(alpha.read_text().replace("server.go:50\n", "server.go:20\n"))
    page = build(project)
    assert len(made) == 3 and "line20" in page and "line50" not in page
    (stored,) = (project.parent / "cache" / "excerpts").glob("*/alpha.json")
    assert "line20" in stored.read_text() and "line50" not in stored.read_text()


def test_a_damaged_or_foreign_cache_is_ignored(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = build(project)
    (stored,) = (project.parent / "cache" / "excerpts").glob("*/alpha.json")
    made = counting_highlights(monkeypatch)
    for damage in ('{"settings": "other", "blocks": {}}', "{not json", '["a list"]'):
        stored.write_text(damage)
        assert build(project) == first
    assert len(made) == 3  # highlighted again each time, and stored again
    assert '"blocks"' in stored.read_text()


def test_a_cache_that_cannot_be_written_costs_no_build(
    project: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    (project.parent / "blocked").write_text("a file where the cache folder would be")
    monkeypatch.setenv("REGISTER_CACHE", str(project.parent / "blocked"))
    assert "line40" in build(project)
    assert any("cannot write the excerpt cache" in r.message for r in caplog.records)
    result = CliRunner().invoke(main, ["render", "--out", "out", "--no-history"])
    assert "cannot write the excerpt cache" in result.output
    assert "line40" in (project / "out" / "registers" / "alpha" / "excerpts.html").read_text()


def test_render_and_the_plugin_each_keep_their_own(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`register render` highlights with the pages' extensions, a site with its own: each
    keeps its excerpts apart, so that building both ways rewrites neither's."""
    build(project)
    result = CliRunner().invoke(main, ["render", "--out", "out", "--no-history"])
    assert result.exit_code == 0, result.output
    folders = sorted((project.parent / "cache" / "excerpts").iterdir())
    assert len(folders) == 2 and all((f / "alpha.json").is_file() for f in folders)
    made = counting_highlights(monkeypatch)
    build(project)
    CliRunner().invoke(main, ["render", "--out", "out", "--no-history"])
    assert made == []


def test_other_settings_make_other_html_and_another_store(tmp_path: Path) -> None:
    block = '``` go linenums="1" hl_lines="1"\nfunc main() {}\n```'
    plain = Highlighter(store=lambda s: ExcerptStore(tmp_path, s))
    spans = Highlighter(
        configs={"pymdownx.highlight": {"linenums_style": "pymdownx-inline"}},
        extensions=["pymdownx.highlight", "pymdownx.superfences"],
        store=lambda s: ExcerptStore(tmp_path, s),
    )
    assert plain.store is not None and spans.store is not None
    assert plain.store.settings != spans.store.settings
    assert plain.html(block) != spans.html(block)
    plain.store.write("x", {digest(block): plain.html(block)})
    assert spans.store.read("x") == {} and plain.store.read("x") == {
        digest(block): plain.html(block)
    }


def test_settings_name_objects_by_class_not_address() -> None:
    from markdown.extensions.toc import TocExtension

    one = Highlighter([TocExtension(permalink=True)], {"x": {"format": os.path.join}})
    two = Highlighter([TocExtension(permalink=True)], {"x": {"format": os.path.join}})
    assert one.settings() == two.settings() and "0x" not in one.settings()
    assert "TocExtension" in one.settings() and "permalink: True" in one.settings()


def test_documents_keeps_what_files_show_and_forgets_the_rest() -> None:
    from compat_register.site.render import Excerpt, ExcerptFile

    first = Excerpt("x1", "a.go:1", "``` go\nfunc a() {}\n```")
    second = Excerpt("x2", "a.go:2", "``` go\nfunc b() {}\n```")
    highlighter = Highlighter()
    file = ExcerptFile("a", "A", [first, second])
    one = excerpts.documents({"a/excerpts.html": file}, highlighter)
    assert highlighter.document(file) is one["a/excerpts.html"]  # made once
    excerpts.documents({"a/excerpts.html": ExcerptFile("a", "A", [first])}, highlighter)
    assert set(highlighter._html) == {first.block}


def test_code_that_looks_like_html_stays_text() -> None:
    """A cited file is data: its `<script>` is shown, never run, and no tag of it survives."""
    block = '``` html linenums="1" hl_lines="1"\n</code></pre><script>alert(1)</script>\n```'
    html = Highlighter().html(block)
    assert "<script" not in html
    shown = re.sub(r"<[^>]+>", "", html)  # the text a reader sees, still escaped
    assert "&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in shown

"""Excerpt files and the excerpt cache: highlighted once, kept between builds, on a real
checkout (a git repository built here), through the plugin and `register render`."""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from compat_register.cli import main
from compat_register.site import excerpts
from compat_register.site.excerpts import (
    Block,
    Excerpt,
    ExcerptFile,
    ExcerptStore,
    Highlighter,
    digest,
)
from compat_register.site.extensions import mkdocs_yaml
from gitrepo import GitRepo
from pagehtml import live

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
    """A build as a new `mkdocs build` process makes it; the excerpt file. MkDocs keeps a
    plugin that defines on_startup across the builds of one process: given a new folder,
    it has written no file there (the excerpt cache is what a new process finds)."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    config = load_config(str(site / "mkdocs.yml"), site_dir=str(site / "site"))
    config.plugins["register"].folder = Path(tempfile.mkdtemp(dir=site.parent))
    mkdocs_build(config)
    return (site / "site" / "registers" / "alpha" / "excerpts.html").read_text()


def counting_highlights(monkeypatch: pytest.MonkeyPatch) -> list[Block]:
    """Every block highlighted from now on (by Pygments: not read from memory or the store)."""
    made: list[Block] = []
    highlight = Highlighter._highlight
    monkeypatch.setattr(
        Highlighter, "_highlight", lambda self, block: made.append(block) or highlight(self, block)
    )
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


POISON = (
    '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>'
    '<a href="javascript:window.__pwned=1">line40</a><span id="location">x</span><!-- c -->'
)


def poison(cache: Path) -> None:
    """Every block of every stored register replaced by live HTML, the file otherwise sound
    (its settings this build's): what a CI cache restored from another branch may hold."""
    for stored in cache.glob("excerpts/*/*.json"):
        data = json.loads(stored.read_text())
        data["blocks"] = {key: POISON for key in data["blocks"]}
        stored.write_text(json.dumps(data))


def test_a_poisoned_cache_reaches_no_page(project: Path) -> None:
    """The store's HTML is cleaned as it is read, by the plugin and by `register render`:
    what is left of the poison is inert text."""
    build(project)
    poison(project.parent / "cache")
    main_part = re.search(r"<main>.*</main>", build(project), re.DOTALL)
    assert main_part is not None and "<a>line40</a>" in main_part[0]  # the poison, cleaned
    assert live(main_part[0]) == [] and 'id="location"' not in main_part[0]
    result = CliRunner().invoke(main, ["render", "--out", "out", "--no-history"])
    assert result.exit_code == 0, result.output
    rendered = (project / "out" / "registers" / "alpha" / "excerpts.html").read_text()
    assert "<a>line40</a>" in rendered and live(rendered.split("<main>")[1]) == []


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


def test_render_and_the_plugin_share_one_store(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`register render` and a site whose highlighting options are the pages' own make the
    same excerpts: they share one store, and building both ways highlights nothing twice."""
    build(project)
    result = CliRunner().invoke(main, ["render", "--out", "out", "--no-history"])
    assert result.exit_code == 0, result.output
    folders = sorted((project.parent / "cache" / "excerpts").iterdir())
    assert len(folders) == 1 and (folders[0] / "alpha.json").is_file()
    made = counting_highlights(monkeypatch)
    build(project)
    CliRunner().invoke(main, ["render", "--out", "out", "--no-history"])
    assert made == []


def test_other_settings_make_other_html_and_another_store(tmp_path: Path) -> None:
    block = Block("go", 1, (1, 1), ("func main() {}",))
    plain = Highlighter(store=lambda s: ExcerptStore(tmp_path, s))
    spans = Highlighter(
        {"pymdownx.highlight": {"linenums_style": "pymdownx-inline"}},
        store=lambda s: ExcerptStore(tmp_path, s),
    )
    assert plain.store is not None and spans.store is not None
    assert plain.store.settings != spans.store.settings
    assert plain.html(block) != spans.html(block)
    kept = {digest(block.markdown()): plain.html(block)}
    written = plain.store.cache("x")
    written.data["blocks"] = kept
    written.save()
    assert spans.store.cache("x").data["blocks"] == {}
    assert plain.store.cache("x").data["blocks"] == kept


def test_settings_are_the_highlighting_options_not_addresses() -> None:
    """The same from one process to the next; only pymdownx.highlight's options count."""
    options = {"pymdownx.highlight": {"pygments_style": "monokai"}}
    one = Highlighter({**options, "x": {"format": os.path.join}})
    two = Highlighter(options)
    assert one.settings == two.settings and "0x" not in one.settings
    assert "monokai" in one.settings and Highlighter().settings != one.settings


def test_code_that_looks_like_html_stays_text() -> None:
    """A cited file is data: its `<script>` is shown, never run, and no tag of it survives."""
    block = Block("html", 1, (1, 1), ("</code></pre><script>alert(1)</script>",))
    html = Highlighter().html(block)
    assert "<script" not in html
    shown = re.sub(r"<[^>]+>", "", html)  # the text a reader sees, still escaped
    assert "&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in shown


def test_written_documents_are_the_held_ones_and_read_back_from_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Excerpt.of("a.go:1", Block("go", 1, (1, 1), ("func a() {}",)))
    second = Excerpt.of("b.go:2", Block("go", 2, (1, 1), ("func b() {}",)))
    files = {
        "a/excerpts.html": ExcerptFile("a", "A", [first]),
        "b/excerpts.html": ExcerptFile("b", "B", [second, first]),
    }
    kept = excerpts.documents(files, Highlighter())
    store = tmp_path / "cache"
    single = Highlighter(store=lambda s: ExcerptStore(store, s))
    written = excerpts.write_documents(files, single, tmp_path / "out")
    assert {uri: path.read_text() for uri, path in written.items()} == kept
    assert written["b/excerpts.html"] == tmp_path / "out" / "b" / "excerpts.html"
    made = counting_highlights(monkeypatch)
    again = Highlighter(store=lambda s: ExcerptStore(store, s))
    assert excerpts.documents(files, again) == kept and made == []  # read back


def test_render_out_writes_only_the_files_an_edit_changed(project: Path) -> None:
    """`register render --out` leaves a file whose bytes are those it would write alone,
    its modification time too (what MkDocs' `--dirty` and Zensical's differential builds
    read): after an edit of beta, alpha's page and excerpt file are as they were."""

    def render() -> dict[str, int]:
        result = CliRunner().invoke(main, ["render", "--out", "out", "--no-history"])
        assert result.exit_code == 0, result.output
        out = project / "out" / "registers"
        return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns for p in out.rglob("*.*")}

    first = render()
    beta = project / "registers" / "beta.yaml"
    beta.write_text(beta.read_text().replace("risk: None.", "risk: None at all."))
    second = render()
    same = {path for path, time in second.items() if first.get(path) == time}
    assert {"alpha.md", "alpha/excerpts.html", "health.md"} <= same
    assert "beta.md" not in same and "index.md" not in same


def test_a_rebuild_in_one_process_makes_only_the_excerpt_files_an_edit_changed(
    project: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Under `mkdocs serve` each build writes into the folder the last one wrote: an
    excerpt file made from the same excerpts, with the same settings, is not made again;
    one an edit changed is, the same to the byte as in a build into a new folder."""
    from compat_register import api

    made: list[str] = []
    document = Highlighter.document
    monkeypatch.setattr(
        Highlighter, "document", lambda self, file: made.append(file.slug) or document(self, file)
    )

    def built(folder: Path) -> dict[str, bytes]:
        made.clear()
        options = api.SiteOptions(excerpt_folder=folder, history=False)
        site = api.build_site(project / "registers", options, api.Settings.read())
        return {uri: path.read_bytes() for uri, path in site.excerpt_paths.items()}

    first = built(tmp_path / "served")
    assert made == ["alpha"]  # beta's one citation is in a note: no excerpt
    beta = project / "registers" / "beta.yaml"
    beta.write_text(beta.read_text().replace("risk: None.", "risk: None at all."))
    assert built(tmp_path / "served") == first and made == []
    alpha = project / "registers" / "alpha.yaml"
    alpha.write_text(
        alpha.read_text().replace("- internal/server.go:40\n", "- internal/server.go:41\n")
    )
    edited = built(tmp_path / "served")
    assert made == ["alpha"] and edited != first
    assert edited == built(tmp_path / "new")

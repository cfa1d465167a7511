"""An incremental site build is a cold one: after any sequence of edits, the site built
from the last build's memory (`site.rebuild.Memory`, what `mkdocs serve` keeps) is the site
a build from nothing makes, byte for byte (hypothesis picks the edits)."""

from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tiers
from compat_register import api
from gitrepo import GitRepo

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "basic" / "registers"
BROKEN = "title: Broken\nentries: [\n"
OPTIONS = api.SiteOptions(history=False)


class Project:
    """The golden registers pinned to a real checkout of two commits (the second moves
    the cited lines down), each edit a toggle: applied twice, it is undone."""

    def __init__(self, top: Path) -> None:
        repo = GitRepo(top / "impl")
        repo.write("internal/server.go", "".join(f"func line{n}() {{}}\n" for n in range(1, 61)))
        self.first = repo.commit("impl")
        repo.write(
            "internal/server.go", "// moved\n" + (repo.root / "internal/server.go").read_text()
        )
        self.second = repo.commit("move")
        self.root = top / "registers"
        shutil.copytree(GOLDEN, self.root)
        self.swap("sources.yaml", "abcdef1", self.first)
        self.environ = {"REGISTER_SOURCE_IMPL": str(repo.root), "REGISTER_CACHE": str(top / "c")}
        self.kept: dict[str, str] = {}

    def swap(self, name: str, old: str, new: str) -> None:
        path = self.root / name
        text = path.read_text()
        if old in text:
            path.write_text(text.replace(old, new, 1))
        else:
            path.write_text(text.replace(new, old, 1))

    def prose(self) -> None:
        self.swap("beta.yaml", "risk: None.\n", "risk: None at all.\n")

    def entry_title(self) -> None:
        self.swap("beta.yaml", "title: Cross-register\n", "title: Cross-register, renamed\n")

    def register_title(self) -> None:
        self.swap("alpha.yaml", "title: Alpha\n", "title: Alpha & <Omega>\n")

    def citation_moved(self) -> None:
        self.swap(
            "alpha.yaml", "      - internal/server.go:40\n", "      - internal/server.go:44\n"
        )

    def broken(self) -> None:
        path = self.root / "beta.yaml"
        if "beta" in self.kept:
            path.write_text(self.kept.pop("beta"))
        else:
            self.kept["beta"] = path.read_text()
            path.write_text(BROKEN)

    def revision_added(self) -> None:
        self.swap("sources.yaml", "2026-07-28]", "2026-07-28, 2027-01-01]")

    def pin_moved(self) -> None:
        self.swap("sources.yaml", self.first, self.second)

    def touched(self) -> None:
        path = self.root / "alpha.yaml"
        path.write_text(path.read_text())

    def build(self, last: api.SiteMemory | None = None) -> api.SiteBuilt:
        return api.build_site(self.root, OPTIONS, last, api.Settings.read(self.environ))


EDITS: list[Callable[[Project], None]] = [
    Project.prose,
    Project.entry_title,
    Project.register_title,
    Project.citation_moved,
    Project.broken,
    Project.revision_added,
    Project.pin_moved,
    Project.touched,
]


def same(warm: api.Site, cold: api.Site) -> None:
    assert warm.files() == cold.files()
    assert (warm.nav, warm.nav_pages) == (cold.nav, cold.nav_pages)
    assert (warm.diagnostics, warm.notices) == (cold.diagnostics, cold.notices)


@settings(
    max_examples=tiers.examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(st.sampled_from(EDITS), min_size=1, max_size=6))
def test_every_incremental_build_is_a_cold_build(edits: list[Callable[[Project], None]]) -> None:
    with tempfile.TemporaryDirectory() as top:
        project = Project(Path(top))
        built = project.build()
        for edit in edits:
            edit(project)
            built = project.build(built.memory)
            same(built.site, project.build().site)


def test_an_unchanged_project_gives_the_last_site_back(tmp_path: Path) -> None:
    project = Project(tmp_path)
    first = project.build()
    project.touched()
    again = project.build(first.memory)
    assert again.site == first.site
    assert again.site.pages is first.site.pages  # given back, not rendered again
    project.prose()
    assert project.build(first.memory).site.pages is not first.site.pages


def test_an_edit_renders_again_only_the_pages_it_changed(tmp_path: Path) -> None:
    """An edit of beta's risk: beta's page is rendered again, alpha's is the one kept."""
    project = Project(tmp_path)
    first = project.build()
    project.prose()
    second = project.build(first.memory)
    kept, renewed = second.memory.kept, first.memory.kept
    # alpha's page is the last build's text (its place in the download is this build's)
    assert kept["registers/alpha.md"].text is renewed["registers/alpha.md"].text
    assert kept["registers/beta.md"].text is not renewed["registers/beta.md"].text
    assert "None at all." in second.site.pages["registers/beta.md"]


def test_excerpt_files_written_to_a_folder_are_those_a_build_holds(tmp_path: Path) -> None:
    """With an excerpt folder (the plugin's, `register render`'s) each excerpt file is
    written as it is made and none is held: the same bytes as a build that holds them, and
    a rebuild writes again only the files whose excerpts changed, removing one no longer
    made."""
    project = Project(tmp_path)
    folder = tmp_path / "excerpts"
    options = dataclasses.replace(OPTIONS, excerpt_folder=folder)

    def written(last: api.SiteMemory | None = None) -> api.SiteBuilt:
        built = api.build_site(project.root, options, last, api.Settings.read(project.environ))
        assert built.site.excerpts == {}
        held = project.build().site
        assert {uri: p.read_text() for uri, p in built.site.excerpt_paths.items()} == held.excerpts
        assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html")) == sorted(
            held.excerpts
        )
        assert built.site.pages == held.pages
        return built

    first = written()
    alpha = folder / "registers" / "alpha" / "excerpts.html"
    made = alpha.stat().st_mtime_ns
    project.prose()  # beta's risk: alpha's excerpts are what they were
    second = written(first.memory)
    assert alpha.stat().st_mtime_ns == made
    assert second.memory.highlighter is not None
    assert second.memory.highlighter[1]._html == {}  # no block held once its file is written
    project.citation_moved()  # alpha's excerpt moves: its file is made again
    third = written(second.memory)
    assert alpha.stat().st_mtime_ns != made
    (project.root / "alpha.yaml").write_text(BROKEN)  # alpha does not load: its file goes
    written(third.memory)
    assert not alpha.exists()


def test_the_download_is_the_export_and_a_rebuild_dumps_only_what_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site's download is the register set as `Renderer.downloads` dumps it whole, to
    the byte; a rebuild dumps again only the registers whose pages it renders again."""
    from compat_register.reporting import export

    project = Project(tmp_path)
    project.register_title()  # a title with `&` and `<` in the JSON

    def whole() -> str:
        registers = api.check(project.root, api.Settings.read(project.environ)).registers
        return json.dumps(export.export(registers), ensure_ascii=False, indent=2) + "\n"

    first = project.build()
    assert first.site.downloads == {"registers/registers.json": whole()}
    dumped: list[str] = []
    data = export.register_data
    monkeypatch.setattr(
        export, "register_data", lambda r, b=None: dumped.append(r.slug) or data(r, b)
    )
    project.prose()  # beta's risk: alpha's part is the last build's
    second = project.build(first.memory)
    assert dumped == ["beta"]
    assert second.site.downloads == {"registers/registers.json": whole()}

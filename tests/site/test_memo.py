"""Pages kept between builds in one process (`site/memo.py`): after an edit of one register,
a page is rendered again when anything it shows changed, another register's page included,
and only then; every build gives the pages a build from nothing gives. No MkDocs."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import builder
from compat_register import api
from compat_register.reading import readmemo
from compat_register.reporting import export
from compat_register.site import jinja, memo, renderer
from compat_register.site.values import SiteOptions
from gitrepo import GitRepo

GAMMA = """title: Gamma
prefix: GAM
description: A register nothing references and that references nothing.
status: draft
created: 2026-01-01
last-updated: 2026-01-01
increment: 1
subject: impl
entries:
  - id: GAM-01
    title: Alone
    what: Says nothing of the others.
    status: {state: done, note: Done.}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources:
      - impl:internal/server.go:3
"""

EDITS = {
    "a title another register's page shows (a backlink to the register's summary)": (
        "alpha.yaml",
        "title: Alpha\n",
        "title: Alpha renamed\n",
        "registers/beta.md",
    ),
    "a reference removed (the referenced entry's page loses its backlink)": (
        "beta.yaml",
        "what: Points back at ALP-01..ALP-02.",
        "what: Points nowhere.",
        "registers/alpha.md",
    ),
}


@pytest.fixture
def registers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The golden registers and Gamma, pinned to a real checkout (so every citation has
    an outcome and an excerpt)."""
    repo, sha = builder.source(tmp_path / "impl", builder.IMPL, "impl")
    monkeypatch.setenv("REGISTER_SOURCE_IMPL", str(repo.root))
    folder = builder.golden(tmp_path, sha[:12])
    (folder / "gamma.yaml").write_text(GAMMA, encoding="utf-8")
    return folder


@pytest.fixture
def rendered(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Each page rendered from its template, counted by path (nothing kept from before)."""
    counted: Counter[str] = Counter()
    render = renderer.render_template

    def counting(env: Any, name: str, fmt: Any, **context: Any) -> str:
        counted[fmt.page] += 1
        return render(env, name, fmt, **context)

    monkeypatch.setattr(renderer, "render_template", counting)
    monkeypatch.setattr(memo, "KEPT", {})
    return counted


def from_nothing(registers: Path) -> api.Site:
    """The site built with no page and no register file's reading kept from an earlier
    build."""
    kept, read = dict(memo.KEPT), dict(readmemo._LAST)
    memo.KEPT.clear()
    readmemo._LAST.clear()
    try:
        return api.build_site(registers)
    finally:
        memo.KEPT.clear()
        memo.KEPT.update(kept)
        readmemo._LAST.clear()
        readmemo._LAST.update(read)


@pytest.mark.parametrize("kind", EDITS)
def test_an_edit_renders_again_the_pages_that_show_it_and_no_other(
    registers: Path, rendered: Counter[str], kind: str
) -> None:
    file, old, new, shown = EDITS[kind]
    first = api.build_site(registers)
    assert rendered["registers/gamma.md"] == 1
    text = (registers / file).read_text(encoding="utf-8")
    assert old in text
    (registers / file).write_text(text.replace(old, new), encoding="utf-8")
    rendered.clear()
    second = api.build_site(registers)
    assert second.pages[shown] != first.pages[shown]  # another register's page changed
    assert rendered[shown] == 1
    assert rendered[f"registers/{file.removesuffix('.yaml')}.md"] == 1
    assert rendered["registers/gamma.md"] == 0  # unrelated: kept
    assert rendered["registers/health/gamma.md"] == 0
    again = from_nothing(registers)
    assert second.pages == again.pages
    assert second.excerpts == again.excerpts
    assert second.downloads == again.downloads != first.downloads


def test_a_kept_page_is_the_page_a_build_from_nothing_gives(
    registers: Path, rendered: Counter[str]
) -> None:
    """Nothing edited: every register page and health page is kept, byte for byte."""
    first = api.build_site(registers)
    rendered.clear()
    second = api.build_site(registers)
    kept = [page for page in first.pages if page.startswith(("registers/alpha", "registers/beta"))]
    assert kept
    assert not any(rendered[page] for page in kept)
    assert not any(rendered[f"registers/health/{slug}.md"] for slug in ("alpha", "beta", "gamma"))
    assert second.pages == first.pages == from_nothing(registers).pages
    assert second.excerpts == first.excerpts
    exported = export.export(api.check(registers).registers)  # each register's part kept
    assert (
        second.downloads["registers/registers.json"]
        == json.dumps(exported, ensure_ascii=False, indent=2) + "\n"
    )


def test_a_changed_outcome_renders_the_page_again(
    registers: Path, rendered: Counter[str], tmp_path: Path
) -> None:
    """A cited file changed at a new pin (sources.yaml, which every page is made of): the
    citing page and its health page follow, though no register file changed."""
    first = api.build_site(registers)
    impl = GitRepo(tmp_path / "impl")
    impl.write("internal/server.go", builder.IMPL["internal/server.go"].replace("line3(", "x3("))
    sha = impl.commit("edit")
    builder.edit_sources(registers, first_pin(registers), sha[:12])
    rendered.clear()
    second = api.build_site(registers)
    assert rendered["registers/gamma.md"] == 1
    assert rendered["registers/health/gamma.md"] == 1
    assert second.pages["registers/gamma.md"] != first.pages["registers/gamma.md"]
    assert second.pages == from_nothing(registers).pages


def first_pin(registers: Path) -> str:
    """The pin sources.yaml gives `impl`."""
    text = (registers / "sources.yaml").read_text(encoding="utf-8")
    return text.split("commit: ")[-1].split()[0].strip(",}")


META_EDITS = {
    "a value's type (1 and true are equal to Python)": (
        "_meta: {flag: 1}\n",
        "_meta: {flag: true}\n",
    ),
    "the keys' order (a dict's == ignores it)": ("_meta: {a: 1, b: 2}\n", "_meta: {b: 2, a: 1}\n"),
}


@pytest.mark.parametrize("kind", META_EDITS)
def test_a_meta_edit_a_loose_equality_misses_is_printed(
    registers: Path, rendered: Counter[str], tmp_path: Path, kind: str
) -> None:
    """`_meta` is printed as written (the download, a site's own template): an edit that
    Python's `==` does not see still makes the page and the download again."""
    templates = tmp_path / "templates"
    templates.mkdir()
    template = (Path(jinja.__file__).parent / "templates" / "register.md.j2").read_text()
    (templates / "register.md.j2").write_text(template + "\nMeta: {{ register.meta | tojson }}\n")
    options = SiteOptions(templates=templates)
    old, new = META_EDITS[kind]
    gamma = registers / "gamma.yaml"
    text = gamma.read_text(encoding="utf-8")
    gamma.write_text(text.replace("entries:\n", old + "entries:\n", 1), encoding="utf-8")
    api.build_site(registers, options)
    gamma.write_text(text.replace("entries:\n", new + "entries:\n", 1), encoding="utf-8")
    second = api.build_site(registers, options)
    kept = dict(memo.KEPT)
    memo.KEPT.clear()
    again = api.build_site(registers, options)
    memo.KEPT.update(kept)
    assert second.downloads == again.downloads
    assert second.pages["registers/gamma.md"] == again.pages["registers/gamma.md"]
    assert "Meta: {" in second.pages["registers/gamma.md"]


LISTING = ("registers/index.md", "registers/priorities.md", "registers/revisions/index.md")
"""The pages that list every entry: the overview, the priorities, the revision matrix."""
LISTED_EDITS = {
    "an entry's what (on its register's page alone)": (
        "what: Says nothing of the others.",
        "what: Says nothing of the others, at length.\n    detail: And more.",
        False,
    ),
    "an entry's title": ("title: Alone", "title: Alone renamed", True),
    "an entry's risk": ("risk: None.", "risk: Some.", True),
    "an entry's state": ("state: done, note: Done.", "state: partial, note: Half.", True),
    "the register's title": ("title: Gamma", "title: Gamma renamed", True),
}


@pytest.mark.parametrize("kind", LISTED_EDITS)
def test_the_listing_pages_are_drawn_again_when_what_they_show_changes(
    registers: Path, rendered: Counter[str], kind: str
) -> None:
    old, new, shown = LISTED_EDITS[kind]
    first = api.build_site(registers)
    gamma = registers / "gamma.yaml"
    assert old in gamma.read_text(encoding="utf-8")
    gamma.write_text(gamma.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    rendered.clear()
    second = api.build_site(registers)
    assert [rendered[page] for page in LISTING] == [int(shown)] * len(LISTING)
    assert second.pages == from_nothing(registers).pages
    assert (second.pages["registers/index.md"] != first.pages["registers/index.md"]) == shown


def test_a_sites_own_templates_draw_the_listing_pages_every_time(
    registers: Path, rendered: Counter[str], tmp_path: Path
) -> None:
    """A site's template may show any field of an entry, its `what` too."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "overview.md.j2").write_text(
        "# Registers\n{% for r in registers %}{% for e in r.entries %}\n- {{ e.what }}"
        "{% endfor %}{% endfor %}\n",
        encoding="utf-8",
    )
    options = SiteOptions(templates=templates)
    api.build_site(registers, options)
    gamma = registers / "gamma.yaml"
    gamma.write_text(
        gamma.read_text(encoding="utf-8").replace("Says nothing", "Says little"), encoding="utf-8"
    )
    rendered.clear()
    second = api.build_site(registers, options)
    assert rendered["registers/index.md"] == 1
    assert "Says little of the others." in second.pages["registers/index.md"]

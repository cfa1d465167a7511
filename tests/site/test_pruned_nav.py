"""A register's own health page, in no nav, is drawn with the nav pruned to its top-level
items (`plugin.pruned_nav`); every page of the nav keeps the whole nav (issue 25)."""

from __future__ import annotations

import importlib.util
import re
import sys
from html import unescape
from pathlib import Path
from posixpath import normpath
from urllib.parse import urljoin

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File
from mkdocs.structure.nav import Link, Navigation, Section
from mkdocs.structure.pages import Page

from compat_register.plugin import first_url, pruned_nav
from test_plugin import CONFIG, build, html, make_site, nav_html

ENTRY = re.compile(
    r'<a href="([^"]*)" class="md-nav__link[^"]*">\s*<span class="md-ellipsis">\s*(.*?)\s*</span>',
    re.S,
)
"""An entry of material's sidebar that is a link: its href and its title."""


def links(root: Path, page: str) -> list[tuple[str, str, str]]:
    """(title, href, the page of the site it goes to) of each link of a built page's
    sidebar, in order; a link to an anchor of the page itself is left out."""
    found = []
    for href, title in ENTRY.findall(nav_html(root, page)):
        if not href.startswith("#"):
            target = normpath(urljoin(f"/{page}/", unescape(href))).strip("/")
            found.append((unescape(title), href, target))
    return found


def entries(root: Path, page: str) -> list[tuple[str, str]]:
    """(title, the page it goes to) of each link of a built page's sidebar."""
    return [(title, target) for title, _, target in links(root, page)]


@pytest.fixture(scope="module", params=[True, False], ids=["nav", "no-nav"])
def pruned_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin tests' site, built, with the plugin's nav section appended to a nav, or
    with no nav (MkDocs lists the pages by folder)."""
    root = make_site(tmp_path_factory.mktemp("pruned"), nav=request.param)
    done = build(root)
    assert done.returncode == 0, done.stderr
    return root


def test_a_registers_own_health_page_draws_only_the_top_level(pruned_site: Path) -> None:
    """Home, Legend and the registers' section as a link to its first page, the overview:
    no register's entry; each link goes to a page the build made."""
    shown = entries(pruned_site, "registers/health/alpha")
    assert shown == [("Home", ""), ("Legend", "legend"), ("Registers", "registers")]
    for _, target in shown:
        assert (pruned_site / "site" / target / "index.html").is_file(), target
    assert "data-reg-filters" in html(pruned_site, "registers")  # the overview, the section's first
    assert "md-nav__item--nested" not in nav_html(pruned_site, "registers/health/alpha")


def test_a_link_of_the_pruned_nav_is_the_link_the_whole_nav_gives(pruned_site: Path) -> None:
    """The theme's `url` filter makes a section's link relative to the page as it makes a
    page's: a revision's page, as deep as a register's own health page, links the home
    page and the overview by the same hrefs in the whole nav."""
    pruned = {target: href for _, href, target in links(pruned_site, "registers/health/alpha")}
    whole = {
        target: href for _, href, target in links(pruned_site, "registers/revisions/2024-11-05")
    }
    assert pruned["registers"] == whole["registers"] == "../../"
    assert pruned[""] == whole[""] == "../../.."


def test_a_page_of_the_nav_keeps_the_whole_nav(pruned_site: Path) -> None:
    """A register's page, and the health page, list every register and every page of the
    registers' section, and the same pages as each other."""
    pages = {target for _, target in entries(pruned_site, "registers/alpha")}
    expected = {"registers/alpha", "registers/beta", "registers/health", "registers/priorities"}
    assert expected <= pages
    assert pages == {target for _, target in entries(pruned_site, "registers/health")}
    assert "registers/health/alpha" not in pages


def test_a_health_page_a_hand_written_nav_names_keeps_the_whole_nav(tmp_path: Path) -> None:
    """A nav that names a register's own health page puts it in the nav: it is drawn with
    the whole nav; the other register's, still in no nav, with the pruned one."""
    root = make_site(tmp_path, nav=False)
    nav = (
        "nav:\n  - Home: index.md\n  - Registers:\n    - registers/index.md\n"
        "    - Alpha health: registers/health/alpha.md\n    - registers/alpha.md\n"
    )
    (root / "mkdocs.yml").write_text(CONFIG + nav)
    done = build(root)
    assert done.returncode == 0, done.stderr
    named = [target for _, target in entries(root, "registers/health/alpha")]
    assert named == ["", "registers", "registers/health/alpha", "registers/alpha"]
    assert entries(root, "registers/health/beta") == [("Home", ""), ("Registers", "registers")]


@pytest.mark.skipif(
    importlib.util.find_spec("properdocs") is None, reason="properdocs is not installed"
)
def test_properdocs_draws_the_pruned_nav_alike(tmp_path: Path) -> None:
    root = make_site(tmp_path)
    done = build(root, sys.executable, "-m", "properdocs")
    assert done.returncode == 0, done.stderr
    shown = entries(root, "registers/health/alpha")
    assert shown == [("Home", ""), ("Legend", "legend"), ("Registers", "registers")]


@pytest.fixture
def config(tmp_path: Path) -> MkDocsConfig:
    config = MkDocsConfig()
    config.load_dict({"site_name": "test", "docs_dir": str(tmp_path)})
    failed, _ = config.validate()
    assert not failed
    return config


def page(config: MkDocsConfig, uri: str) -> Page:
    file = File(uri, src_dir=config.docs_dir, dest_dir=config.site_dir, use_directory_urls=True)
    return Page(None, file, config)


def test_each_section_is_a_link_to_its_first_page_nested_ones_read_in_order(
    config: MkDocsConfig,
) -> None:
    home, deep, later = page(config, "index.md"), page(config, "a/b/c.md"), page(config, "a/d.md")
    outside = Link("Elsewhere", "https://example.org/")
    nav = [
        home,
        Section("A", [Section("Empty", []), Section("B", [deep]), later]),
        outside,
        Section("Nothing", [Section("Still nothing", [])]),
        Section("Links", [Section("None here", []), Link("Out", "https://example.com/")]),
    ]
    made = pruned_nav(Navigation(nav, [])).items
    assert made[0] is home and made[2] is outside  # pages and links as they are
    assert [(type(i).__name__, i.title, i.url) for i in made] == [
        ("Page", None, ""),
        ("Link", "A", "a/b/c/"),
        ("Link", "Elsewhere", "https://example.org/"),
        ("Link", "Links", "https://example.com/"),
    ]
    assert [c.title for c in nav[1].children] == ["Empty", "B", None]  # not changed


def test_a_section_holding_nothing_leads_nowhere(config: MkDocsConfig) -> None:
    assert first_url(Section("Empty", [Section("Empty too", [])])) is None
    assert pruned_nav(Navigation([Section("Empty", [])], [])).items == []


def test_the_pruned_nav_keeps_the_pages_and_the_home_page(config: MkDocsConfig) -> None:
    home, other = page(config, "index.md"), page(config, "other/page.md")
    nav = Navigation([home, Section("Other", [other])], [home, other])
    made = pruned_nav(nav)
    assert made.pages == [home, other] and made.homepage is home
    assert [(i.title, i.url) for i in made.items[1:]] == [("Other", "other/page/")]

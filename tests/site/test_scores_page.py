"""The Scores page: a section per subject with recorded results (a table per revision's
requirement set, the not-scored scenarios, the SEPs' pass rates), listed in the nav after
the Matrix; none without a suite source or a record; offline it says so. Built by MkDocs
strict, a hostile scenario name stays text."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import axecheck
import browsing
import builder
from compat_register import api
from compat_register.cli import main
from engines import build_with, config
from gitrepo import GitRepo
from suiterepo import FILES, SET_2026, results, suite, suite_sources

HOSTILE = "<img src=x onerror=alert(1)>"
RUNS = {
    ("server", "server-stateless"): [("server-stateless", "SUCCESS")],
    ("server", "tools-list"): [("tools-list", "SUCCESS")],
    ("server", "prompts-list"): [("prompts-list", "FAILURE")],
    ("server", "resources-list"): [
        ("resources-list", "SUCCESS"),
        ("sep-2243-server-reject-invalid-headers", "SUCCESS"),
    ],
    ("server", "caching"): [("caching", "SUCCESS")],
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A site whose subject `srv` has RUNS recorded; the suite's 2026-07-28 set does not
    score a scenario named HOSTILE."""
    hostile = SET_2026 + f"  - scenario: '{HOSTILE}'\n    leg: server\n    reason: pending\n"
    _, pin = suite(tmp_path / "suite", {**FILES, "requirements/2026-07-28.yaml": hostile})
    folder = tmp_path / "site" / "registers"
    builder.registers(folder, suite_sources(pin, "path: ../../suite"))
    builder.site(tmp_path / "site", config("mkdocs", "scores"))
    results(tmp_path / "results", RUNS)
    args = ["conformance", "import", "--registers", str(folder), "--subject", "srv"]
    done = CliRunner().invoke(main, [*args, str(tmp_path / "results")])
    assert done.exit_code == 0, done.output
    return tmp_path / "site"


def test_the_scores_page_has_a_section_per_subject_and_a_nav_entry(project: Path) -> None:
    site = api.build_site(project / "registers")
    page = site.pages["registers/scores.md"]
    assert "## Server srv" in page
    assert "| 2026-07-28 | 80.0 % | Tier 2 | 4 | 1 | 0 | 5 (server) |" in page
    assert "| SEP-2243 | 100.0 % | 1 | 0 | 2 | 3 |" in page
    assert "- `auth/dpop` (client): extension; not run" in page
    assert "requirement set (MCP conformance suite at " in page
    assert [next(iter(item)) for item in site.nav][:2] == ["Overview", "Scores"]
    assert "registers/scores.md" in site.nav_pages


def test_a_malformed_suite_file_is_named_on_the_page_at_its_line(project: Path) -> None:
    repo = GitRepo(project.parent / "suite")
    repo.write("requirements/2025-11-25.yaml", "server: ping\n")
    builder.edit_sources(project / "registers", repo.git("rev-parse", "HEAD"), repo.commit())
    page = api.build_site(project / "registers").pages["registers/scores.md"]
    located = "suite:requirements/2025-11-25.yaml:1:9: error: 2025-11-25: 'server' is a list"
    assert located in page.replace("\\", "")
    assert "| 2026-07-28 | 80.0 % |" in page  # the other set is scored all the same


def test_no_page_without_a_record_and_offline_it_says_so(project: Path) -> None:
    offline = api.build_site(project / "registers", api.SiteOptions(verify=False))
    assert (
        "an offline build: the suite's requirement files were not read"
        in (offline.pages["registers/scores.md"])
    )
    (project / "registers" / "conformance" / "srv.json").unlink()
    site = api.build_site(project / "registers")
    assert "registers/scores.md" not in site.pages
    assert "Scores" not in [next(iter(item)) for item in site.nav]


def test_mkdocs_builds_it_strict_a_hostile_name_as_text_and_axe_finds_nothing(  # type: ignore[no-untyped-def]
    project: Path, browser, axe_script: str
) -> None:
    from selenium.webdriver.common.by import By

    build_with("mkdocs", project)
    html = (project / "site" / "registers" / "scores" / "index.html").read_text("utf-8")
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "Tier 2" in html
    for base in browsing.served(project / "site"):
        for scheme, width in (("default", 1400), ("slate", 390)):
            browser.set_window_size(width, 1000)
            browser.get(base + "registers/scores/")
            browsing.wait(lambda: browser.find_elements(By.CSS_SELECTOR, "article h1"))
            axecheck.set_scheme(browser, scheme)
            found = axecheck.violations(browser, axe_script)
            assert not found, axecheck.describe(found)

"""The Coverage pages in a browser: a site on a spec-shaped repository (tests/specrepo.py),
built by `mkdocs build --strict`, read by headless Chromium: the filters, the links, and
the same axe-core check as every other page (tests/site/test_browser.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_browser import axe_at

import axecheck
import browsing
import builder
import tiers
from browsing import built_and_served, wait
from compat_register.site.extensions import mkdocs_yaml
from sites import EXCERPT_SITE
from specrepo import NEW, OLD, registers_for, spec_repo

pytestmark = browsing.needs_chromium

PAGES = [
    "registers/coverage/",
    f"registers/coverage/{NEW}/",
    f"registers/coverage/{NEW}/basic-index/",
    f"registers/coverage/{OLD}/schema/",
    f"registers/revisions/{NEW}/",
    "registers/t/",
]


@pytest.fixture(scope="module")
def coverage_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("coverage-site")
    repo, commit = spec_repo(root / "spec")
    registers_for(root / "registers", commit)
    builder.site(root, EXCERPT_SITE + mkdocs_yaml())
    env = {"REGISTER_SOURCE_SPEC": str(repo.root), "REGISTER_CACHE": str(root / "cache")}
    yield from built_and_served(root, env)


def rows(browser) -> list[dict[str, str]]:  # type: ignore[no-untyped-def]
    """Every statement row shown, as {column: text}."""
    return list(
        browser.execute_script(
            "return Array.from(document.querySelectorAll('table[data-reg-sortable] tbody tr'))"
            ".filter(r => !r.hidden).map(r => Object.fromEntries(Array.from(r.cells)"
            ".map(c => [c.getAttribute('data-label'), c.textContent.trim()])))"
        )
    )


def test_the_summary_links_each_revision_and_the_overview_links_it(
    coverage_site: str, browser
) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(coverage_site + "registers/")
    link = browser.find_element(By.PARTIAL_LINK_TEXT, "coverage")
    assert link.get_attribute("href").endswith("/registers/coverage/")
    browser.get(coverage_site + "registers/coverage/")
    cells = browser.execute_script(
        "return Array.from(document.querySelectorAll('article table tbody tr'))"
        ".map(r => Array.from(r.cells).slice(0, 6).map(c => c.textContent.trim()))"
    )
    assert cells == [
        [OLD, "5", "1", "0", "0", "4"],
        [NEW, "6", "1", "1", "0", "4"],
    ]
    bars = browser.find_elements(By.CSS_SELECTOR, "article svg.reg-bar title")
    assert [b.get_attribute("textContent") for b in bars][1] == (
        f"{NEW}: 1 cited, 1 excluded, 4 uncovered"
    )


def test_a_revision_s_page_groups_by_file_and_heading_and_filters(
    coverage_site: str, browser
) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(coverage_site + f"registers/coverage/{NEW}/")
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "article h2, article h3")]
    assert headings == ["Needs a look", "Files"]
    files = browser.find_elements(By.CSS_SELECTOR, "#files ~ div table tbody tr td:first-child a")
    assert [(f.text, f.get_attribute("href")[len(coverage_site) :]) for f in files] == [
        ("basic/index.mdx", f"registers/coverage/{NEW}/basic-index/"),
        ("schema.ts", f"registers/coverage/{NEW}/schema/"),
    ]
    files[0].click()
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "article h1, article h2")]
    assert headings == [f"basic/index.mdx in {NEW}", "Messages"]
    assert len(rows(browser)) == 5
    Select(
        browser.find_element(By.CSS_SELECTOR, "select[data-filter='State']")
    ).select_by_visible_text("uncovered")
    shown = rows(browser)
    assert {r["State"] for r in shown} == {"uncovered"} and len(shown) == 4
    assert browser.find_element(By.CSS_SELECTOR, "[data-reg-shown]").text == "4 of 5 statements"
    Select(
        browser.find_element(By.CSS_SELECTOR, "select[data-filter='Keyword']")
    ).select_by_visible_text("MAY")
    assert rows(browser) == []
    Select(
        browser.find_element(By.CSS_SELECTOR, "select[data-filter='State']")
    ).select_by_visible_text("excluded")
    (excluded,) = rows(browser)
    assert excluded["Covered by"] == "Cancellation is the host's, not the proxy's. (link)"
    assert "state=excluded" in browser.current_url and "keyword=MAY" in browser.current_url


def test_a_cited_statement_links_its_entry_and_its_lines(coverage_site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(coverage_site + f"registers/coverage/{OLD}/basic-index/")
    link = browser.find_element(By.LINK_TEXT, "T-01")
    assert link.get_attribute("href").endswith("/registers/t/#t-01")
    (cited,) = [r for r in rows(browser) if r["State"] == "cited"]
    assert cited == {
        "Lines": "12-13", "Keyword": "MUST", "Statement": "Requests MUST include an integer ID.",
        "State": "cited", "Covered by": "T-01",
    }  # fmt: skip


def test_an_entry_lists_the_statements_it_covers(coverage_site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(coverage_site + "registers/t/")
    text = browser.find_element(By.CSS_SELECTOR, "article").text
    assert f"{OLD} {OLD}/basic/index.mdx:12-13 MUST: Requests MUST include an integer ID." in text
    link = browser.find_element(By.LINK_TEXT, OLD)
    assert link.get_attribute("href").endswith(f"/registers/coverage/{OLD}/basic-index/")


def test_a_revision_page_lists_its_changelog_with_the_entries_covering_it(
    coverage_site: str, browser
) -> None:  # type: ignore[no-untyped-def]
    browser.get(coverage_site + f"registers/revisions/{NEW}/")
    items = browser.execute_script(
        "return Array.from(document.querySelectorAll('#changelog ~ ul li'))"
        ".map(li => li.textContent.trim().replace(/\\s+/g, ' '))"
    )
    assert items == ["IDs may be strings (SEP-12). — T-01", "Cancellation (PR #40). — no entry"]


LONGER = "2026-07-28/basic/authorization/authorization-server-discovery/"
"""Put before each file heading's path: longer than the MCP spec's longest path shown."""


def test_a_file_heading_breaks_on_a_phone_by_the_register_css_alone(
    coverage_site: str, browser
) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.set_window_size(390, 844)
    try:
        browser.get(coverage_site + f"registers/coverage/{NEW}/basic-index/")
        wait(lambda: browser.find_elements(By.CSS_SELECTOR, "article h1.reg-file code"))
        browser.execute_script(  # material's own breaking set aside: another theme has none
            "var s = document.createElement('style');"
            "s.textContent = '.md-typeset, .md-typeset code"
            " { overflow-wrap: normal; word-break: normal; }';"
            "document.head.appendChild(s);"
            "document.querySelectorAll('article h1.reg-file code')"
            ".forEach(c => { c.textContent = arguments[0] + c.textContent; });",
            LONGER,
        )
        width, page, beyond = browser.execute_script(
            "var heads = document.querySelectorAll('article h1.reg-file');"
            "return [document.documentElement.clientWidth, document.documentElement.scrollWidth,"
            " Array.from(heads).map(h => h.scrollWidth - h.clientWidth)];"
        )
    finally:
        browser.set_window_size(1400, 1000)
    assert len(beyond) == 1 and all(pixels <= 0 for pixels in beyond), beyond
    assert page <= width, "nothing to scroll sideways"


@pytest.mark.parametrize("page", PAGES)
def test_nothing_scrolls_sideways_on_a_phone(coverage_site: str, browser, page: str) -> None:  # type: ignore[no-untyped-def]
    width, scrolled = browsing.page_widths(browser, coverage_site + page)
    assert scrolled <= width


@pytest.mark.parametrize("width", [1400, 390])
def test_a_revision_s_date_is_never_broken_over_two_lines(
    coverage_site: str, browser, width: int
) -> None:  # type: ignore[no-untyped-def]
    """Every revision name on the Coverage pages keeps to one line (`2024-11-` / `05`
    read as two); the summary's table is squeezed to show that it would break."""
    browser.set_window_size(width, 844)
    try:
        broken = {}
        for page in PAGES[:3]:
            browser.get(coverage_site + page)
            browser.execute_script(  # the narrowest the cells get: a column of one date
                "document.querySelectorAll('article td:first-child')"
                ".forEach(td => { td.style.width = '1px'; });"
            )
            broken[page] = browser.execute_script(
                "return Array.from(document.querySelectorAll('article a, article span'))"
                ".filter(e => /^\\d{4}-\\d\\d-\\d\\d$/.test(e.textContent.trim()))"
                ".filter(e => e.getClientRects().length > 1).map(e => e.textContent)"
            )
    finally:
        browser.set_window_size(1400, 1000)
    assert broken == dict.fromkeys(PAGES[:3], [])


@pytest.mark.parametrize(
    "page, scheme, width", tiers.diagonal(PAGES, ["default", "slate"], [1400, 390])
)
def test_no_serious_axe_violation(
    coverage_site: str, browser, page: str, scheme: str, width: int
) -> None:  # type: ignore[no-untyped-def]
    violations = axe_at(browser, axecheck.script(), coverage_site + page, scheme, width)
    assert not violations, axecheck.describe(violations)


def test_statements_are_searched_on_their_page_not_in_the_site_s_search(
    coverage_site: str, browser
) -> None:  # type: ignore[no-untyped-def]
    """The statements are left out of the site's search index (they were most of it): the
    search box finds an entry's quote of a statement, not the Coverage pages; the Words
    box of a file's page finds the statement's row."""
    from selenium.webdriver.common.by import By

    found = browsing.search(browser, coverage_site, "MUST")
    assert any("/registers/t/" in href for href in found), found
    assert not any("/registers/coverage/" in href for href in found), found
    browser.get(coverage_site + f"registers/coverage/{NEW}/basic-index/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    browser.find_element(By.CSS_SELECTOR, "input[data-filter-words]").send_keys("Reply 30")
    (row,) = wait(lambda: len(rows(browser)) == 1 and rows(browser))
    assert row["Statement"].startswith("Servers SHOULD reply within 30 seconds."), row
    assert browser.find_element(By.CSS_SELECTOR, "[data-reg-shown]").text == "1 of 5 statements"
    assert "words=Reply+30" in browser.current_url  # a search that can be shared

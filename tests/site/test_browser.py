"""The built site in headless Chromium: search, cross-references, permalinks, the overview
table, and an entry that tries to run a script.

The repository's own site (docs/, registers/, mkdocs.yml) plus one hostile register is built
into a tmp dir and served by `python -m http.server` on 127.0.0.1. Needs Debian's chromium
and chromium-driver (`.ci/run` installs them); skipped with a reason when they are absent.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from test_problems import with_mistakes

import axecheck
import browsing
import tiers
from browsing import built_and_served, search, wait
from sites import EDGE_CITATIONS

SPEC = "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/"
SPEC_COMMIT = "b0f60ba5409db7a6582440a7b473cc0398890f15"

pytestmark = browsing.needs_chromium


@pytest.fixture(scope="module")
def problem_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A new project (`register init`) whose register still loads but holds three mistakes,
    built as `mkdocs serve` builds (not strict), served."""
    root = with_mistakes(tmp_path_factory.mktemp("problems"))
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")  # both schemes, as a site has
    palette = "  palette:\n    - scheme: default\n    - scheme: slate\n"
    (root / "mkdocs.yml").write_text(config.replace("  features:", palette + "  features:", 1))
    strict = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(root / "strict")],
        cwd=root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
    )
    assert strict.returncode == 1, "a strict build must still fail on the mistakes"
    yield from built_and_served(root, strict=False)


@pytest.mark.parametrize("query", ["META-07", "traceparent"])
def test_search_shows_the_entry_first(site: str, browser, query: str) -> None:  # type: ignore[no-untyped-def]
    results = search(browser, site, query)
    sections = [href for href in results if "#" in href]
    # The first group is the register page, and its first section is the entry.
    assert results[0].split("?")[0] == site + "registers/meta/"
    assert sections[0].endswith("#meta-07"), results


@pytest.mark.parametrize(
    "query, anchor",
    [
        ("internal/mcpserver/conn.go", "#meta-04"),
        ("io.modelcontextprotocol/protocolVersion", "#meta-06"),
    ],
)
def test_search_finds_paths_and_dotted_keys(site: str, browser, query: str, anchor: str) -> None:  # type: ignore[no-untyped-def]
    results = search(browser, site, query)
    assert any(href.endswith(anchor) for href in results), results


MARKS = (
    "return Array.from(document.querySelectorAll('.md-content mark[data-md-highlight]'))"
    ".map(m => [m.textContent, m.parentNode.textContent])"
)


def test_search_highlights_an_id_only_where_it_is_written(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    results = search(browser, site, "META-07")
    assert "h=meta+07" in results[0], results  # what material hands the page
    browser.get(results[0].split("#")[0] + "#meta-07")
    # Material marks once its search index has loaded; the page then trims the marks.
    wait(lambda: browser.execute_script(MARKS))
    time.sleep(0.5)
    marks = browser.execute_script(MARKS)
    assert {text.lower() for text, _ in marks} == {"meta", "07"}
    assert all("meta-07" in parent.lower() for _, parent in marks), marks
    dates = browser.execute_script(
        "return Array.from(document.querySelectorAll('.md-content *'))"
        ".filter(e => e.children.length === 0 && e.textContent.includes('2026-07-28')).length"
    )
    assert dates  # the page writes the date, and no "07" of it is marked:
    assert not any("2026-07-28" in parent and text == "07" for text, parent in marks)


def test_search_highlights_other_words_everywhere(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    browser.get(site + "registers/meta/?h=traceparent+meta+07")
    wait(lambda: browser.execute_script(MARKS))
    time.sleep(0.5)
    words = [text.lower() for text, _ in browser.execute_script(MARKS)]
    assert words.count("traceparent") > 1 and "07" in words


def test_cross_reference_lands_on_its_anchor(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(site + "registers/meta/")
    link = browser.find_element(By.CSS_SELECTOR, "#meta-02 ~ ul a[href='#meta-03']")
    browser.execute_script("arguments[0].click()", link)
    wait(lambda: browser.current_url.endswith("#meta-03"))
    top = browser.execute_script(
        "return document.getElementById('meta-03').getBoundingClientRect().top"
    )
    assert 0 <= top < 200  # scrolled to the heading (below material's sticky header)


def test_source_link_is_the_pinned_permalink(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(site + "registers/meta/")
    link = browser.find_element(By.LINK_TEXT, "2026-07-28/basic/index.mdx:421")
    expected = f"{SPEC}{SPEC_COMMIT}/docs/specification/2026-07-28/basic/index.mdx#L421"
    assert link.get_attribute("href") == expected


def visible_ids(browser) -> list[str]:  # type: ignore[no-untyped-def]
    return browser.execute_script(
        "var table = document.querySelector('table[data-reg-sortable]');"
        "return Array.from(table.tBodies[0].rows).filter(r => !r.hidden)"
        ".map(r => r.cells[0].textContent.trim());"
    )


def sort_button(browser, column: str):  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    return browser.find_element(
        By.XPATH, f"//table[@data-reg-sortable]//th/button[normalize-space()='{column}']"
    )


def aria_sort(browser, column: str) -> str | None:  # type: ignore[no-untyped-def]
    return sort_button(browser, column).find_element("xpath", "..").get_attribute("aria-sort")


def test_overview_sorts_and_filters(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(site + "registers/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    assert visible_ids(browser)[:2] == ["GOMETA-01", "GOMETA-02"]
    sort_button(browser, "ID").click()
    sort_button(browser, "ID").click()  # the second click sorts descending
    assert visible_ids(browser)[:2] == ["XSS-01", "PYSDK-08"]
    assert aria_sort(browser, "ID") == "descending"
    Select(
        browser.find_element(By.CSS_SELECTOR, "select[data-filter='Register']")
    ).select_by_visible_text("_meta")
    Select(
        browser.find_element(By.CSS_SELECTOR, "select[data-filter='State']")
    ).select_by_visible_text("missing")
    assert sorted(visible_ids(browser)) == ["META-07", "META-09"]
    shown = browser.find_element(By.CSS_SELECTOR, "[data-reg-shown]")
    assert shown.text == "2 of 31 entries"
    assert shown.get_attribute("role") == "status"  # a live region: announced on change
    tag = Select(browser.find_element(By.CSS_SELECTOR, "select[data-filter='Tags']"))
    tag.select_by_visible_text("area:compare")
    assert sorted(visible_ids(browser)) == ["META-07", "META-09"]


def test_overview_sorts_by_keyboard(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(site + "registers/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    assert aria_sort(browser, "State") is None
    # Tab from the last filter reaches the first column header's button, then the next.
    browser.find_element(By.CSS_SELECTOR, "select[data-filter='Tags']").send_keys(Keys.TAB)
    focused = browser.switch_to.active_element
    assert focused.tag_name == "button" and focused.text.strip() == "ID"
    for _ in range(3):  # ID -> Title -> Register -> State
        focused.send_keys(Keys.TAB)
        focused = browser.switch_to.active_element
    assert focused.text.strip() == "State"
    focused.send_keys(Keys.ENTER)
    assert aria_sort(browser, "State") == "ascending"
    states = browser.execute_script(
        "return Array.from(document.querySelectorAll('table[data-reg-sortable] tbody tr'))"
        ".map(r => r.cells[3].textContent.trim());"
    )
    assert states == sorted(states, key=["done", "partial", "missing", "n/a", "unknown"].index)
    browser.switch_to.active_element.send_keys(Keys.SPACE)
    assert aria_sort(browser, "State") == "descending"
    assert visible_ids(browser)[0] == "GOMETA-07"  # unknown first
    assert "sort=state&order=descending" in browser.current_url


def test_overview_keeps_sort_and_filter_in_the_url(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(site + "registers/?sort=id&order=descending&state=missing")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    assert visible_ids(browser) == [
        "XSS-01", "META-09", "META-07", "GOMETA-06", "GOMETA-02", "EVERY-04", "EVERY-01"
    ]  # fmt: skip
    assert aria_sort(browser, "ID") == "descending"
    state = Select(browser.find_element(By.CSS_SELECTOR, "select[data-filter='State']"))
    assert state.first_selected_option.text == "missing"
    state.select_by_visible_text("all")
    assert "state=" not in browser.current_url and "sort=id" in browser.current_url
    browser.refresh()
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    assert len(visible_ids(browser)) == 31 and visible_ids(browser)[0] == "XSS-01"


def test_state_column_sorts_by_rank(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    browser.get(site + "registers/")
    sort_button(browser, "State").click()
    states = browser.execute_script(
        "return Array.from(document.querySelectorAll('table[data-reg-sortable] tbody tr'))"
        ".map(r => r.cells[3].textContent.trim());"
    )
    assert states == sorted(states, key=["done", "partial", "missing", "n/a", "unknown"].index)


@pytest.fixture
def phone(browser):  # type: ignore[no-untyped-def]
    browser.set_window_size(390, 844)
    try:
        yield browser
    finally:
        browser.set_window_size(1400, 1000)


def test_overview_on_a_phone_shows_state_value_and_effort(site: str, phone) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    phone.get(site + "registers/")
    wait(lambda: phone.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    width = phone.execute_script("return document.documentElement.clientWidth")
    badges = phone.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable] tbody .reg-badge")
    assert len(badges) == 3 * 31
    for badge in badges:
        box = phone.execute_script("return arguments[0].getBoundingClientRect().toJSON()", badge)
        assert box["left"] >= 0 and box["right"] <= width, (badge.text, box, width)
    # Nothing to scroll sideways, on the page or in the table's own scroll box.
    overflow = phone.execute_script(
        "var t = document.querySelector('table[data-reg-sortable]');"
        "var box = t.closest('.md-typeset__scrollwrap') || t;"
        "return [document.documentElement.scrollWidth, box.scrollWidth - box.clientWidth];"
    )
    assert overflow[0] <= width and overflow[1] <= 0, overflow
    state = phone.find_element(By.CSS_SELECTOR, "tbody tr td[data-label='State']")
    assert state.get_attribute("role") == "cell"  # still a table to a screen reader


def test_health_places_never_break_inside_on_a_phone(site: str, phone) -> None:  # type: ignore[no-untyped-def]
    phone.get(site + "registers/health/meta/")  # a register's own page lists every citation
    lines = phone.execute_script(
        "return Array.from(document.querySelectorAll('.reg-where'))"
        ".map(e => [e.textContent, e.getClientRects().length])"
    )
    assert lines and all(count == 1 for _, count in lines), lines
    assert any(text == "registers/meta.yaml:47" for text, _ in lines)


def test_a_pending_reference_says_so_on_the_page(site: str, phone) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    phone.get(site + "registers/meta/")
    notes = phone.find_elements(By.CSS_SELECTOR, ".reg-pending .reg-pending__note")
    assert notes and all(note.is_displayed() for note in notes)
    assert {note.text for note in notes} == {"(not published yet)"}  # text, not a tooltip


def test_an_entry_runs_no_script(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(site + "registers/xss/")
    wait(lambda: browser.find_elements(By.ID, "xss-01"))
    heading = browser.find_element(By.ID, "xss-01").text
    assert "<script>" in heading  # shown as text
    for element in browser.find_elements(By.CSS_SELECTOR, "#xss-01 ~ ul *"):
        element.get_attribute("outerHTML")  # touch everything (an onload would have fired)
    links = browser.find_elements(By.CSS_SELECTOR, "article a[href^='javascript']")
    assert links == []
    assert browser.execute_script("return window.__pwned") is None
    what = browser.find_element(By.CSS_SELECTOR, "#xss-01 ~ ul li").text
    assert "[click me](javascript:" in what.replace("\\", "")
    text = browser.find_element(By.CSS_SELECTOR, "article").text
    assert "[d]:" in text and "[q]: javascript:" in text  # definitions shown as text
    fence = browser.find_element(By.XPATH, "//li[.//strong[text()='Fence.']]//code").text
    assert fence == "<img src=x onerror=\"window.__pwned = 'fence'\">"  # code, shown


def test_the_overview_runs_no_script(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(site + "registers/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    row = browser.execute_script(
        "return Array.from(document.querySelectorAll('table[data-reg-sortable] tbody tr'))"
        ".map(r => r.cells[6].textContent).find(t => t.includes('svg'))"
    )
    assert "window.__pwned = 'cell'" in row  # the risk's code block, as code text
    assert browser.execute_script("return window.__pwned") is None


def shown_ids(browser) -> list[str]:  # type: ignore[no-untyped-def]
    """The IDs of the rows left visible in every filtered table of the page."""
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('table[data-reg-sortable] tbody tr'))"
        ".filter(r => !r.hidden && !r.closest('[hidden]'))"
        ".map(r => r.cells[0].textContent.trim());"
    )


def choose(browser, name: str, text: str) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    select = browser.find_element(By.CSS_SELECTOR, f"select[data-filter='{name}']")
    Select(select).select_by_visible_text(text)


def test_matrix_filters_and_a_cell_links_to_its_entry(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(site + "registers/revisions/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    assert len(shown_ids(browser)) == 31
    choose(browser, "Register", "_meta")
    choose(browser, "State", "n/a")
    assert shown_ids(browser) == ["META-02", "META-03"]
    row = browser.find_element(By.XPATH, "//tr[td[1]//a[text()='META-02']]")
    cells = [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
    assert cells[1] == "n/a"  # the state, beside the ID
    assert cells[3:9] == ["absent", "absent", "added", "removed", "absent", "absent"]
    removed = row.find_element(By.XPATH, ".//a[.//span[text()='removed']]")
    browser.execute_script("arguments[0].click()", removed)
    wait(lambda: browser.current_url.endswith("registers/meta/#meta-02"))
    heading = browser.find_element(By.ID, "meta-02").text
    assert "Key-name format" in heading


def concept_rows(browser) -> list[str]:  # type: ignore[no-untyped-def]
    """The concept IDs (each row's code) of the Matrix page's visible rows."""
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('table[data-reg-sortable] tbody tr'))"
        ".filter(r => !r.hidden).map(r => r.cells[0].querySelector('code').textContent);"
    )


MCPX, GO_SDK = "mcpx 05c78b2", "MCP Go SDK v1.7.0+27 (2026-08-21)"
"""The Matrix page's columns, as their headers read (each filter names its column so)."""


def test_concept_matrix_filters_sorts_and_links(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(site + "registers/matrix/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    headers = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "thead th")]
    # each subject by its source's title, over what its pin stands for (v1: the hostile
    # register's subject; the Go SDK's `version:`, the others' short commit)
    assert headers == [
        "Concept",
        "mcpx\n05c78b2",
        "MCP Go SDK\nv1.7.0+27 (2026-08-21)",
        "MCP Python SDK\n57394b0",
        "MCP reference server (everything)\ne00bde0",
        "opencode v1\n974bbbb",
        "Done",
    ]
    assert len(concept_rows(browser)) == 40
    choose(browser, MCPX, "partial")
    assert concept_rows(browser) == ["mcp.meta.typed", "mcp.meta.reserved-keys", "mcp.meta.proxy"]
    choose(browser, GO_SDK, "not recorded")
    assert concept_rows(browser) == ["mcp.meta.proxy"]
    wait(lambda: "mcpx-05c78b2=partial" in browser.current_url)
    choose(browser, MCPX, "all")
    choose(browser, GO_SDK, "all")
    sort_button(browser, GO_SDK).click()  # by state: done first, not recorded last
    order = concept_rows(browser)
    assert order[:2] == ["mcp.meta.object", "mcp.meta.reserved-keys.progress-token"]
    assert order[-2:] == ["mcp.server.input-required", "mcp.extension.tasks"]
    row = browser.find_element(By.XPATH, "//tr[td[1]//code[text()='mcp.meta.key-format']]")
    cell = row.find_elements(By.TAG_NAME, "td")[2]
    assert cell.text == "missing\nGOMETA-02 value low, effort S"  # shown, not on hover
    link = cell.find_element(By.LINK_TEXT, "GOMETA-02")
    browser.execute_script("arguments[0].click()", link)
    wait(lambda: browser.current_url.endswith("registers/go-sdk/#gometa-02"))


def test_concept_matrix_on_a_phone_is_cards(site: str, phone) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    phone.get(site + "registers/matrix/")
    wait(lambda: phone.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    width = phone.execute_script("return document.documentElement.clientWidth")
    overflow = phone.execute_script(
        "var t = document.querySelector('table[data-reg-sortable]');"
        "var box = t.closest('.md-typeset__scrollwrap') || t;"
        "return [document.documentElement.scrollWidth, box.scrollWidth - box.clientWidth];"
    )
    assert overflow[0] <= width and overflow[1] <= 0, overflow
    row = phone.find_element(By.CSS_SELECTOR, "tbody tr")
    assert phone.execute_script("return getComputedStyle(arguments[0]).display", row) == "block"
    cell = row.find_element(By.CSS_SELECTOR, f"td[data-label='{GO_SDK}']")
    assert cell.get_attribute("role") == "cell"  # a card, still a table to a screen reader
    for badge in phone.find_elements(By.CSS_SELECTOR, "tbody .reg-badge"):
        box = phone.execute_script("return arguments[0].getBoundingClientRect().toJSON()", badge)
        assert box["left"] >= 0 and box["right"] <= width, (badge.text, box, width)


def test_revision_page_lists_what_it_changed(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(site + "registers/revisions/")
    header = browser.find_element(By.XPATH, "//th//a[text()='2025-11-25']")
    browser.execute_script("arguments[0].click()", header)
    wait(lambda: "What 2025-11-25 changed" in browser.find_element(By.TAG_NAME, "h1").text)
    ids = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "article td:first-child a")]
    assert ids == ["META-03", "META-02"]  # added, then removed
    lines = browser.execute_script(
        "return Array.from(document.querySelectorAll('article p a.reg-link'))"
        ".map(a => getComputedStyle(a).textDecorationLine)"
    )
    # the Coverage page, before, after, the matrix: not told by colour alone
    assert lines == ["underline"] * 4


def test_priorities_grid_links_to_the_filtered_list(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(site + "registers/priorities/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "table[data-reg-sortable]"))
    assert shown_ids(browser) == [
        "META-09", "META-04", "META-06", "META-07", "META-10", "META-11",
        "GOMETA-04", "GOMETA-03", "GOMETA-06", "GOMETA-02", "PYSDK-07", "PYSDK-08", "EVERY-04",
        "EVERY-01", "XSS-01",
    ]  # fmt: skip
    row = browser.find_element(By.XPATH, "//tr[td[1]/strong[text()='med']]")
    link = row.find_elements(By.TAG_NAME, "td")[2].find_element(By.TAG_NAME, "a")  # effort M
    assert link.text == "4"
    browser.execute_script("arguments[0].click()", link)
    wait(lambda: "value=med&effort=M" in browser.current_url)
    wait(lambda: shown_ids(browser) == ["META-10", "META-11", "GOMETA-03", "GOMETA-06"])
    hostile = browser.find_element(By.ID, "subject-v1")  # Hostile's subject
    assert not hostile.is_displayed()  # a subject with nothing left to show hides
    summary = hostile.find_element(By.XPATH, "following-sibling::p[1]")
    assert "1 open of 1 entries" in summary.get_attribute("textContent")
    assert not summary.is_displayed()  # its summary too
    assert browser.find_element(By.ID, "subject-mcpx").is_displayed()
    shown = browser.find_element(By.CSS_SELECTOR, "[data-reg-shown]").text
    assert shown == "4 of 15 entries"
    choose(browser, "Effort", "S")
    assert shown_ids(browser) == ["META-04", "META-06", "META-07", "GOMETA-04", "EVERY-01"]
    choose(browser, "Value", "all")
    choose(browser, "State", "missing")
    assert shown_ids(browser) == ["META-07", "GOMETA-02", "EVERY-01", "XSS-01"]
    entry = browser.find_element(By.XPATH, "//td/a[text()='META-07']")
    browser.execute_script("arguments[0].click()", entry)
    wait(lambda: browser.current_url.endswith("registers/meta/#meta-07"))


def test_overview_draws_a_state_bar_per_register(site: str, browser) -> None:  # type: ignore[no-untyped-def]

    browser.get(site + "registers/")
    labels = browser.execute_script(
        "return Array.from(document.querySelectorAll('svg.reg-bar[role=img]'))"
        ".map(svg => document.getElementById(svg.getAttribute('aria-labelledby')).textContent)"
    )
    assert labels == [
        "Go SDK _meta: 2 done, 2 partial, 2 missing, 0 n/a, 1 unknown",
        "_meta: 3 done, 4 partial, 2 missing, 2 n/a",
        "Python SDK server features: 6 done, 2 partial, 0 missing, 0 n/a",
        "Reference server (everything): 2 done, 0 partial, 2 missing, 0 n/a",
        "Hostile: 0 done, 0 partial, 1 missing, 0 n/a",
    ]
    fills = browser.execute_script(
        "return Array.from(document.querySelectorAll('svg.reg-bar rect'))"
        ".map(r => getComputedStyle(r).fill)"
    )
    assert fills[0] == "rgb(46, 125, 50)"  # done, in the light scheme
    browser.execute_script("document.body.setAttribute('data-md-color-scheme', 'slate')")
    dark = browser.execute_script(
        "return getComputedStyle(document.querySelector('svg.reg-bar rect')).fill"
    )
    assert dark == "rgb(102, 187, 106)"  # lighter on the dark background


# --- accessibility: axe-core ------------------------------------------------------------

GENERATED_PAGES = [
    "registers/",
    "registers/meta/",
    "registers/xss/",
    "registers/health/",
    "registers/health/meta/",
    "registers/priorities/",
    "registers/revisions/",
    "registers/revisions/2025-11-25/",
    "registers/matrix/",
]
"""Every kind of page the plugin generates in this site: the overview, each register, the
health, a register's own health page (drawn with the pruned nav), the priorities, the
revision matrix, a revision's page and the Matrix page. (The Changes page needs a git
history: tests/history/test_changes_browser.py runs axe on it.)"""


@pytest.mark.parametrize(
    "page, scheme, width", tiers.diagonal(GENERATED_PAGES, ["default", "slate"], [1400, 390])
)
def test_no_serious_axe_violation(  # type: ignore[no-untyped-def]
    site: str, browser, axe_script: str, page: str, scheme: str, width: int
) -> None:

    violations = axe_at(browser, axe_script, site + page, scheme, width)
    assert not violations, axecheck.describe(violations)


def axe_at(browser, axe_script: str, url: str, scheme: str, width: int, shot: str = ""):  # type: ignore[no-untyped-def]
    """axe's serious violations on the page at `url`, in `scheme`, `width` pixels wide
    (and, with `shot`, a screenshot saved there first, to look at)."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 1000)
    try:
        browser.get(url)
        wait(lambda: browser.find_elements(By.CSS_SELECTOR, "article h1"))
        # Material sets that tabindex once it has measured the block: wait for it.
        wait(lambda: browser.execute_script(axecheck.SCROLLING_CODE_READY))
        axecheck.set_scheme(browser, scheme)
        found = axecheck.violations(browser, axe_script)
        if shot:
            browser.save_screenshot(f"{shot}.png")
            browser.execute_script("document.getElementById('ex-02').scrollIntoView()")
            browser.save_screenshot(f"{shot}-ex-02.png")
        return found
    finally:
        browser.set_window_size(1400, 1000)


def test_axe_finds_what_the_site_used_to_have(site: str, browser, axe_script: str) -> None:  # type: ignore[no-untyped-def]
    """The axe run above can fail: the audit's findings, put back, are found."""
    browser.get(site + "registers/meta/")
    browser.execute_script(
        "var s = document.createElement('style');"
        "s.textContent = '.md-typeset a { text-decoration: none !important }"
        " .md-typeset .reg-state--n-a { color: #fff !important;"
        " background-color: #607d8b !important }';"
        "document.head.appendChild(s);"
    )
    found = {v["id"] for v in axecheck.violations(browser, axe_script)}
    assert {"color-contrast", "link-in-text-block"} <= found


def test_an_excerpt_opens_in_place(excerpt_site: str, browser, axe_script: str) -> None:  # type: ignore[no-untyped-def]
    """The page holds the excerpt's title, not its code; opening it fetches the register's
    excerpt file and shows the cited lines highlighted, with the file's line numbers."""
    from selenium.webdriver.common.by import By

    browser.get(excerpt_site + "registers/alpha/")
    summary = wait(lambda: browser.find_elements(By.CSS_SELECTOR, "details.quote summary"))[0]
    # Its lines and commit: the path is the citation's, right above it.
    assert summary.text.startswith("Line 40 @ ")
    above = summary.find_element(By.XPATH, "../preceding-sibling::*[1]")
    assert above.text.startswith("internal/server.go:40")
    assert "line40" not in browser.page_source
    summary.click()
    details = summary.find_element(By.XPATH, "..")
    marked = wait(lambda: details.find_elements(By.CSS_SELECTOR, ".highlight .hll"))
    assert [line.text for line in marked] == ["func line40() {}"]
    numbers = details.find_element(By.CSS_SELECTOR, ".linenos").text.split()
    assert numbers == [str(n) for n in range(37, 44)]  # three lines of context either side
    assert not details.find_element(By.CSS_SELECTOR, "a.reg-excerpt").is_displayed()
    for scheme in ("default", "slate"):  # the opened excerpt, in both colour schemes
        axecheck.set_scheme(browser, scheme)
        violations = axecheck.violations(browser, axe_script)
        assert not violations, axecheck.describe(violations)
    axecheck.set_scheme(browser, "default")


def test_without_javascript_an_excerpt_is_a_link_to_its_lines(  # type: ignore[no-untyped-def]
    excerpt_site: str, browser_without_js
) -> None:
    from selenium.webdriver.common.by import By

    driver = browser_without_js
    driver.get(excerpt_site + "registers/alpha/")
    assert not driver.find_elements(By.CSS_SELECTOR, "details.quote")
    link = driver.find_elements(By.CSS_SELECTOR, "a.reg-excerpt")[0]
    assert link.text.startswith("internal/server.go:40 @ ")
    permalink = link.find_element(By.XPATH, "preceding-sibling::code")
    assert permalink.text == "internal/server.go:40"  # impl has no public repository
    link.click()
    wait(lambda: "excerpts.html#x" in driver.current_url)
    key = driver.current_url.split("#")[1]
    section = driver.find_element(By.ID, key)
    assert section.find_element(By.TAG_NAME, "h2").text == link_text(driver, key)
    marked = section.find_element(By.CSS_SELECTOR, ".hll")
    assert marked.text == "func line40() {}"
    assert marked.value_of_css_property("font-weight") == "700"  # marked on its own page too


ROWS = """
const code = arguments[0].querySelector('.highlight code');
return Array.from(code.children).map(row => [row.textContent.replace(/\\n$/, ''),
  row.classList.contains('hll') || row.querySelector('.hll') !== null]);
"""
"""Each line of an opened excerpt as a reader sees it, and whether it is marked."""


def read_excerpt(container) -> tuple[list[int], list[int], list[str]]:  # type: ignore[no-untyped-def]
    """The line numbers an excerpt shows, which of them are marked, and their text."""
    from selenium.webdriver.common.by import By

    numbers = [int(n) for n in container.find_element(By.CSS_SELECTOR, ".linenos").text.split()]
    rows = container.parent.execute_script(ROWS, container)
    assert len(rows) == len(numbers), (numbers, rows)  # a number beside every line
    marked = [(number, text) for number, (text, hll) in zip(numbers, rows, strict=True) if hll]
    return numbers, [n for n, _ in marked], [text for _, text in marked]


@pytest.mark.parametrize("citation", EDGE_CITATIONS)
def test_an_excerpt_marks_its_line_at_every_edge(excerpt_site: str, browser, citation: str) -> None:  # type: ignore[no-untyped-def]
    """Blank lines, lines of spaces only, tabs, CRLF, a carriage return, the first and the
    last line of a file, a file of one blank line: every number is the file's, and the bar
    is on the cited line (the cases of tests/site/test_excerpt_lines.py)."""
    from selenium.webdriver.common.by import By

    browser.get(excerpt_site + "registers/edges/")
    summary = excerpt_summary(browser, citation)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    summary.click()
    details = summary.find_element(By.XPATH, "..")
    wait(lambda: details.find_elements(By.CSS_SELECTOR, ".highlight .hll"))
    numbers, marked, texts = read_excerpt(details)
    shown, lines, text = EDGE_CITATIONS[citation]
    assert (numbers, marked, texts) == (list(shown), lines, text)


def excerpt_summary(browser, citation: str):  # type: ignore[no-untyped-def]
    """The summary of the excerpt of `citation`, found by its link (`citation @ sha`)."""
    from selenium.webdriver.common.by import By

    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "details.quote summary"))
    (summary,) = [
        details.find_element(By.TAG_NAME, "summary")
        for details in browser.find_elements(By.CSS_SELECTOR, "details.quote")
        if details.find_element(By.CSS_SELECTOR, "a.reg-excerpt")
        .get_attribute("textContent")
        .startswith(f"{citation} @ ")
    ]
    return summary


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_on_a_phone_an_excerpt_s_lines_wrap_inside_it_numbered(  # type: ignore[no-untyped-def]
    excerpt_site: str, browser, axe_script: str, scheme: str
) -> None:
    """A cited line wider than the phone wraps inside the block, each line with its number
    before it; nothing scrolls sideways, the block or the page."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(390, 844)
    try:
        browser.get(excerpt_site + "registers/edges/")
        summary = excerpt_summary(browser, "internal/long.go:2")
        assert summary.text.startswith("Line 2 @ ")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
        summary.click()
        details = summary.find_element(By.XPATH, "..")
        wait(lambda: details.find_elements(By.CSS_SELECTOR, ".highlight .hll"))
        axecheck.set_scheme(browser, scheme)
        shown = browser.execute_script(
            "var d = arguments[0], code = d.querySelector('.highlight code');"
            "var lines = Array.from(code.children);"
            "var cited = d.querySelector('.hll').getBoundingClientRect();"
            "var e = document.documentElement;"
            "return {numbers: lines.map(l => getComputedStyle(l, '::before').content),"
            " cited: lines[1].getClientRects().length > 1 || cited.height > 30,"
            " inside: cited.right <= d.getBoundingClientRect().right,"
            " code: code.scrollWidth <= code.clientWidth, page: e.scrollWidth <= e.clientWidth};",
            details,
        )
        violations = axecheck.violations(browser, axe_script)
    finally:
        browser.set_window_size(1400, 1000)
    assert shown == {
        "numbers": ['"1"', '"2"', '"3"'], "cited": True, "inside": True, "code": True, "page": True,
    }  # fmt: skip
    assert not violations, axecheck.describe(violations)


def test_without_javascript_the_excerpt_file_marks_every_edge(  # type: ignore[no-untyped-def]
    excerpt_site: str, browser_without_js
) -> None:
    from selenium.webdriver.common.by import By

    driver = browser_without_js
    driver.get(excerpt_site + "registers/edges/excerpts.html")
    sections = driver.find_elements(By.CSS_SELECTOR, "main section")
    found = {}
    for section in sections:
        title = section.find_element(By.TAG_NAME, "h2").text.split(" @ ")[0]
        found[title] = read_excerpt(section)
    expected = {c: (list(shown), lines, text) for c, (shown, lines, text) in EDGE_CITATIONS.items()}
    assert found == expected


def link_text(driver, key: str) -> str:  # type: ignore[no-untyped-def]
    return str(driver.execute_script(f"return document.getElementById('{key}-title').textContent"))


# --- the preview shows every problem -----------------------------------------------------


def test_the_page_shows_each_mistake_at_its_entry(problem_site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(problem_site + "registers/example/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "article h1"))
    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('article h2')).map(h => {"
        "  const next = h.nextElementSibling;"
        "  return [h.id, next && next.classList.contains('admonition') ? next.innerText : ''];"
        "})"
    )
    by_entry = dict(shown)
    assert "unknown field 'note' here: 'status:' above takes a 'note'" in by_entry["ex-01"]
    assert "EX-12 does not exist" in by_entry["ex-02"]
    assert "unknown field 'sorces' (did you mean 'sources'?)" in by_entry["ex-02"]
    assert "mkdocs build --strict fails on them" in by_entry["ex-02"]
    browser.get(problem_site + "registers/")
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "article h1"))
    notice = browser.find_element(By.CSS_SELECTOR, "article .admonition").text
    assert "1 register page has problems" in notice and "example: 4 problems" in notice
    browser.find_element(By.LINK_TEXT, "example").click()
    wait(lambda: browser.current_url.endswith("/registers/example/"))


@pytest.mark.parametrize(
    "page, scheme, width",
    tiers.diagonal(["registers/", "registers/example/"], ["default", "slate"], [1400, 390]),
)
def test_problems_shown_keep_axe_clean(  # type: ignore[no-untyped-def]
    problem_site: str, browser, axe_script: str, page: str, scheme: str, width: int
) -> None:
    shots = os.environ.get("REGISTER_SHOTS")  # a folder for screenshots (not golden files)
    shot = f"{shots}/problems-{width}-{scheme}" if shots and page.endswith("example/") else ""
    violations = axe_at(browser, axe_script, problem_site + page, scheme, width, shot)
    assert not violations, axecheck.describe(violations)


@pytest.mark.parametrize("width", [1400, 390])
def test_a_register_s_dates_read_as_days_on_one_line(site: str, browser, width: int) -> None:  # type: ignore[no-untyped-def]
    """`Created 2026-09-30T08:00:00-05:00` reads `Created 2026-09-30` (the whole value its
    title), and no date of the header breaks over two lines, at 390 px either."""
    browser.set_window_size(width, 844)
    try:
        browser.get(site + "registers/meta/")
        dates = browser.execute_script(
            "return Array.from(document.querySelectorAll('article > p .reg-nowrap'))"
            ".map(e => [e.textContent, e.title, e.getClientRects().length])"
        )
    finally:
        browser.set_window_size(1400, 1000)
    assert dates[0] == ["2026-09-30", "2026-09-30T08:00:00-05:00", 1]
    assert all(len(text) == 10 and lines == 1 for text, _, lines in dates), dates

"""The Matrix page, a concept's page and the badges in headless Chromium, on the
repository's own site (tests/conftest.py's `site`): every cell's state and IDs as text,
value and effort shown without a hover, no sideways scroll at 390 px, the badges load and
hold their words, axe-core clean in both schemes at 1400 and 390 px."""

from __future__ import annotations

import pytest

import axecheck
import browsing
from browsing import wait

pytestmark = browsing.needs_chromium

MATRIX = "registers/matrix/"
CONCEPT = "registers/concepts/mcp.meta.key-format/"
CELLS = (
    "return Array.from(document.querySelectorAll('table[data-reg-sortable] tbody tr'))"
    ".flatMap(r => Array.from(r.cells).slice(1, -1)).map(c => c.innerText)"
)


def opened(browser, url: str, width: int):  # type: ignore[no-untyped-def]
    """`browser` at `url`, `width` pixels wide, once its tables are set up."""
    from selenium.webdriver.common.by import By

    browser.set_window_size(width, 1000)
    browser.get(url)
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "article h1"))
    return browser


@pytest.mark.parametrize("width", [1400, 390])
def test_every_cell_says_its_state_and_ids_in_words(site: str, browser, width: int) -> None:  # type: ignore[no-untyped-def]
    """Every recorded cell opens with its state's word and lists each entry's ID with its
    value and effort, laid out to be seen (innerText: what is drawn, not hidden text)."""
    try:
        texts = opened(browser, site + MATRIX, width).execute_script(CELLS)
    finally:
        browser.set_window_size(1400, 1000)
    assert len(texts) == 200, len(texts)  # 40 concepts x 5 subjects
    states = ("done", "partial", "missing", "n/a", "unknown")
    recorded = [text for text in texts if text != "not recorded"]
    assert len(recorded) == 26, len(recorded)  # META 7, GOMETA 7, PYSDK 8, EVERY 4 cells
    for text in recorded:
        state, *entries = text.split("\n")
        assert state in states, text
        for line in entries:
            if line.startswith("checks: "):  # a subject with recorded conformance results
                continue
            prefix = line.split(" ", 1)[0].split("-")[0]
            assert prefix in ("META", "GOMETA", "PYSDK", "EVERY", "XSS"), text
            assert "value " in line and "effort " in line, text
    assert any("META-02 n/a, value low, effort S" in text for text in texts)  # a cell of two


def test_value_and_effort_need_no_hover_and_the_colour_is_solid(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    """The words of a cell are as visible before any pointer or focus reaches the page as
    after; the cell is a filled block of its state's colour, the text white on it."""
    from selenium.webdriver.common.by import By

    opened(browser, site + MATRIX, 1400)
    rated = browser.find_element(By.XPATH, "//span[@class='reg-rated'][../a[text()='META-04']]")
    assert rated.is_displayed() and rated.size["width"] > 50
    block = rated.find_element(By.XPATH, "ancestor::span[contains(@class, 'reg-mcell')]")
    style = browser.execute_script(
        "var s = getComputedStyle(arguments[0]); return [s.backgroundColor, s.color]", block
    )
    assert style == ["rgb(153, 82, 0)", "rgb(255, 255, 255)"]  # partial's fill, white words
    legend = browser.find_element(By.CSS_SELECTOR, "p.reg-legend").text
    assert legend.startswith("States done all of it is there; partial some of it;")
    folded = browser.find_element(By.CSS_SELECTOR, "article details")
    assert folded.get_attribute("open") is None  # the explanation is folded
    assert "How a cell is read" in folded.text


@pytest.mark.parametrize("page", [MATRIX, CONCEPT])
def test_no_sideways_scroll_on_a_phone(site: str, browser, page: str) -> None:  # type: ignore[no-untyped-def]
    try:
        phone = opened(browser, site + page, 390)
        wide = phone.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
    finally:
        browser.set_window_size(1400, 1000)
    assert wide[0] <= wide[1], wide


def test_a_row_opens_its_concept_page(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    """The row header links the concept's page: its state per subject with the entries
    behind it, per revision, the citations, since when, its statements and checks."""
    from selenium.webdriver.common.by import By

    opened(browser, site + MATRIX, 1400)
    link = browser.find_element(By.LINK_TEXT, "Key names and reserved prefixes")
    browser.execute_script("arguments[0].click()", link)
    wait(lambda: browser.current_url.endswith(CONCEPT))
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "article h2")]
    assert headings[:6] == [
        "State by subject", "By revision", "Evidence", "History", "Statements", "Checks"
    ]  # fmt: skip
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('article table')[1].tBodies[0].rows)"
        ".map(r => Array.from(r.cells).map(c => c.innerText))"
    )
    # META-02 applies from 2025-06-18 and is removed there; META-03 is added in 2025-11-25
    assert rows[0][0] == "mcpx"
    assert rows[0][1:] == ["absent", "absent", "n/a", "n/a", "n/a", "n/a"]
    entry = browser.find_element(By.CSS_SELECTOR, "article h3 + ul a[href$='#meta-02']")
    assert entry.text == "META-02"
    cited = browser.find_elements(By.CSS_SELECTOR, "article h3 + ul ul a[href*='/blob/']")
    assert cited, "each entry lists its citations, linked at the pin"
    statement = browser.find_element(By.XPATH, "//h2[@id='statements']/following-sibling::ul[1]")
    assert "2025-06-18/basic/index.mdx:140" in statement.text
    active = browser.find_elements(By.CSS_SELECTOR, ".md-nav__link--active")
    named = [link.get_attribute("textContent").strip() for link in active]
    assert "Key names and reserved prefixes" in named  # listed in the nav, under the Matrix
    browser.find_element(By.LINK_TEXT, "GOMETA-02").click()
    wait(lambda: browser.current_url.endswith("registers/go-sdk/#gometa-02"))


@pytest.mark.parametrize(
    "page, badge, words",
    [
        (MATRIX, "../badges/go-sdk.svg", "MCP Go SDK | 2 done | 2 partial | 2 missing | 1 unknown"),
        (CONCEPT, "../../badges/concept/mcp.meta.key-format.svg", "mcp.meta.key-format | "
         "mcpx n/a | MCP Go SDK missing | MCP Python SDK not recorded | "
         "MCP reference server (everything) not recorded | opencode v1 not recorded"),
    ],
)  # fmt: skip
def test_badges_load_and_hold_their_words(  # type: ignore[no-untyped-def]
    site: str, browser, page: str, badge: str, words: str
) -> None:
    """Each badge is an image the page shows (loaded, drawn), an SVG whose title and
    drawn texts say it in words; the Markdown beside it names it by its full address."""
    from selenium.webdriver.common.by import By

    opened(browser, site + page, 1400)
    image = browser.find_element(By.CSS_SELECTOR, f"img.reg-badge-image[src='{badge}']")
    wait(lambda: browser.execute_script("return arguments[0].naturalWidth", image) > 0)
    snippet = image.find_element(By.XPATH, "following-sibling::code[1]").text
    address = image.get_attribute("src")
    assert address.startswith(site) and snippet.endswith(f"]({address})"), snippet
    browser.get(address)
    svg = browser.find_element(By.TAG_NAME, "svg")
    assert svg.find_element(By.TAG_NAME, "title").get_attribute("textContent") == words
    drawn = [t.get_attribute("textContent") for t in svg.find_elements(By.TAG_NAME, "text")]
    assert " | ".join(drawn) == words


@pytest.mark.parametrize("page", [MATRIX, CONCEPT])
@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("width", [1400, 390])
def test_no_serious_axe_violation(  # type: ignore[no-untyped-def]
    site: str, browser, axe_script: str, page: str, scheme: str, width: int
) -> None:
    try:
        opened(browser, site + page, width)
        wait(lambda: browser.execute_script(axecheck.SCROLLING_CODE_READY))
        axecheck.set_scheme(browser, scheme)
        found = axecheck.violations(browser, axe_script)
    finally:
        browser.set_window_size(1400, 1000)
    assert not found, axecheck.describe(found)

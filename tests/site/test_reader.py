"""The repository's site as a reader meets it, in headless Chromium at 1400 and 390 px, in
both colour schemes: what search finds first, tables that fit their box, whole pages that
axe-core passes (material's chrome included), excerpt code at 4.5:1, and a register page's
state counts in its first screen. The site and browser are tests/conftest.py's."""

from __future__ import annotations

import time

import pytest

import axecheck
import browsing
import tiers
from browsing import wait

pytestmark = browsing.needs_chromium

WIDTHS = [1400, 390]
SCHEMES = ["default", "slate"]


def results_for(driver, base: str, query: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The result links material's search shows for `query`, as the site's paths with their
    anchors, in order."""
    found = browsing.search(driver, base, query)
    return [href.replace(base, "").split("?")[0] + _anchor(href) for href in found]


def _anchor(href: str) -> str:
    return "#" + href.split("#", 1)[1] if "#" in href else ""


def ranks(found: list[str], wanted: str) -> int:
    return next(i for i, href in enumerate(found) if href == wanted)


SEARCHES = [
    ("META-03", "registers/meta/#meta-03"),  # before "What 2025-03-26 changed" (03)
    ("META-11", "registers/meta/#meta-11"),
    ("modern.go", "registers/meta/#meta-01"),  # a file's base name
    ("conn.go", "registers/meta/#meta-04"),
    ("internal/mcpserver/conn.go", "registers/meta/#meta-04"),  # its path
    ("traceparent", "registers/meta/#meta-07"),  # a register word the manual uses too
]


@pytest.mark.parametrize("query, entry, width", tiers.diagonal(SEARCHES, WIDTHS))
def test_search_shows_the_entries_first(  # type: ignore[no-untyped-def]
    site: str, sized, query: str, entry: str, width: int
) -> None:
    found = results_for(sized, site, query)
    assert entry in found, found
    assert found[0] == "registers/meta/", found  # the register page's group comes first
    manual = [i for i, href in enumerate(found) if not href.startswith("registers/")]
    entries = [i for i, href in enumerate(found) if href.startswith("registers/meta/")]
    assert not manual or max(entries) < min(manual), found  # every entry above the manual
    if query.startswith("META-"):
        assert found[1] == entry, found  # the entry itself, first of its page's sections


TABLE_PAGES = [
    "registers/",
    "registers/meta/",
    "registers/revisions/",
    "registers/revisions/2025-11-25/",
    "registers/priorities/",
    "registers/health/",
    "registers/health/meta/",
]

TABLES_FIT = """
var article = document.querySelector('article');
var box = article.getBoundingClientRect();
var found = [];
article.querySelectorAll('table').forEach(function (table) {
  var r = table.getBoundingClientRect();
  var scroller = table.closest('.md-typeset__scrollwrap') || table;
  var over = Math.max(r.right - box.right, box.left - r.left,
                      scroller.scrollWidth - scroller.clientWidth,
                      table.scrollWidth - table.clientWidth);
  var name = table.tHead ? table.tHead.textContent.trim().slice(0, 40) : '?';
  if (over > 1) found.push(name + ': ' + over);
});
var page = document.documentElement;
var wider = page.scrollWidth - page.clientWidth;
if (wider > 0) found.push('page: ' + wider);
return found;
"""


@pytest.mark.parametrize("page, width", tiers.diagonal(TABLE_PAGES, WIDTHS))
def test_no_generated_table_is_wider_than_its_box(  # type: ignore[no-untyped-def]
    site: str, sized, page: str, width: int
) -> None:
    from selenium.webdriver.common.by import By

    sized.get(site + page)
    wait(lambda: sized.find_elements(By.CSS_SELECTOR, "article table"))
    time.sleep(0.2)  # register.js has labelled the cards
    assert sized.execute_script(TABLES_FIT) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_key_columns_come_first_and_stay_in_view(site: str, sized, width: int) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    for page in ("registers/revisions/", "registers/priorities/"):
        sized.get(site + page)
        table = wait(lambda: sized.find_elements(By.CSS_SELECTOR, "table[data-reg-wide]"))[0]
        names = [th.text.strip() for th in table.find_elements(By.CSS_SELECTOR, "thead th")]
        assert names[:2] == ["ID", "State"], names
        if width == 1400:
            first = table.find_element(By.CSS_SELECTOR, "tbody td")
            assert first.value_of_css_property("position") == "sticky"
        # One sort indicator on a sortable header: ours, not material's as well.
        after = sized.execute_script(
            "return getComputedStyle(arguments[0].querySelector('th'), '::after').content",
            table,
        )
        assert after in ("none", "normal"), after


WHOLE_PAGES = ["registers/", "registers/meta/", "registers/revisions/", "registers/priorities/"]


@pytest.mark.parametrize("page, scheme, width", tiers.diagonal(WHOLE_PAGES, SCHEMES, WIDTHS))
def test_the_whole_page_passes_axe(  # type: ignore[no-untyped-def]
    site: str, sized, axe_script: str, page: str, scheme: str, width: int
) -> None:
    from selenium.webdriver.common.by import By

    sized.get(site + page)
    wait(lambda: sized.find_elements(By.CSS_SELECTOR, "article h1"))
    wait(lambda: sized.execute_script(axecheck.SCROLLING_CODE_READY))
    axecheck.set_scheme(sized, scheme)
    found = axecheck.violations(sized, axe_script, whole=True)
    assert not found, axecheck.describe(found)


CODE_CONTRAST = """
function rgb(c) { var m = c.match(/[\\d.]+/g).map(Number); return m; }
function lum(c) {
  var v = rgb(c).slice(0, 3).map(function (x) { x /= 255;
    return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function blend(fg, bg) {  // a colour with alpha, over its background
  var f = rgb(fg), b = rgb(bg), a = f.length > 3 ? f[3] : 1;
  return 'rgb(' + [0, 1, 2].map(function (i) { return f[i] * a + b[i] * (1 - a); }).join(',') + ')';
}
var block = arguments[0];
var bg = getComputedStyle(block.querySelector('code')).backgroundColor;
if (rgb(bg).length > 3 && rgb(bg)[3] === 0) bg = getComputedStyle(block).backgroundColor;
var worst = [99, ''];
block.querySelectorAll('code span[class]').forEach(function (span) {
  if (!span.textContent.trim() || span.closest('.linenos')) return;
  var fg = blend(getComputedStyle(span).color, bg);
  var a = lum(fg), b = lum(bg);
  var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < worst[0]) worst = [ratio, span.className + ' ' + fg + ' on ' + bg];
});
return worst;
"""


@pytest.mark.parametrize("scheme", SCHEMES)
def test_an_excerpts_highlighted_code_reads_at_4_5_to_1(  # type: ignore[no-untyped-def]
    excerpt_site: str, browser, scheme: str
) -> None:
    from selenium.webdriver.common.by import By

    browser.get(excerpt_site + "registers/alpha/")
    summary = wait(lambda: browser.find_elements(By.CSS_SELECTOR, "details.quote summary"))[0]
    summary.click()
    details = summary.find_element(By.XPATH, "..")
    block = wait(lambda: details.find_elements(By.CSS_SELECTOR, ".highlight"))[0]
    axecheck.set_scheme(browser, scheme)
    ratio, where = browser.execute_script(CODE_CONTRAST, block)
    assert ratio >= 4.5, where
    assert ratio < 99  # there were coloured tokens to measure
    axecheck.set_scheme(browser, "default")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_register_page_shows_its_state_counts_in_its_first_screen(  # type: ignore[no-untyped-def]
    site: str, sized, width: int
) -> None:
    from selenium.webdriver.common.by import By

    sized.get(site + "registers/meta/")
    counts = sized.find_element(By.XPATH, "//article//p[strong[contains(., 'entries:')]]")
    assert "3 done" in counts.text and "2 missing" in counts.text
    bottom = sized.execute_script("return arguments[0].getBoundingClientRect().bottom", counts)
    assert bottom <= sized.execute_script("return window.innerHeight")
    link = sized.find_element(By.CSS_SELECTOR, "table[data-reg-cards] a[href='#meta-07']")
    assert link.text == "META-07"

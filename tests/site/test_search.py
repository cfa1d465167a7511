"""Search as a reader types it, in headless Chromium at 1400 and 390 px: an entry's ID or
the name of a file one entry cites gives that entry first and alone at the top; an ID is one
word (META-07 finds no GOMETA-07, no META-10, no date); a result shows its title and the
words it matched, not its whole section. The site is tests/conftest.py's: the repository's
own, a META register and a GOMETA register."""

from __future__ import annotations

import time

import pytest

import axecheck
import browsing
import tiers

pytestmark = browsing.needs_chromium

WIDTHS = [1400, 390]

GROUPS = """
return Array.from(document.querySelectorAll('.md-search-result__item')).map(li => ({
  top: Array.from(li.querySelectorAll(':scope > a.md-search-result__link')).map(a => a.href),
  sections: Array.from(li.querySelectorAll('a.md-search-result__link'))
    .filter(a => a.hash).map(a => [a.href, a.querySelector('article').textContent]),
}))
"""


def typed(driver, base: str, query: str) -> list[dict[str, list]]:  # type: ignore[no-untyped-def, type-arg]
    """The result groups for `query` typed into the search box: each group's links shown
    at its top (its page, then the sections not folded under "N more on this page") and
    all its sections with their text, links as the site's paths and anchors."""
    browsing.search(driver, base, query)

    def local(href: str) -> str:
        return href.replace(base, "").split("?")[0] + (
            "#" + href.split("#")[1] if "#" in href else ""
        )

    return [
        {
            "top": [local(href) for href in group["top"]],
            "sections": [(local(href), text) for href, text in group["sections"]],
        }
        for group in driver.execute_script(GROUPS)
    ]


def count_line(driver) -> str:  # type: ignore[no-untyped-def]
    return str(
        driver.execute_script(
            "return document.querySelector('.md-search-result__meta').textContent"
        )
    )


IDS = [
    ("META-07", "registers/meta/#meta-07"),  # was: META-10, META-03, GOMETA-07 in the results
    ("GOMETA-04", "registers/go-sdk/#gometa-04"),  # was: META-04 second
    ("meta-07", "registers/meta/#meta-07"),  # as typed, in any case
]


@pytest.mark.parametrize("query, entry, width", tiers.diagonal(IDS, WIDTHS))
def test_an_id_gives_its_entry_first_and_alone(  # type: ignore[no-untyped-def]
    site: str, sized, query: str, entry: str, width: int
) -> None:
    groups = typed(sized, site, query)
    page = entry.split("#")[0]
    assert groups[0]["top"] == [page, entry], groups[0]  # its page, then the entry alone
    found = [(href, text) for group in groups for href, text in group["sections"]]
    # Every other result writes the ID whole: a reference to the entry, never another
    # register's entry of the same number or another entry of the register.
    assert all(query.lower() in text.lower() for _, text in found), found
    assert count_line(sized) == f"{len(groups)} matching documents"


@pytest.mark.parametrize("width", WIDTHS)
def test_an_id_no_entry_has_finds_nothing(site: str, sized, width: int) -> None:  # type: ignore[no-untyped-def]
    """QQQ-05 names no entry of the site, and no page writes it: its 05 matches neither
    META-05 nor a date (PYM-05 found "Coverage of 2024-11-05")."""
    browsing.type_query(sized, site, "QQQ-05")
    shown = (
        "return [document.querySelector('.md-search-result__meta').textContent,"
        " document.querySelectorAll('.md-search-result__item').length]"
    )

    def settled() -> list[object]:
        # Results update as each key lands: take them once three reads agree.
        first = sized.execute_script(shown)
        time.sleep(0.3)
        second = sized.execute_script(shown)
        time.sleep(0.3)
        return first if first == second == sized.execute_script(shown) else []

    assert browsing.wait(settled) == ["No matching documents", 0]


@pytest.mark.parametrize("width", WIDTHS)
def test_a_file_one_entry_cites_gives_that_entry_first_and_alone(  # type: ignore[no-untyped-def]
    site: str, sized, width: int
) -> None:
    groups = typed(sized, site, "ask.go")  # internal/mcpserver/ask.go, cited by META-10 only
    assert groups[0]["top"] == ["registers/meta/", "registers/meta/#meta-10"]
    assert not [g for g in groups[1:] if g["top"][0].startswith("registers/")], groups


SNIPPETS = """
return Array.from(document.querySelectorAll('.md-search-result__article h2')).map(h => {
  const article = h.closest('article');
  const snippet = article.querySelector('.reg-snippet');
  return [h.textContent, snippet ? snippet.textContent : article.textContent,
          snippet ? Array.from(snippet.querySelectorAll('mark')).map(m => m.textContent) : [],
          article.scrollWidth <= article.clientWidth];
})
"""


@pytest.mark.parametrize("width", WIDTHS)
def test_a_result_shows_its_title_and_the_words_it_matched(site: str, sized, width: int) -> None:  # type: ignore[no-untyped-def]
    typed(sized, site, "traceparent")
    shown = {title: rest for title, *rest in sized.execute_script(SNIPPETS)}
    text, marks, fits = shown["META-07 traceparent / tracestate / baggage"]
    # The entry's section holds some 1,800 characters; the result, the words around each match.
    assert 0 < len(text) <= 400, text
    assert marks and {mark.lower() for mark in marks} == {"traceparent"}, marks
    assert all(fits for _, _, fits in shown.values())  # no line runs off the side at 390 px


def test_the_words_of_an_id_are_marked_only_where_it_is_written(site: str, browser) -> None:  # type: ignore[no-untyped-def]
    """In a result for GOMETA-04, 04 is marked in GOMETA-04, not in PC-04 beside it."""
    typed(browser, site, "GOMETA-04")
    for _, text, marks, _ in browser.execute_script(SNIPPETS):
        assert marks.count("04") <= text.lower().count("gometa-04"), (text, marks)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_date_is_one_word_and_its_revision_page_comes_first(site: str, sized, width: int) -> None:  # type: ignore[no-untyped-def]
    """2025-06-18 was 2025, 06 and 18: GOMETA-06 came first, then META-06."""
    groups = typed(sized, site, "2025-06-18")
    assert groups[0]["top"][0] == "registers/revisions/2025-06-18/", groups[0]
    found = [text for group in groups for _, text in group["sections"]]
    assert all("2025-06-18" in text for text in found), found
    for _, text, marks, _ in sized.execute_script(SNIPPETS):  # not the 2025 of 2025-03-26
        assert marks.count("2025") <= text.count("2025-06-18"), (text, marks)
    # nor material's "Missing: 06 18", for a date found whole
    assert not sized.find_elements("css selector", ".md-search-result__terms")


SCHEMES = ["default", "slate"]


@pytest.mark.parametrize("scheme, width", tiers.diagonal(SCHEMES, WIDTHS))
def test_the_results_pass_axe_in_both_schemes(  # type: ignore[no-untyped-def]
    site: str, sized, axe_script: str, scheme: str, width: int
) -> None:
    """The shortened results (their marks, their text on the dialog's background) read at
    4.5:1 and break no other rule axe-core holds, in either colour scheme."""
    from selenium.webdriver.common.by import By

    typed(sized, site, "META-07")
    axecheck.set_scheme(sized, scheme)
    assert sized.find_elements(By.CSS_SELECTOR, ".reg-snippet mark")
    # Material's own parts of the dialog (its count line, tags, marks in titles) are its to
    # fix, as everywhere (tests/axecheck.py): the snippets are ours.
    found = axecheck.violations(sized, axe_script, within=".reg-snippet")
    assert not found, axecheck.describe(found)

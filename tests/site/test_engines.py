"""The same register pages through every engine: MkDocs and ProperDocs with the plugin,
Zensical from `register render --out docs` (docs/publishing.md).

Each engine builds the golden registers, pinned to a real checkout so that citations have
excerpts, with the mkdocs.yml `register init --engine` writes for it. In headless Chromium
each built site must have the entries' anchors, a link from one register to an entry of
another that lands on it, an excerpt that opens in place (the pages' script and styles
delivered the way the engine takes them) and a search that finds an entry by its ID.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import browsing
import builder
import engines
from browsing import search, served, wait

pytestmark = browsing.needs_chromium


def golden_site(root: Path, engine: str) -> dict[str, str]:
    """The golden registers pinned to a checkout, docs/ with a home and a legend page, and
    `engine`'s mkdocs.yml, in `root`; returns the environment naming the checkout."""
    repo, sha = builder.source(root / "impl", builder.IMPL, "impl")
    builder.golden(root, sha)
    legend = "# Legend\n\n## Priorities\n\n## Revisions\n"  # the sections the pages link to
    home = "# Home\n\nThe [registers](registers/index.md).\n"
    builder.site(root, engines.config(engine, "engines"), {"index.md": home, "legend.md": legend})
    return {"REGISTER_SOURCE_IMPL": str(repo.root)}


@dataclass(frozen=True)
class Built:
    engine: str
    url: str
    """The built site's base URL, served on a local port."""


# ProperDocs runs the plugin as MkDocs does (tests/site/test_pruned_nav.py builds with it in
# the default tier): its pages in the browser are in the long tier.
@pytest.fixture(
    scope="module",
    params=[
        pytest.param(engine, marks=pytest.mark.slow) if engine == "properdocs" else engine
        for engine in engines.ENGINES
    ],
)
def engine_site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Built]:
    engine = request.param
    if not engines.installed(engine):
        pytest.skip(f"{engine} is not installed (pip install -e '.[test]' brings it)")
    root = tmp_path_factory.mktemp(engine)
    engines.build_with(engine, root, golden_site(root, engine))
    for url in served(root / "site"):
        yield Built(engine, url)


def test_each_entry_has_its_anchor(engine_site: Built, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(engine_site.url + "registers/alpha/")
    for anchor in ("alp-01", "alp-02"):
        heading = browser.find_element(By.ID, anchor)
        assert heading.tag_name == "h2" and anchor.upper() in heading.text


def test_a_link_to_another_register_lands_on_its_entry(engine_site: Built, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    base = engine_site.url
    browser.get(base + "registers/beta/")
    link = browser.find_element(By.CSS_SELECTOR, "#bet-01 ~ ul a[href='../alpha/#alp-01']")
    browser.execute_script("arguments[0].click()", link)
    wait(lambda: browser.current_url == base + "registers/alpha/#alp-01")
    top = wait(
        lambda: browser.execute_script(
            "const t = document.getElementById('alp-01').getBoundingClientRect().top;"
            "return t >= 0 && t < 200 ? t + 1 : 0"
        )
    )
    assert top  # scrolled to the heading, below the sticky header


def test_a_badge_has_its_colours(engine_site: Built, browser) -> None:  # type: ignore[no-untyped-def]
    """The stylesheet reached the page: a state badge is coloured, not plain text."""
    from selenium.webdriver.common.by import By

    browser.get(engine_site.url + "registers/alpha/")
    badge = browser.find_element(By.CSS_SELECTOR, ".reg-badge.reg-state--partial")
    colour = badge.value_of_css_property("background-color")
    assert colour not in ("rgba(0, 0, 0, 0)", "transparent"), colour


def test_an_excerpt_opens_in_place(engine_site: Built, browser) -> None:  # type: ignore[no-untyped-def]
    """The script reached the page: the excerpt link is folded into a collapsed excerpt,
    which fetches the register's excerpt file when opened and shows the cited line."""
    from selenium.webdriver.common.by import By

    browser.get(engine_site.url + "registers/alpha/")
    summary = wait(lambda: browser.find_elements(By.CSS_SELECTOR, "details.quote summary"))[0]
    assert summary.text.startswith("Line 40 @ ")  # the path is the citation's, above it
    summary.click()
    details = summary.find_element(By.XPATH, "..")
    marked = wait(lambda: details.find_elements(By.CSS_SELECTOR, ".highlight .hll"))
    assert [line.text for line in marked] == ["func line40() {}"]


def test_search_finds_an_entry_by_its_id(engine_site: Built, browser) -> None:  # type: ignore[no-untyped-def]
    if engine_site.engine == "zensical":
        results = zensical_search(browser, engine_site.url, "ALP-02")
    else:  # material's search: the page, then its sections
        results = [href for href in search(browser, engine_site.url, "ALP-02") if "#" in href]
    assert results[0].replace("?h=alp+02", "") == engine_site.url + "registers/alpha/#alp-02", (
        results
    )


def zensical_search(driver, base: str, query: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The result links Zensical's search shows for `query`: its dialog is drawn in a
    shadow root, opened by the header's search button."""
    from selenium.webdriver.common.by import By

    driver.get(base)
    driver.find_element(By.CSS_SELECTOR, "button.md-search__button").click()
    find_root = "return Array.from(document.body.children).find(c => c.shadowRoot).shadowRoot"
    root = wait(lambda: driver.execute_script(find_root))
    wait(lambda: root.find_elements(By.CSS_SELECTOR, "input"))[0].send_keys(query)

    def settled() -> list[str]:
        read = (
            "const root = Array.from(document.body.children).find(c => c.shadowRoot).shadowRoot;"
            "return Array.from(root.querySelectorAll('a')).map(a => a.href)"
        )
        first = driver.execute_script(read)
        time.sleep(0.3)
        return first if first and first == driver.execute_script(read) else []

    return list(wait(settled))

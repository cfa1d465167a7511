"""The site of a project fresh from `register init`, in headless Chromium: the example
site's theme set-up (a light/dark toggle, the nav's order, the name once), no request to
another host (docs/authoring.md promises it), nothing to scroll sideways on a phone, and
the same axe-core check as every other page."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from test_browser import axe_at

import axecheck
import browsing
import tiers
from browsing import built_and_served, wait
from compat_register import api

pytestmark = browsing.needs_chromium

NAME = "Init site"
PAGES = ["", "registers/", "registers/example/", "registers/priorities/"]


@pytest.fixture(scope="module")
def init_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("init-site")
    api.init(root, NAME, today=datetime.date(2026, 1, 1))
    yield from built_and_served(root)


OTHER_HOSTS = """
const base = new URL(arguments[0]).origin;
const asked = performance.getEntriesByType('resource').map(e => e.name);
const named = Array.from(document.querySelectorAll('[href], [src]'))
  .filter(e => ['LINK', 'SCRIPT', 'IMG', 'IFRAME', 'SOURCE', 'VIDEO', 'AUDIO'].includes(e.tagName))
  .map(e => e.href || e.src);
return [...asked, ...named].filter(url => new URL(url, base).origin !== base);
"""
"""Every URL the page fetched (its resource timing entries) or names for fetching (links,
scripts, images), on another host than the site's."""


@pytest.mark.parametrize("page", PAGES)
def test_a_page_asks_no_other_host_for_anything(init_site: str, browser, page: str) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(init_site + page)
    wait(lambda: browser.find_elements(By.CSS_SELECTOR, "article h1"))
    assert browser.execute_script(OTHER_HOSTS, init_site) == []


def test_the_nav_names_the_site_once_then_home_then_the_registers(init_site: str, browser) -> None:  # type: ignore[no-untyped-def]
    browser.get(init_site + "registers/example/")
    nav = browser.execute_script(
        "const nav = document.querySelector('.md-nav--primary');"
        "const label = e => e.querySelector(':scope > a, :scope > label, :scope > div > a')"
        "  .textContent.trim();"
        "return {title: nav.querySelector(':scope > .md-nav__title').textContent.trim(),"
        " top: Array.from(nav.querySelectorAll(':scope > ul > li')).map(label),"
        " registers: Array.from(nav.querySelectorAll("
        "   ':scope > ul > li:nth-child(2) > nav > ul > li')).map(label), text: nav.textContent};"
    )
    assert nav["title"] == NAME and nav["text"].count(NAME) == 1
    assert nav["top"] == ["Home", "Registers"]  # the overview is the section's own page
    assert nav["registers"] == [
        "Example", "Revisions", "Priorities", "Citation health",
    ]  # fmt: skip


def test_the_toggle_switches_between_light_and_dark(init_site: str, browser) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    browser.get(init_site + "registers/")
    schemes = []
    for _ in range(3):
        schemes.append(browser.execute_script("return document.body.dataset.mdColorScheme"))
        toggle = wait(
            lambda: [
                label
                for label in browser.find_elements(
                    By.CSS_SELECTOR, "form[data-md-component=palette] label"
                )
                if label.is_displayed()
            ]
        )
        toggle[0].click()
    assert schemes == ["default", "slate", "default"]


@pytest.mark.parametrize("page", PAGES)
def test_nothing_scrolls_sideways_on_a_phone(init_site: str, browser, page: str) -> None:  # type: ignore[no-untyped-def]
    width, scrolled = browsing.page_widths(browser, init_site + page)
    assert scrolled <= width


@pytest.mark.parametrize(
    "page, scheme, width", tiers.diagonal(PAGES, ["default", "slate"], [1400, 390])
)
def test_no_serious_axe_violation(
    init_site: str, browser, page: str, scheme: str, width: int
) -> None:  # type: ignore[no-untyped-def]
    violations = axe_at(browser, axecheck.script(), init_site + page, scheme, width)
    assert not violations, axecheck.describe(violations)

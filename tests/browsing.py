"""The browser tests' one set-up: headless Chromium driven by Selenium, a built site served
over HTTP on 127.0.0.1, and waits for what a page does. The fixtures `browser`,
`browser_without_js` and `axe_script` (tests/conftest.py) are made here; a module of browser
tests marks itself `pytestmark = browsing.needs_chromium`."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
HANG = 60
"""Seconds after which a page, a server or a wait counts as hung: a bound far above what any
takes, loaded machine included, not a measure of speed (that is bench/'s)."""

needs_chromium = pytest.mark.skipif(
    not (CHROMIUM.exists() and DRIVER.exists()),
    reason="needs /usr/bin/chromium and /usr/bin/chromedriver (apt-get install chromium "
    "chromium-driver; .ci/run does)",
)


def chromium(profile: Path, javascript: bool = True) -> Iterator[object]:
    """Headless Chromium driven by Selenium, with JavaScript on or off."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    if not javascript:
        options.add_experimental_option(
            "prefs", {"profile.managed_default_content_settings.javascript": 2}
        )
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        # A mouse, as on a desktop: headless Chromium reports no pointer that hovers, and
        # material makes a code block that scrolls focusable (tabindex) only where one does.
        "--blink-settings=primaryHoverType=2,availableHoverTypes=2,"
        "primaryPointerType=4,availablePointerTypes=4",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    # An explicit driver path: Selenium Manager would otherwise try to download one.
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    driver.set_page_load_timeout(HANG)
    if javascript:  # without it no script marks the page left (waiting_for_new_pages)
        waiting_for_new_pages(driver)
    try:
        yield driver
    finally:
        driver.quit()


# A Selenium driver whose `get` returns once the new page is the one a script reads.
#
# Now and then, after `get` of the page the browser is already on (a test after another on
# the same page), chromedriver ran the next script in the document being left: a capture
# showed the new page complete, its charts in the page source, and `querySelectorAll` in the
# script finding none (1 run in 10 on a loaded machine, each time a different test). So the
# old document is marked before the navigation, and `get` waits until a script reads a
# document without the mark that has finished loading (its DOMContentLoaded handlers, the
# register script's among them, have run).
_MARK = "window.__regPageLeft = true;"
_NEW_AND_LOADED = "return !window.__regPageLeft && document.readyState === 'complete';"


def waiting_for_new_pages(driver: Any, seconds: float = 10) -> Any:
    """`driver` with its `get` waiting for the new document (see above)."""
    from selenium.webdriver.support.ui import WebDriverWait

    plain_get = driver.get

    def get(url: str) -> None:
        driver.execute_script(_MARK)
        plain_get(url)
        WebDriverWait(driver, seconds).until(lambda d: d.execute_script(_NEW_AND_LOADED))

    driver.get = get
    return driver


def served(site: Path) -> Iterator[str]:
    """The site in `site` served by `python -m http.server` on 127.0.0.1, port 0; yields its
    base URL, read from the line the server prints once it listens."""
    command = [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"]
    with subprocess.Popen(
        command, cwd=site, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()  # Serving HTTP on 127.0.0.1 port N (http://...:N/) ...
            assert "(http://" in line, f"http.server did not start: {line!r}"
            yield line.split("(", 1)[1].split(")", 1)[0]
        finally:
            server.terminate()


def built_and_served(
    root: Path, env: dict[str, str] | None = None, strict: bool = True
) -> Iterator[str]:
    """`mkdocs build --strict` (or a plain build) of the site in `root`, served by
    `python -m http.server`; yields its base URL."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    command = [sys.executable, "-m", "mkdocs", "build", "-d", str(root / "site")]
    done = subprocess.run(
        [*command, "--strict"] if strict else command,
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    yield from served(root / "site")


def wait(condition, seconds: float = HANG):  # type: ignore[no-untyped-def]
    """Poll `condition()` until it returns something truthy."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out waiting for the page")


def type_query(driver, base: str, query: str) -> None:  # type: ignore[no-untyped-def]
    """`query` typed into material's search box on the page at `base` (behind its button
    on a phone)."""
    from selenium.webdriver.common.by import By

    driver.get(base)
    box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
    if not box.is_displayed():
        driver.find_element(By.CSS_SELECTOR, "label.md-header__button[for='__search']").click()
        wait(box.is_displayed)
    box.click()
    box.send_keys(query)


def search(driver, base: str, query: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The result links material's search shows for `query`, in order, typed into the search
    box (behind its button on a phone)."""
    type_query(driver, base, query)

    def links() -> list[str]:
        # Read in one script: the list is re-rendered as results arrive (stale elements).
        return list(
            driver.execute_script(
                "return Array.from(document.querySelectorAll('.md-search-result__list a'))"
                ".map(a => a.href)"
            )
        )

    def settled() -> list[str]:
        # Results update as each key lands: take them once three reads agree.
        first = links()
        time.sleep(0.3)
        second = links()
        time.sleep(0.3)
        return first if first and first == second == links() else []

    return list(wait(settled))


def page_widths(driver: Any, url: str, width: int = 390) -> tuple[int, int]:
    """(client width, scroll width) of the page at `url` in a window `width` px wide (a
    phone's, by default); the window is made desktop-wide again after."""
    driver.set_window_size(width, 844)
    try:
        driver.get(url)
        script = "var e = document.documentElement; return [e.clientWidth, e.scrollWidth];"
        client, scrolled = driver.execute_script(script)
    finally:
        driver.set_window_size(1400, 1000)
    return client, scrolled

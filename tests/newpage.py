"""A Selenium driver whose `get` returns once the new page is the one a script reads.

Now and then, after `get` of the page the browser is already on (a test after another on
the same page), chromedriver ran the next script in the document being left: a capture
showed the new page complete, its charts in the page source, and `querySelectorAll` in the
script finding none (1 run in 10 on a loaded machine, each time a different test). So the
old document is marked before the navigation, and `get` waits until a script reads a
document without the mark that has finished loading (its DOMContentLoaded handlers, the
register script's among them, have run).
"""

from __future__ import annotations

from typing import Any

_MARK = "window.__regPageLeft = true;"
_NEW_AND_LOADED = "return !window.__regPageLeft && document.readyState === 'complete';"


def waiting_for_new_pages(driver: Any, seconds: float = 10) -> Any:
    """`driver` with its `get` waiting for the new document (see the module)."""
    from selenium.webdriver.support.ui import WebDriverWait

    plain_get = driver.get

    def get(url: str) -> None:
        driver.execute_script(_MARK)
        plain_get(url)
        WebDriverWait(driver, seconds).until(lambda d: d.execute_script(_NEW_AND_LOADED))

    driver.get = get
    return driver

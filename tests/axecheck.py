"""axe-core in the browser tests: the script (as the selenium-axe-python package ships it),
what is left out of a run, and the violations that fail a test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

MATERIAL_CHROME = [".md-header", ".md-tabs", ".md-sidebar", ".md-footer", ".md-search"]
"""mkdocs-material's own header, navigation tabs, sidebars, footer and search: not ours to
fix, left out of every axe run. The page's content (`.md-content`) and the document itself
(its title, language, landmarks) are checked."""

BLOCKING = ("serious", "critical")
"""The impacts that fail a test; axe's `moderate` and `minor` findings are not counted."""

SCROLLING_CODE_READY = (
    "return Array.from(document.querySelectorAll('pre > code'))"
    ".every(c => c.scrollWidth <= c.clientWidth || c.hasAttribute('tabindex'))"
)
"""True once material has made every code block that scrolls focusable (it measures them
after load)."""


def script() -> str:
    """axe-core's script; the test is skipped when selenium-axe-python is not installed."""
    axe = pytest.importorskip("selenium_axe_python")
    return Path(axe.__file__).with_name("axe-core").joinpath("axe.min.js").read_text("utf-8")


def set_scheme(browser: Any, scheme: str) -> None:
    """What material's palette toggle sets. Colour transitions go first, or axe reads
    colours halfway between the two schemes."""
    browser.execute_script(
        "var s = document.createElement('style');"
        "s.textContent = '*, *::before, *::after { transition: none !important }';"
        "document.head.appendChild(s);"
        "document.body.setAttribute('data-md-color-scheme', arguments[0])",
        scheme,
    )


def violations(
    browser: Any, axe: str, whole: bool = False, within: str = ""
) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds on the page, material's chrome left out
    unless `whole` (the page as a reader meets it: header, search, sidebars, footer too);
    with `within` (a CSS selector), in those elements only."""
    browser.execute_script(axe)
    context: Any = {"exclude": [[selector] for selector in MATERIAL_CHROME]}
    if whole or within:
        context = {"include": [[within or "html"]]}
    results = browser.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(arguments[0], {resultTypes: ['violations']}).then(done, e => done(String(e)));",
        context,
    )
    assert isinstance(results, dict), results  # axe's error, as text
    return [v for v in results["violations"] if v["impact"] in BLOCKING]


def describe(found: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in found
    )

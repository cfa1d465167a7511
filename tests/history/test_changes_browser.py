"""The Changes page's charts in headless Chromium: drawn at their size, named with their
numbers, and readable in both colour schemes (each line 3:1 and each label 4.5:1 against
the page, WCAG's contrast for graphics and for text).

A site is built inside the `historyrepo` project repository and served on 127.0.0.1.
Skipped, with the reason, where Debian's chromium and chromium-driver are absent.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import axecheck
import browsing
import builder
import tiers
from compat_register.site.extensions import mkdocs_yaml
from historyrepo import build_history

pytestmark = browsing.needs_chromium

CONFIG = """\
site_name: changes
theme:
  name: material
  palette:
    - scheme: default
    - scheme: slate
plugins:
  - register
"""

# Reads, for each chart on the page, its drawn size, its accessible name, and each line's
# and label's colour beside the page's background, all as the browser computed them.
READ = """
const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
const background = rgb(getComputedStyle(document.body).backgroundColor);
return [...document.querySelectorAll('svg.reg-chart')].map((svg) => ({
  width: svg.viewBox.baseVal.width,
  height: svg.getBoundingClientRect().height,
  name: document.getElementById(svg.getAttribute('aria-labelledby')).textContent,
  background,
  lines: [...svg.querySelectorAll('polyline')].map((l) => rgb(getComputedStyle(l).stroke)),
  labels: [...svg.querySelectorAll('text')].map((t) => rgb(getComputedStyle(t).fill)),
  dashes: [...svg.querySelectorAll('polyline')].map((l) => getComputedStyle(l).strokeDasharray),
}));
"""


def contrast(a: list[float], b: list[float]) -> float:
    def luminance(colour: list[float]) -> float:
        channels = [c / 255 for c in colour]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.fixture(scope="module")
def changes_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    history = build_history(tmp_path_factory.mktemp("changes-browser"))
    root = history.project.root
    builder.site(root, CONFIG + mkdocs_yaml(), {"index.md": "# Home\n"})
    for url in browsing.built_and_served(root):
        yield url + "registers/changes/"


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_the_charts_are_drawn_named_and_readable(changes_site: str, browser, scheme: str) -> None:  # type: ignore[no-untyped-def]
    browser.get(changes_site)
    browser.execute_script(
        "document.body.setAttribute('data-md-color-scheme', arguments[0]);", scheme
    )
    charts = browser.execute_script(READ)
    assert len(charts) == 2
    for chart in charts:
        assert chart["width"] == 640 and chart["height"] > 150  # viewBox survived the sanitizer
        assert " done, " in chart["name"] and " missing on 2023-11-14" in chart["name"]
        assert len({tuple(c) for c in chart["lines"]}) == 3  # three colours
        assert len(set(chart["dashes"])) == 3  # and three dash patterns: not colour alone
        for colour in chart["lines"]:
            assert contrast(colour, chart["background"]) >= 3, (scheme, colour)
        assert chart["labels"]  # the axis' counts and dates
        for colour in chart["labels"]:
            assert contrast(colour, chart["background"]) >= 4.5, (scheme, colour)


@pytest.mark.parametrize("scheme, width", tiers.diagonal(["default", "slate"], [1400, 390]))
def test_no_serious_axe_violation(changes_site: str, browser, scheme: str, width: int) -> None:  # type: ignore[no-untyped-def]
    axe = axecheck.script()
    browser.set_window_size(width, 1000)
    try:
        browser.get(changes_site)
        axecheck.set_scheme(browser, scheme)
        found = axecheck.violations(browser, axe)
    finally:
        browser.set_window_size(1400, 1000)
    assert not found, axecheck.describe(found)


LABELS = """
return [...document.querySelectorAll('svg.reg-chart')].map((svg) => {
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const texts = [...svg.querySelectorAll('text')];
  const ends = [...svg.querySelectorAll('polyline')].map((l) => {
    const points = l.points;
    return points.getItem(points.numberOfItems - 1).x;
  });
  const table = svg.closest('figure').nextElementSibling;
  return {
    sizes: texts.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale),
    ends,
    table: table ? table.querySelectorAll('tbody tr').length : 0,
  };
});
"""


@pytest.mark.parametrize("width", [1400, 390])
def test_the_charts_share_an_axis_to_the_build_and_read_at_any_width(  # type: ignore[no-untyped-def]
    changes_site: str, browser, width: int
) -> None:
    browser.set_window_size(width, 1000)
    try:
        browser.get(changes_site)
        charts = browser.execute_script(LABELS)
    finally:
        browser.set_window_size(1400, 1000)
    assert len(charts) == 2
    ends = {end for chart in charts for end in chart["ends"]}
    assert len(ends) == 1  # every line of every chart ends at the same x: the build
    for chart in charts:
        assert min(chart["sizes"]) >= 11, chart["sizes"]  # printed at 11 px or more
        assert chart["table"] >= 1  # the numbers behind it, one row per change
    legend = browser.find_elements("css selector", ".reg-chart-legend .reg-chart-key")
    assert [key.text for key in legend] == ["done", "partial", "missing"]

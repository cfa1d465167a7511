"""What a reader meets first on the generated pages, as Markdown and SVG: a register page's
state counts, compact table and edit links, the charts' shared axis, the health pages' split
and the JSON download (the browser side is tests/site/test_reader.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compat_register import api
from compat_register.reporting import export
from compat_register.site import chart
from compat_register.site import renderer as render
from compat_register.site import urls as layout
from compat_register.site.urls import edit_base, edit_link

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden" / "basic" / "registers"
DAY = 86_400


def polylines(svg: str) -> list[list[tuple[float, float]]]:
    return [
        [tuple(float(n) for n in point.split(",")) for point in found.split()]  # type: ignore[misc]
        for found in re.findall(r'<polyline[^>]* points="([^"]+)"', svg)
    ]


def test_every_line_runs_to_the_end_of_the_shared_axis() -> None:
    points = [(10 * DAY, {"done": 1, "partial": 2}), (20 * DAY, {"done": 3, "partial": 0})]
    svg = chart.svg("R", "r", points, span=(0, 40 * DAY))
    end = chart.WIDTH - chart.RIGHT
    for line in polylines(svg):
        assert line[-1][0] == end  # to the build, not to the last change
        # ... at the last count, not at a step of no width at the edge.
        assert line[-1][1] == line[-2][1] and line[-2][0] < end
    span = end - chart.LEFT
    assert polylines(svg)[0][0][0] == pytest.approx(chart.LEFT + span / 4, abs=0.1)  # day 10 of 40
    assert ">1970-01-01<" in svg and ">1970-02-10<" in svg  # the axis' two ends


def test_lines_of_equal_counts_are_drawn_side_by_side() -> None:
    """done and partial at 2 each, then all three at 0: no line hides another."""
    points = [(DAY, {"done": 2, "partial": 2, "missing": 1}), (2 * DAY, {})]
    done, partial, missing = polylines(chart.svg("R", "r", points))
    assert [x for x, _ in done] == [x for x, _ in partial] == [x for x, _ in missing]
    assert all(d + chart.SPREAD == p for (_, d), (_, p) in zip(done, partial, strict=True))
    assert all(
        p + chart.SPREAD == m for (_, p), (_, m) in zip(partial[2:], missing[2:], strict=True)
    )


def test_the_changes_page_charts_share_one_axis_and_a_table() -> None:
    from compat_register.history.diffing import Diff
    from compat_register.history.repository import Commit, History

    early = Commit("a" * 40, 10 * DAY, "first", Diff())
    late = Commit("b" * 40, 30 * DAY, "second", Diff())
    registers = api.check(GOLDEN).registers
    alpha, beta = (r.slug for r in registers.registers)
    counts = {alpha: [(early, {"done": 1})], beta: [(late, {"missing": 2})]}
    history = History([late, early], False, counts)
    renderer = render.Renderer(registers, history=history, built=40 * DAY)
    page = renderer.pages()["registers/changes.md"]
    starts = re.findall(r'<text x="40" y="174">([\d-]+)</text>', page)
    ends = re.findall(r'text-anchor="end">([\d-]+)</text>', page)
    assert starts == ["1970-01-11", "1970-01-11"]  # one axis: from the first change of any
    assert "1970-02-10" in ends
    assert "| 1970-01-31 | 0 | 0 | 2 |" in page  # the numbers behind beta's chart
    # A register page says when its file last changed, from the history.
    alpha_page = renderer.pages()["registers/alpha.md"]
    assert "**Last changed** [1970-01-11](changes.md#commit-aaaaaaaaaaaa)" in alpha_page


def test_a_register_page_opens_with_its_counts_and_entries() -> None:
    registers = api.check(GOLDEN).registers
    page = render.Renderer(registers).pages()["registers/alpha.md"]
    head, _, _ = page.partition("Alpha is about")  # before the summary
    assert "**2 entries:**" in head and ">1 partial<" in head and ">1 missing<" in head
    assert '<div class="reg-entries" data-search-exclude>' in head
    rows = re.findall(r'<tr><td><a href="#([a-z0-9-]+)">([A-Z]+-\d+)</a>', head)
    assert rows == [("alp-01", "ALP-01"), ("alp-02", "ALP-02")]
    last = '<span class="reg-nowrap" title="2026-02-03T04:05:06+00:00">2026-02-03</span>'
    assert f"**Last updated** {last}" in head  # no history: the header's day, on one line


def test_an_entry_links_to_its_yaml_line_when_the_site_knows_its_repository() -> None:
    registers = api.check(GOLDEN).registers
    base = "https://github.com/o/r/edit/main/tests/golden/basic/registers/"
    page = render.Renderer(registers, edit_url=base).pages()["registers/alpha.md"]
    entry = registers.registers[0].entries[0]
    link = f"[Edit ALP-01 at alpha.yaml:{entry.where.line}]({base}alpha.yaml#L{entry.where.line})"
    assert link + "{ .reg-edit }" in page
    assert ".reg-edit" not in render.Renderer(registers).pages()["registers/alpha.md"]
    assert edit_link("javascript:alert(1)//", registers.registers[0], entry) == ""


@pytest.mark.parametrize(
    "repo_url, edit_uri, docs, registers, expected",
    [
        ("https://github.com/o/r", "edit/main/docs/", "docs", "registers",
         "https://github.com/o/r/edit/main/registers/"),
        ("https://github.com/o/r/", "edit/main/site/docs/", "docs", "registers",
         "https://github.com/o/r/edit/main/site/registers/"),
        (None, "https://gitlab.example/o/r/-/edit/main/docs/", "docs", "data/registers",
         "https://gitlab.example/o/r/-/edit/main/data/registers/"),
        ("https://github.com/o/r", "edit/main/documentation/", "docs", "registers", None),
        ("https://github.com/o/r", "", "docs", "registers", None),
        ("https://github.com/o/r", "edit/main/docs/", "docs", "../registers", None),
    ],
)  # fmt: skip
def test_where_the_registers_are_edited(
    repo_url: str | None, edit_uri: str, docs: str, registers: str, expected: str | None
) -> None:
    assert edit_base(repo_url, edit_uri, docs, registers) == expected


def test_the_health_page_lists_stale_citations_and_links_each_registers_page() -> None:
    registers = api.check(GOLDEN).registers
    pages = render.Renderer(registers).pages()
    health = pages["registers/health.md"]
    assert "| [Alpha](health/alpha.md) | 8 | 0 | 8 unverified |" in health
    assert "No citation is stale." in health
    assert "registers/alpha.yaml:17" not in health  # an unverified row: on alpha's own page
    assert "registers/alpha.yaml:17" in pages["registers/health/alpha.md"]
    assert "registers/beta.yaml:13" in pages["registers/health/beta.md"]


def test_the_site_offers_the_register_set_as_json() -> None:
    registers = api.check(GOLDEN).registers
    renderer = render.Renderer(registers)
    downloads = renderer.downloads()
    assert json.loads(downloads["registers/registers.json"]) == export.export(registers)
    overview = renderer.pages()["registers/index.md"]
    assert "[registers.json](registers.json){ .reg-link }" in overview
    assert render.Renderer(registers, layout=layout.Layout(download=None)).downloads() == {}


def test_the_overview_s_state_bars_have_a_key_in_words() -> None:
    registers = api.check(GOLDEN).registers
    page = render.Renderer(registers).pages()["registers/index.md"]
    [legend] = re.findall(r'<p class="reg-bar-legend">.*</p>', page)
    keys = re.findall(r'<rect class="reg-bar--([a-z-]+)"[^>]*></rect></svg>([^<]+)</span>', legend)
    assert keys == [
        ("done", "done"),
        ("partial", "partial"),
        ("missing", "missing"),
        ("n-a", "n/a"),
    ]
    bars = re.findall(r'<svg class="reg-bar".*?</svg>', page)
    assert bars and all(
        re.findall(r'class="reg-bar--([a-z-]+)"', bar)
        == [k for k, _ in keys if f"reg-bar--{k}" in bar]
        for bar in bars
    )  # the key is in the bars' order

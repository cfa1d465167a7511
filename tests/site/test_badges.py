"""The badges and the concept pages as values: SVG that any text leaves well formed, with
its words drawn and named; where each file goes; a cell's state per revision; the site
build hands the badges out beside the pages, to every engine."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

from compat_register import api
from compat_register.site import conceptpages
from compat_register.site.urls import Layout
from compat_register.views import conceptmatrix as view

CASE = Path(__file__).parents[1] / "golden" / "concepts" / "registers"
SVG = "{http://www.w3.org/2000/svg}"


def test_a_badge_escapes_its_text_and_names_itself() -> None:
    """A subject titled with markup, quotes and a control character: the SVG parses, its
    title and drawn texts are the words as written (the control character dropped)."""
    hostile = '<script>alert("x")</script> & \x07co'
    made = conceptpages.svg(hostile, [("1 done", "done"), ("2 missing", "missing")])
    tree = ET.fromstring(made)
    words = '<script>alert("x")</script> & co | 1 done | 2 missing'
    assert tree.get("aria-label") == words and tree.get("role") == "img"
    assert tree.find(f"{SVG}title").text == words
    texts = tree.findall(f".//{SVG}text")
    assert [t.text for t in texts] == ['<script>alert("x")</script> & co', "1 done", "2 missing"]
    fills = [rect.get("fill") for rect in tree.findall(f".//{SVG}rect")]
    assert fills == [
        conceptpages.LABEL,
        conceptpages.COLOURS["done"],
        conceptpages.COLOURS["missing"],
    ]
    assert "<script>" not in made


def test_a_badge_is_as_wide_as_its_words() -> None:
    """Each part's box holds its text's length (`textLength`), boxes side by side."""
    tree = ET.fromstring(conceptpages.svg("mcpx", [("12 partial", "partial")]))
    rects, texts = tree.findall(f".//{SVG}rect"), tree.findall(f".//{SVG}text")
    assert [int(r.get("width")) for r in rects] == [4 * 7 + 12, 10 * 7 + 12]
    assert [int(t.get("textLength")) for t in texts] == [28, 70]
    assert rects[1].get("x") == "40" and tree.get("width") == "122"


def test_subject_and_concept_badges_of_a_matrix() -> None:
    registers = api.check(CASE).registers
    shown = view.matrix(registers)
    made = conceptpages.badges(shown, Layout())
    assert sorted(made) == [
        "registers/badges/client.svg",
        "registers/badges/concept/mcp.meta.progress.svg",
        "registers/badges/concept/mcp.meta.svg",
        "registers/badges/concept/mcp.meta.trace.baggage.svg",
        "registers/badges/concept/mcp.meta.trace.svg",
        "registers/badges/concept/mcp.unnamed.svg",
        "registers/badges/concept/server-initialize.svg",
        "registers/badges/server.svg",
    ]
    title = lambda path: ET.fromstring(made[path]).find(f"{SVG}title").text  # noqa: E731
    assert title("registers/badges/client.svg") == "A client | 2 done | 1 partial | 1 missing"
    assert title("registers/badges/concept/mcp.meta.trace.baggage.svg") == (
        "mcp.meta.trace.baggage | A client missing | A server n/a"
    )
    assert title("registers/badges/concept/mcp.unnamed.svg") == (
        "mcp.unnamed | A client not recorded | A server not recorded"
    )


def test_where_the_pages_and_badges_go() -> None:
    layout = Layout()
    assert layout.concept_page("mcp.meta.typed") == "registers/concepts/mcp.meta.typed.md"
    assert layout.concept_page("index") == "registers/concepts/index-.md"  # never the folder's
    assert layout.subject_badge("go-sdk") == "registers/badges/go-sdk.svg"
    assert layout.concept_badge("a/../b") == "registers/badges/concept/a-..-b.svg"


def test_a_cell_per_revision_rolls_up_the_entries_that_apply() -> None:
    registers = api.check(CASE).registers
    row = next(r for r in view.matrix(registers).rows if r.concept.id == "mcp.meta.progress")
    cell = row.cells[1]  # A server: SRV-01 done, SRV-02 missing
    srv01, srv02 = cell.entries
    order = ["2024-11-05", "2025-06-18", "2026-07-28"]
    late = replace(srv02, revisions=replace(srv02.revisions, added="2026-07-28"))
    gone = replace(srv01, revisions=replace(srv01.revisions, removed="2025-06-18"))
    assert conceptpages.by_revision(replace(cell, entries=(srv01, late)), order) == [
        "done", "done", "partial"
    ]  # fmt: skip
    assert conceptpages.by_revision(replace(cell, entries=(gone, late)), order) == [
        "done", "absent", "missing"
    ]  # fmt: skip
    assert conceptpages.by_revision(row.cells[0], order) == ["done"] * 3  # none recorded: all
    empty = next(r for r in view.matrix(registers).rows if r.concept.id == "mcp.unnamed")
    assert conceptpages.by_revision(empty.cells[0], order) == ["not recorded"] * 3


def test_the_site_hands_out_the_concept_pages_and_badges(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`register render` and the plugin write `Site.files()`: the badges are among them,
    each concept has a page, listed in the nav under the Matrix in the matrix's order."""
    monkeypatch.chdir(CASE.parent)
    site = api.build_site(Path("registers"), api.SiteOptions(verify=False, history=False))
    files = site.files()
    assert "registers/badges/server.svg" in files
    assert "registers/badges/concept/mcp.meta.trace.svg" in files
    assert "registers/concepts/mcp.meta.trace.md" in site.pages
    matrix = next(item["Matrix"] for item in site.nav if "Matrix" in item)
    assert matrix[0] == {"Matrix": "registers/matrix.md"}  # its title, as its heading
    assert [next(iter(item.values())) for item in matrix[1:3]] == [
        "registers/concepts/mcp.meta.md",
        "registers/concepts/mcp.meta.progress.md",
    ]
    assert "](concepts/mcp.meta.trace.md)" in site.pages["registers/matrix.md"]

"""What a page depends on (`site.rebuild`): an edit changes the inputs of the pages that
show it, and of no other, so that `mkdocs serve` renders those again and reuses the rest."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from compat_register import api
from compat_register.site import rebuild
from compat_register.site.urls import Layout

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "basic" / "registers"
LAYOUT = Layout()


@pytest.fixture
def registers(tmp_path: Path) -> Path:
    shutil.copytree(GOLDEN, tmp_path / "registers")
    return tmp_path / "registers"


def inputs(registers: Path) -> dict[str, bytes]:
    checked = api.check(registers)
    files = rebuild.file_states(registers)
    return rebuild.page_inputs(checked.registers, (), LAYOUT, registers, files, ("options",))


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def changed(before: dict[str, Any], after: dict[str, Any]) -> set[str]:
    return {page for page in before.keys() | after.keys() if before.get(page) != after.get(page)}


def test_an_edit_of_prose_changes_its_own_page_only(registers: Path) -> None:
    before = inputs(registers)
    edit(registers / "beta.yaml", "risk: None.", "risk: None at all.")
    assert changed(before, inputs(registers)) == {"registers/beta.md"}


def test_a_reference_that_goes_changes_the_page_it_pointed_at(registers: Path) -> None:
    before = inputs(registers)
    edit(registers / "beta.yaml", "Points back at ALP-01..ALP-02.", "Points nowhere.")
    assert changed(before, inputs(registers)) == {"registers/beta.md", "registers/alpha.md"}


def test_a_moved_citation_changes_the_health_pages(registers: Path) -> None:
    before = inputs(registers)
    edit(registers / "beta.yaml", "entries:\n", "entries:\n\n\n")  # every line two lower
    # The register's page, the health page, and the register's own health page: not alpha's.
    pages = {"registers/beta.md", "registers/health.md", "registers/health/beta.md"}
    assert changed(before, inputs(registers)) == pages


def test_what_every_page_shows_changes_them_all(registers: Path) -> None:
    before = inputs(registers)
    edit(registers / "beta.yaml", "title: Beta", "title: Beta, renamed")  # a backlink shows it
    assert changed(before, inputs(registers)) == set(before)
    before = inputs(registers)
    edit(registers / "sources.yaml", "pending: [LV]", "pending: [LV, XX]")
    assert changed(before, inputs(registers)) == set(before)


def test_the_health_page_shows_each_outcome(registers: Path) -> None:
    checked = api.check(registers)
    files = rebuild.file_states(registers)
    citation = next(iter(checked.registers.citations()))
    outcome = type("Outcome", (), {"citation": citation, "outcome": "broken", "message": "x"})
    plain = rebuild.page_inputs(checked.registers, (), LAYOUT, registers, files, ())
    broken = rebuild.page_inputs(checked.registers, [outcome], LAYOUT, registers, files, ())  # type: ignore[list-item]
    # The health page and the citation's register's own health page (alpha's).
    assert changed(plain, broken) == {"registers/health.md", "registers/health/alpha.md"}

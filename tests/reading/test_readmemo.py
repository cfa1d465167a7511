"""Register files kept by their bytes between loads in one process (`reading/readmemo.py`):
a kept read is the read a fresh load gives, whatever changed (a register, sources.yaml's
links or pins, concepts.yaml, the settings), and the memo holds one folder's files only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import builder
from compat_register import api
from compat_register.api.loading import project_paths
from compat_register.reading import folder, readmemo
from compat_register.storage.settings import Settings

CONCEPTS = "concepts:\n  - {id: mcp.ping, title: Ping}\n"


@pytest.fixture(autouse=True)
def empty(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with nothing kept, in a process that keeps reads (`mkdocs serve`)."""
    monkeypatch.setattr(readmemo, "_LAST", {})
    monkeypatch.setattr(readmemo, "_KEEPING", {"on": True})


@pytest.fixture
def registers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return builder.golden(tmp_path, builder.GOLDEN_PIN)


def fresh(load: Callable[[], str]) -> str:
    """What `load()` gives with nothing kept."""
    readmemo._LAST.clear()
    return load()


def loaded(root: Path, settings: Settings | None = None) -> str:
    """The loaded folder, and what `register check` makes of it, printed (a concept
    compares by identity, and prints its values)."""
    checked = api.check(root, settings or Settings())
    loaded = folder.load(checked.paths)
    return repr((loaded.registers, loaded.documents, loaded.diagnostics, checked))


def test_a_second_load_keeps_each_unchanged_file_read(registers: Path) -> None:
    paths = project_paths(registers, Settings())
    first = folder.load(paths)
    (registers / "beta.yaml").write_text(
        (registers / "beta.yaml").read_text().replace("title: Beta", "title: Beta edited")
    )
    second = folder.load(paths)
    alpha = [r for r in first.registers.registers if r.slug == "alpha"]
    assert [r for r in second.registers.registers if r.slug == "alpha"][0] is alpha[0]
    beta = [r for r in second.registers.registers if r.slug == "beta"][0]
    assert beta.title == "Beta edited"


EDITS = {
    "a register's title": ("alpha.yaml", "title: Alpha\n", "title: Alpha renamed\n"),
    "a register made invalid": ("alpha.yaml", "title: Alpha\n", "title: [Alpha\n"),
    "sources.yaml's link pattern": ("sources.yaml", "seps/{1}", "proposals/{1}"),
    "sources.yaml's pin": ("sources.yaml", builder.GOLDEN_PIN, "1234567"),
    "concepts.yaml written": ("concepts.yaml", "", CONCEPTS),
}


@pytest.mark.parametrize("edit", EDITS, ids=list(EDITS))
def test_after_an_edit_a_load_is_a_fresh_one(registers: Path, edit: str) -> None:
    name, old, new = EDITS[edit]
    loaded(registers)  # everything kept
    path = registers / name
    text = path.read_text() if path.exists() else ""
    assert old in text
    path.write_text(text.replace(old, new, 1) if old else new)
    kept = loaded(registers)
    assert kept == fresh(lambda: loaded(registers))


def test_a_link_pattern_edit_reads_every_register_again(registers: Path) -> None:
    paths = project_paths(registers, Settings())
    first = folder.load(paths).registers.registers
    builder.edit_sources(registers, "seps/{1}", "proposals/{1}")
    second = folder.load(paths).registers.registers
    assert [a is b for a, b in zip(first, second, strict=True)] == [False, False]


def test_the_settings_change_what_a_load_gives_as_a_fresh_load(registers: Path) -> None:
    loaded(registers)
    settings = Settings(cache=registers.parent / "elsewhere")
    kept = loaded(registers, settings)
    assert kept == fresh(lambda: loaded(registers, settings))


def test_the_memo_holds_only_the_last_folder_read(registers: Path, tmp_path: Path) -> None:
    other = builder.golden(tmp_path / "other", builder.GOLDEN_PIN)
    (other / "beta.yaml").unlink()
    folder.load(project_paths(registers, Settings()))
    assert len(readmemo._LAST) == 2  # alpha and beta
    folder.load(project_paths(other, Settings()))
    assert [key[0] for key in readmemo._LAST] == [str(Path("other/registers/alpha.yaml"))]


def test_a_process_that_does_not_serve_keeps_no_reading(registers: Path) -> None:
    """A command or a cold build loads once: holding every file's document to its end would
    cost memory for nothing (the plugin turns keeping on under `mkdocs serve` alone)."""
    api.keep_reads(False)  # the fixture's keeping, switched off (it is put back after)
    loaded(registers.parent)
    assert readmemo._LAST == {}

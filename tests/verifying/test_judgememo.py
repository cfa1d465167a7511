"""Citations' judgements kept between verifies in one process (`verify.keep_between_builds`,
on under `mkdocs serve` alone): after each kind of edit, a verify that keeps gives exactly
what a verify from nothing gives, and one with nothing changed reads no file from git."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from click.testing import CliRunner

import builder
from compat_register import api
from compat_register.cli import main
from compat_register.sources.checkout import Checkout
from compat_register.storage.settings import Settings
from compat_register.verifying import verify
from gitrepo import GitRepo
from registerfiles import register_head

REGISTER = (
    register_head()
    + """  - id: T-01
    title: Kept
    what: Handled in (src/server.go:3-5), see docs/spec.md:2.
    status: {state: done}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources:
      - src/server.go:3 “func handle(”
      - src/server.go:500
      - docs/spec.md:1 “Implementations SHOULD NOT”
      - docs/notes.txt:1 “Use only this.”
"""
)


@pytest.fixture(autouse=True)
def keeping(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with nothing kept, in a process that keeps (`mkdocs serve`)."""
    monkeypatch.setattr(verify, "_LAST", {})
    monkeypatch.setattr(verify, "_KEEPING", {"on": True})


@pytest.fixture
def upstream(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[GitRepo, str]:
    files = {
        "src/server.go": "package server\n\nfunc handle() {\n}\n",
        "docs/spec.md": "Implementations **SHOULD NOT**\nmake assumptions.\n",
        "docs/notes.txt": "Use **only** this.\n",
        "docs/other.md": "One line.\n",
    }
    repo, commit = builder.source(tmp_path / "upstream", files, "first")
    monkeypatch.setenv("REGISTER_SOURCE_UP", str(repo.root))
    monkeypatch.setenv("REGISTER_CACHE", str(tmp_path / "cache"))
    return repo, commit


@pytest.fixture
def registers(tmp_path: Path, upstream: tuple[GitRepo, str]) -> Path:
    return builder.registers(
        tmp_path / "registers",
        builder.up_sources(upstream[1], claims=["src/**", "docs/**"]),
        {"t.yaml": REGISTER},
    )


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every file path the verifies ask git for (read or prefetched)."""
    asked: list[str] = []
    file_text, prefetch = Checkout.file_text, Checkout.prefetch

    def counted_text(self: Checkout, sha: str, path: str):  # type: ignore[no-untyped-def]
        asked.append(path)
        return file_text(self, sha, path)

    def counted_prefetch(self: Checkout, sha: str, paths: Iterable[str]) -> None:
        paths = list(paths)
        asked.extend(paths)
        prefetch(self, sha, paths)

    monkeypatch.setattr(Checkout, "file_text", counted_text)
    monkeypatch.setattr(Checkout, "prefetch", counted_prefetch)
    return asked


def verified(registers: Path) -> str:
    """The outcomes (with the lines each read) and diagnostics of a verify, printed."""
    found = api.verify_citations(registers, settings=Settings.read())
    shown = [(o, o.excerpt) for o in found.outcomes]
    return repr((shown, found.diagnostics, found.summary))


def fresh(registers: Path) -> str:
    verify._LAST.clear()
    return verified(registers)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_an_unchanged_rebuild_reads_no_file(registers: Path, read: list[str]) -> None:
    first = verified(registers)
    assert read and verify._LAST
    read.clear()
    assert verified(registers) == first
    assert read == []


def test_a_prose_edit_keeps_every_judgement_with_its_new_place(
    registers: Path, read: list[str]
) -> None:
    verified(registers)
    read.clear()
    edit(registers / "t.yaml", "what: Handled in", "what: Now handled, at last, in")
    kept = verified(registers)
    assert read == []
    assert kept == fresh(registers)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("src/server.go:500", "src/server.go:3-4"),  # lines: out of range, now ok
        ("src/server.go:3 “func handle(”", "src/server.go:3 “package server”"),  # quote: moved
        ("(src/server.go:3-5)", "(src/server.go:4-5)"),  # the start alone
        ("(src/server.go:3-5)", "(src/server.go:3-4)"),  # the end alone
        ("see docs/spec.md:2", "see docs/other.md:2"),  # the path alone
    ],
)
def test_a_citation_edit_judges_it_again(registers: Path, old: str, new: str) -> None:
    before = verified(registers)
    edit(registers / "t.yaml", old, new)
    kept = verified(registers)
    assert kept != before
    assert kept == fresh(registers)


def test_the_pin_moved_to_an_edited_file(registers: Path, upstream: tuple[GitRepo, str]) -> None:
    repo, commit = upstream
    verified(registers)
    repo.write("src/server.go", "// header\npackage server\n\nfunc handle() {\n}\n")
    second = repo.commit("second")
    edit(registers / "sources.yaml", commit, second)
    kept = verified(registers)
    assert "moved" in kept
    assert kept == fresh(registers)


def test_the_pin_written_shorter_says_so(registers: Path, upstream: tuple[GitRepo, str]) -> None:
    verified(registers)
    edit(registers / "sources.yaml", upstream[1], upstream[1][:7])
    kept = verified(registers)
    assert f"@ up {upstream[1][:7]}" in kept
    assert kept == fresh(registers)


def test_the_markdown_globs_change_how_a_quote_compares(registers: Path) -> None:
    before = verified(registers)
    edit(registers / "sources.yaml", "docs/**]", "docs/**], markdown: ['docs/*.txt']")
    kept = verified(registers)
    assert kept != before
    assert kept == fresh(registers)


def test_a_lock_edited_stamps_the_kept_judgements_anew(registers: Path) -> None:
    result = CliRunner().invoke(main, ["stamp", "--registers", str(registers)])
    assert "citations.lock written" in result.output
    before = verified(registers)
    lock = registers / "citations.lock"
    digest = re.search(r"\b[0-9a-f]{12,}\b", lock.read_text(encoding="utf-8"))
    assert digest is not None
    edit(lock, digest[0], "0" * len(digest[0]))
    kept = verified(registers)
    assert kept != before
    assert kept == fresh(registers)


def test_nothing_is_kept_when_keeping_is_off(registers: Path, read: list[str]) -> None:
    api.keep_reads(False)
    verified(registers)
    assert verify._LAST == {}
    read.clear()
    verified(registers)
    assert read

"""The evidence rule: a `done` or `partial` entry cites its register's subject."""

from __future__ import annotations

from pathlib import Path

import pytest

import builder
from conftest import RunLine
from registerfiles import REVISION_SOURCES as SOURCES
from registerfiles import register_head
from registerfiles import revision_entry as entry


def check(tmp_path: Path, run_line: RunLine, *entries: str, strict: bool = False):  # type: ignore[no-untyped-def]
    builder.registers(tmp_path, SOURCES, {"t.yaml": register_head() + "".join(entries)})
    return run_line(["check", "--registers", str(tmp_path), *(["--strict"] if strict else [])])


@pytest.mark.parametrize("state", ["done", "partial"])
def test_citing_only_the_spec_warns_at_the_state(
    tmp_path: Path, run_line: RunLine, state: str
) -> None:
    noted = entry(1, state, cite="schema/s.ts:3", note="some of it")
    result = check(tmp_path, run_line, noted)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"{tmp_path / 't.yaml'}:13:21: warning: T-01: state '{state}' cites nothing of the "
        "subject up: list a citation of up under sources, or cite it in the status note",
        "0 errors, 1 warnings",
    ]
    line = (tmp_path / "t.yaml").read_text().splitlines()[12]
    assert line[20:].startswith(state)
    strict = check(tmp_path, run_line, noted, strict=True)
    assert strict.exit_code == 1


@pytest.mark.parametrize(
    "listed, note",
    [
        ("schema/s.ts:3", "kept (internal/x.go:3)"),
        ("internal/x.go:3", ""),
        ("schema/s.ts:3, 'up:other/x.go:9'", ""),
    ],
)
def test_citing_the_subject_passes(
    tmp_path: Path, run_line: RunLine, listed: str, note: str
) -> None:
    result = check(tmp_path, run_line, entry(1, "done", cite=listed, note=note), strict=True)
    assert result.stdout == "0 errors, 0 warnings\n", result.output


@pytest.mark.parametrize("state", ["missing", "n/a"])
def test_missing_and_na_need_no_subject(tmp_path: Path, run_line: RunLine, state: str) -> None:
    noted = entry(1, state, cite="schema/s.ts:3", note="not there")
    result = check(tmp_path, run_line, noted, strict=True)
    assert result.stdout == "0 errors, 0 warnings\n", result.output


def test_a_subject_citation_elsewhere_in_the_entry_is_no_evidence(
    tmp_path: Path, run_line: RunLine
) -> None:
    """`what` speaks of the specification: a subject path cited there backs no state."""
    text = entry(1, "done", cite="schema/s.ts:3").replace("what: w.", "what: see internal/x.go:3.")
    result = check(tmp_path, run_line, text)
    assert "cites nothing of the subject up" in result.stdout


def test_an_unresolved_citation_is_reported_once(tmp_path: Path, run_line: RunLine) -> None:
    """No evidence warning on top of the unresolved citation that may be the evidence."""
    result = check(tmp_path, run_line, entry(1, "done", cite="elsewhere/x.go:3"))
    assert "citation-unresolved" not in result.stdout  # the code is not printed; the text is
    assert "no source claims elsewhere/x.go" in result.stdout
    assert "cites nothing" not in result.stdout

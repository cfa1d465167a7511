"""Valid register sets that look unusual: each folder under cases/valid/ loads cleanly.

A folder may hold `expected.txt` with the warnings it must give (exit code still 0);
without one, `register check` must print nothing but the summary line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from compat_register import api
from conftest import RunLine

CASES = Path(__file__).parents[1] / "cases"
VALID = sorted(p.name for p in (CASES / "valid").iterdir() if p.is_dir())


@pytest.fixture
def export_of(run_line: RunLine, monkeypatch: pytest.MonkeyPatch) -> Any:
    """`export_of(name)` -> the `register export` JSON of cases/valid/NAME (or base)."""

    def export(name: str) -> dict[str, Any]:
        monkeypatch.chdir(CASES / "valid" / name if name != "base" else CASES / "base")
        result = run_line(["export", "--registers", "."])
        assert result.exit_code == 0, result.output
        data: dict[str, Any] = json.loads(result.stdout)
        return data

    return export


def entry(data: dict[str, Any], entry_id: str) -> dict[str, Any]:
    found = [e for r in data["registers"] for e in r["entries"] if e["id"] == entry_id]
    assert len(found) == 1, entry_id
    return found[0]


def citations(data: dict[str, Any], entry_id: str) -> list[tuple[Any, ...]]:
    """(source, path, lines, quote, in_prose) of each citation of an entry."""
    return [
        (c["source"], c["path"], c["lines"], c["quote"], c["in_prose"])
        for c in entry(data, entry_id)["citations"]
    ]


@pytest.mark.parametrize("name", VALID)
def test_valid_case(name: str, run_line: RunLine, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = CASES / "valid" / name
    monkeypatch.chdir(folder)
    result = run_line(["check", "--registers", "."])
    assert "Traceback" not in result.output
    assert isinstance(result.exception, (SystemExit, type(None))), result.exception
    assert result.exit_code == 0, result.output
    *lines, summary = result.stdout.splitlines()
    golden = folder / "expected.txt"
    expected = golden.read_text(encoding="utf-8").splitlines() if golden.exists() else []
    assert lines == expected
    assert summary == f"0 errors, {len(expected)} warnings"


def test_unicode_prose_is_kept_as_written(export_of: Any) -> None:
    meta02 = entry(export_of("unicode-prose"), "META-02")
    assert meta02["title"] == "Clés réservées 🔑 予約キー"
    assert meta02["risk"] == "Keys collide 💥: 键冲突, מפתחות מתנגשים, مفاتيح متضاربة."


def test_curly_and_straight_quotes(export_of: Any) -> None:
    quotes = [c[3] for c in citations(export_of("curly-and-straight-quotes"), "META-02")]
    assert quotes == ["curly", "straight", "it’s ‘nested’"]


def test_quote_containing_quotes(export_of: Any) -> None:
    assert citations(export_of("quote-containing-quotes"), "META-02") == [
        ("mcpx", "internal/x.ts", [3, 3], 'say "hi" now', False)
    ]


def test_path_with_dots_and_dashes(export_of: Any) -> None:
    assert citations(export_of("dotted-dashed-path"), "META-02") == [
        ("mcpx", "a.b-c/d-e.f.ts", [3, 3], None, False),
        ("mcpx", "a.b-c/d-e.f.ts", [4, 5], None, False),
        ("mcpx", "a.b-c/d-e.f.ts", [7, 7], None, True),
    ]


def test_register_with_one_entry(export_of: Any) -> None:
    data = export_of("one-entry-register")
    assert [r["slug"] for r in data["registers"]] == ["meta", "one"]
    (only,) = data["registers"][1]["entries"]
    assert only["id"] == "ONE-1"
    assert only["effort"]["size"] == "XL"


def test_commits_of_digits_stay_strings(export_of: Any) -> None:
    sources = export_of("all-digit-commit")["sources"]
    assert sources["mcpx"]["commit"] == "1234567"
    assert sources["spec"]["commit"] == "0512345"  # not octal, not 512345


def test_meta_maps_everywhere(export_of: Any) -> None:
    data = export_of("meta-maps-everywhere")
    assert data["sources"]["mcpx"]["_meta"] == {"owner": "team-a", "since": 2026}
    register = data["registers"][0]
    assert register["_meta"] == {"reviewed": "2026-10-01", "n": 3}
    meta02 = entry(data, "META-02")
    assert meta02["_meta"] == {"priority": 1, "labels": ["a", "b"]}
    assert meta02["status"]["_meta"] == {"by": "bob"}
    assert citations(data, "META-02") == [("mcpx", "internal/y.go", [5, 9], None, False)]
    checked = api.check(CASES / "valid" / "meta-maps-everywhere")
    assert checked.registers.sources.meta == {"generated": False}


def test_block_scalars_keep_positions_of_prose_citations(export_of: Any) -> None:
    data = export_of("block-scalars")
    meta02 = entry(data, "META-02")
    assert meta02["what"] == (
        "Reserved prefixes; see META-01.\n\nKept in internal/y.go:12-14 and\ninternal/y.go:20.\n"
    )
    assert meta02["detail"] == "Folded text that names META-01 and SEP-9."
    assert meta02["where"] == "Since 2025-06-18.\n"
    prose = [(c["path"], c["lines"], c["line"], c["col"]) for c in meta02["citations"][1:]]
    assert prose == [("internal/y.go", [12, 14], 24, 15), ("internal/y.go", [20, 20], 25, 7)]
    assert entry(data, "META-01")["backlinks"] == ["META-02"]


def test_mapping_citations(export_of: Any) -> None:
    assert citations(export_of("mapping-citation"), "META-02") == [
        ("mcpx", "internal/y.go", [5, 9], "keys: {}", False),
        ("mcpx", "internal/z.go", [3, 3], None, False),
        ("spec", "docs/x.mdx", [7, 7], '“curly” and "straight"', False),
    ]


def test_nothing_in_code_is_a_reference_or_citation(export_of: Any) -> None:
    data = export_of("references-in-code")
    assert citations(data, "META-02") == [("mcpx", "internal/y.go", [5, 9], None, False)]
    assert entry(data, "META-01")["backlinks"] == ["META-02"]


def test_pending_prefix_is_a_warning_that_strict_turns_into_failure(
    run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(CASES / "valid" / "pending-prefix")
    assert run_line(["check", "--registers", "."]).exit_code == 0
    assert run_line(["check", "--registers", ".", "--strict"]).exit_code == 1


@pytest.mark.parametrize("name", ["crlf-line-endings", "byte-order-mark"])
def test_positions_match_the_plain_file(name: str, export_of: Any) -> None:
    """CRLF line ends and a byte order mark move no line or column."""

    def places(data: dict[str, Any]) -> list[tuple[Any, ...]]:
        return [
            (e["id"], e["line"], c["text"], c["line"], c["col"])
            for r in data["registers"]
            for e in r["entries"]
            for c in e["citations"]
        ]

    base = places(export_of("base"))
    assert places(export_of(name)) == base


def test_dates_and_revisions_stay_text(export_of: Any) -> None:
    register = export_of("dates-and-times")["registers"][0]
    assert (register["created"], register["last-updated"]) == ("2026-09-30", "2026-09-30T13:00:00Z")
    revisions = entry(export_of("revisions-in-order"), "META-02")["revisions"]
    assert revisions == {"added": "2024-11-05", "removed": "2026-07-28"}


def test_tabs_inside_a_block_scalar_are_kept(export_of: Any) -> None:
    """Go code pasted into `detail: |` keeps its tabs: YAML only refuses them as indentation."""
    detail = entry(export_of("tab-in-block-scalar"), "META-02")["detail"]
    assert detail == "Go code:\n\n    func f() {\n\treturn\n    }\n"


def test_editor_files_are_not_registers(export_of: Any) -> None:
    """An Emacs lock `.#meta.yaml` (a link to nowhere) is skipped; `notes.yml` is only warned
    about (`expected.txt`), and neither becomes a register."""
    folder = CASES / "valid" / "editor-files"
    assert (folder / ".#meta.yaml").is_symlink() and not (folder / ".#meta.yaml").exists()
    assert [r["slug"] for r in export_of("editor-files")["registers"]] == ["meta"]


def test_links_are_named_as_found_and_pipes_are_not_read(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A message names the link in the folder, not its target; a FIFO is refused, located,
    without waiting on it."""
    registers, elsewhere = tmp_path / "registers", tmp_path / "elsewhere"
    registers.mkdir()
    elsewhere.mkdir()
    for item in (CASES / "base").iterdir():
        (registers / item.name).write_bytes(item.read_bytes())
    (elsewhere / "target.yaml").write_text("title: [\n", encoding="utf-8")
    (registers / "linked.yaml").symlink_to(elsewhere / "target.yaml")
    os.mkfifo(registers / "pipe.yaml")
    monkeypatch.chdir(tmp_path)
    result = run_line(["check", "--registers", "registers"])
    assert result.exit_code == 1
    (message, pipe, summary) = result.stdout.splitlines()
    assert message.startswith("registers/linked.yaml:2:1: error: linked: invalid YAML")
    assert pipe == (
        "registers/pipe.yaml:1:1: error: pipe: a FIFO, not a regular file: only regular files "
        "are read"
    )
    assert summary == "2 errors, 0 warnings"

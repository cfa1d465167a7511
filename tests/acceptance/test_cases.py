"""Invalid register sets: each folder under cases/invalid/ is one case.

A case folder is a complete registers directory (sources.yaml and register files, copied
from cases/base/ with one thing changed) plus `expected.txt`: the exact diagnostics
`register check` prints for it, one per line, without the closing summary line.

    REGISTER_UPDATE_GOLDEN=1 pytest tests/acceptance/test_cases.py

rewrites every expected.txt from the current output; read the diff before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from compat_register.reading import loader
from conftest import RunLine

CASES = Path(__file__).parents[1] / "cases"
INVALID = sorted(p.name for p in (CASES / "invalid").iterdir() if p.is_dir())
UPDATE = os.environ.get("REGISTER_UPDATE_GOLDEN") == "1"


def check_here(run_line: RunLine, folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run `register check --registers .` inside `folder`; diagnostics lines, summary dropped."""
    monkeypatch.chdir(folder)
    result = run_line(["check", "--registers", "."])
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    assert isinstance(result.exception, (SystemExit, type(None))), result.exception
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines and lines[-1].endswith("warnings"), result.output
    return lines[:-1]


@pytest.mark.parametrize("name", INVALID)
def test_invalid_case(name: str, run_line: RunLine, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = CASES / "invalid" / name
    lines = check_here(run_line, folder, monkeypatch)
    golden = folder / "expected.txt"
    if UPDATE:
        golden.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    assert lines, "an invalid case must produce at least one diagnostic"
    assert lines == golden.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("name", INVALID)
def test_invalid_case_as_json(
    name: str, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--format json` reports the same diagnostics, and its summary counts them."""
    folder = CASES / "invalid" / name
    monkeypatch.chdir(folder)
    result = run_line(["check", "--registers", ".", "--format", "json"])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    lines = [
        f"{d['file']}:{d['line']}:{d['col']}: {d['severity']}: {d['id']}: {d['message']}"
        for d in report["diagnostics"]
    ]
    assert lines == (folder / "expected.txt").read_text(encoding="utf-8").splitlines()
    errors = sum(d["severity"] == "error" for d in report["diagnostics"])
    assert report["summary"]["errors"] == errors


def test_enough_kinds_of_bad_input() -> None:
    assert len(INVALID) >= 35


def test_base_case_is_valid(run_line: RunLine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CASES / "base")
    result = run_line(["check", "--registers", "."])
    assert result.exit_code == 0, result.output
    assert result.stdout == "0 errors, 0 warnings\n"


def test_twenty_megabyte_file(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A runaway 20 MB file is refused up front, before it is read or parsed."""
    for item in (CASES / "base").iterdir():
        (tmp_path / item.name).write_bytes(item.read_bytes())
    big = (CASES / "base" / "meta.yaml").read_text(encoding="utf-8")
    filler = "# " + "x" * 1021 + "\n"
    with (tmp_path / "meta.yaml").open("w", encoding="utf-8") as out:
        out.write(big)
        out.write(filler * (20 * 1024))
    size_mb = (tmp_path / "meta.yaml").stat().st_size / 1024 / 1024
    assert size_mb > 20
    lines = check_here(run_line, tmp_path, monkeypatch)
    limit = loader.MAX_FILE_BYTES // 1024 // 1024
    assert lines == [
        f"meta.yaml:1:1: error: meta: file is {size_mb:.1f} MB, over the {limit} MB limit "
        "for one register file: split it"
    ]

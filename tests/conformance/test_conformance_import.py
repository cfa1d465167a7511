"""`register conformance import`: results recorded for a subject at a commit, replacing its
previous record, all or nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import RunLine

FIXTURES = Path(__file__).parent.parent / "fixtures" / "conformance"


def test_import_records_the_latest_run_of_each_scenario_at_the_pin(
    run_line: RunLine, go_registers: Path
) -> None:
    done = run_line(
        [
            "conformance",
            "import",
            "--registers",
            str(go_registers),
            "--subject",
            "go-sdk",
            "--baseline",
            str(FIXTURES / "conformance-baseline.yml"),
            str(FIXTURES / "results"),
        ]
    )
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[0].startswith("recorded 6 runs of go-sdk at 3d6450fab12 in ")
    assert "  server ping at 2026-10-02T09:14:04.001Z: 1 check: 1 FAILURE" in lines
    assert "  client initialize at 2026-10-02T09:15:00.000Z: 2 checks: 1 SUCCESS, 1 INFO" in lines
    assert any(line.startswith("baseline ") and "3 expected failures" in line for line in lines)
    assert lines[-1].startswith("left out an older run of server ping: ")
    record = json.loads((go_registers / "conformance" / "go-sdk.json").read_text())
    assert (record["format"], record["subject"], record["commit"]) == (1, "go-sdk", "3d6450fab12")
    assert record["baseline"]["server"] == ["completion-complete", "logging-set-level"]
    assert len(record["runs"]) == 6


def test_import_replaces_the_subjects_record_and_takes_a_commit(
    run_line: RunLine, go_registers: Path
) -> None:
    base = ["conformance", "import", "--registers", str(go_registers), "--subject", "go-sdk"]
    first = run_line([*base, str(FIXTURES / "results")])
    assert first.exit_code == 0, first.output
    ping = FIXTURES / "results" / "server-ping-2026-10-01T08-00-00-000Z" / "checks.json"
    again = run_line([*base, "--commit", "abcdef1", "--format", "json", str(ping)])
    assert again.exit_code == 0, again.output
    shown = json.loads(again.stdout)
    assert (shown["commit"], [r["scenario"] for r in shown["runs"]]) == ("abcdef1", ["ping"])
    record = json.loads((go_registers / "conformance" / "go-sdk.json").read_text())
    assert (record["commit"], record["baseline"], len(record["runs"])) == ("abcdef1", None, 1)
    assert [p.name for p in (go_registers / "conformance").iterdir()] == ["go-sdk.json"]


def test_a_malformed_file_is_located_and_nothing_is_written(
    run_line: RunLine, go_registers: Path, tmp_path: Path
) -> None:
    results = tmp_path / "results"
    shutil.copytree(FIXTURES / "results", results)
    bad = results / "server-ping-2026-10-02T09-14-04-001Z" / "checks.json"
    bad.write_text(bad.read_text().replace('"FAILURE"', '"FAILED"'))
    done = run_line(
        [
            "conformance",
            "import",
            "--registers",
            str(go_registers),
            "--subject",
            "go-sdk",
            str(results),
        ]
    )
    assert done.exit_code == 1
    (line,) = [line for line in done.stdout.splitlines() if "results-shape" not in line and line]
    assert f"{bad}:6:15: error: checks: status 'FAILED': not one of" in line
    assert "nothing recorded" in done.stderr
    assert not (go_registers / "conformance").exists()


@pytest.mark.parametrize(
    "args, words",
    [
        (["--subject", "nope", "x"], "--subject nope: no such source in sources.yaml (go-sdk)"),
        (["--subject", "go-sdk", "--commit", "HEAD", "{results}"], "--commit HEAD: expected"),
        (["--subject", "go-sdk", "{missing}"], "no such file or folder"),
        (["--subject", "go-sdk", "{empty}"], "no checks.json in it"),
    ],
)
def test_what_cannot_be_asked_is_a_usage_error(
    run_line: RunLine, go_registers: Path, tmp_path: Path, args: list[str], words: str
) -> None:
    (tmp_path / "empty").mkdir()
    named = {
        "results": str(FIXTURES / "results"),
        "missing": str(tmp_path / "missing"),
        "empty": str(tmp_path / "empty"),
    }
    filled = [arg.format(**named) for arg in args]
    done = run_line(["conformance", "import", "--registers", str(go_registers), *filled])
    assert done.exit_code == 2, done.output
    assert words in done.stderr
    assert not (go_registers / "conformance").exists()

"""JSON a pull request brings (the suite's checks.json, a recorded registers/conformance/
ALIAS.json) is bounded as YAML is: an integer of 4,301 digits (past what Python reads), a
lone surrogate (no UTF-8 output holds it), NaN and a number past a float's range are each
one located line, never an internal error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import RunLine

CHECK = {"id": "ping", "name": "Ping", "status": "SUCCESS", "timestamp": "2026-10-02T09:14:04Z"}
HOSTILE = {
    "digits": ("9" * 4301, "a number of 4,301 digits, over the 21 an integer may have"),
    "surrogate": ('"\\ud800"', "a lone surrogate \\ud800 in a string: no character"),
    "nan": ("NaN", "NaN is not JSON (a number is finite)"),
    "huge": ("1e999", "number 1e999... is past the largest a 64-bit float holds"),
}


def with_value(data: object, value: str) -> str:
    """`data` as two-space JSON, its `"details"` written as the raw `value`."""
    return json.dumps(data, indent=2).replace('"@"', value)


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_checks_json_out_of_bounds_is_one_located_line(
    run_line: RunLine, go_registers: Path, tmp_path: Path, kind: str
) -> None:
    value, said = HOSTILE[kind]
    results = tmp_path / "results" / "server-ping-2026-10-02T09-14-04-001Z"
    results.mkdir(parents=True)
    (results / "checks.json").write_text(with_value([{**CHECK, "details": "@"}], value))
    done = run_line(
        ["conformance", "import", "--registers", str(go_registers), "--subject", "go-sdk"]
        + [str(tmp_path / "results")]
    )
    assert done.exit_code == 1 and "internal error" not in done.output, done.output
    assert f"{results / 'checks.json'}:7:16: error: checks: {said}" in done.stdout.splitlines()
    assert not (go_registers / "conformance").exists()


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_record_out_of_bounds_is_one_located_line(
    run_line: RunLine, go_registers: Path, kind: str
) -> None:
    value, said = HOSTILE[kind]
    record = {"format": 1, "subject": "go-sdk", "commit": "@", "baseline": None, "runs": []}
    (go_registers / "conformance").mkdir()
    (go_registers / "conformance" / "go-sdk.json").write_text(with_value(record, value))
    done = run_line(["verify", "--registers", str(go_registers), "--offline", "--conformance"])
    assert done.exit_code == 1 and "internal error" not in done.output, done.output
    where = f"{go_registers / 'conformance' / 'go-sdk.json'}:4:13"
    assert done.stdout.splitlines()[0].endswith(f"{said}"), done.stdout
    assert done.stdout.splitlines()[0].startswith(f"{where}: error: "), done.stdout

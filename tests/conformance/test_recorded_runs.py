"""The real runs recorded in registers/conformance/ (docs/conformance.md, "A real run,
recorded"): each reads back, its counts are the suite's own summary and a count by hand of
its statuses, every check it holds is named by a concept, and bench/conformance_run.py's
`--compare` fails on a check whose status moved."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from compat_register.conformance.record import read_record
from compat_register.conformance.runs import measured

PROJECT = Path(__file__).resolve().parents[2]
REGISTERS = PROJECT / "registers"
SUITE_SUMMARY = {
    # the `Total:` line the suite printed for each recorded run
    "server-everything": {"SUCCESS": 13, "FAILURE": 19},
    "python-sdk": {"SUCCESS": 40},
}


def _record(subject: str):
    path = REGISTERS / "conformance" / f"{subject}.json"
    record, problems = read_record(path.read_text(encoding="utf-8"), str(path))
    assert problems == [] and record is not None
    return record


def _by_hand(subject: str) -> Counter[str]:
    """Each check's statuses counted from the file's JSON, without the tool's reader."""
    data = json.loads((REGISTERS / "conformance" / f"{subject}.json").read_text("utf-8"))
    return Counter(check["status"] for run in data["runs"] for check in run["checks"])


@pytest.mark.parametrize("subject", sorted(SUITE_SUMMARY))
def test_a_recorded_run_reads_back_with_the_suites_counts(subject: str) -> None:
    record = _record(subject)
    sources = yaml.safe_load((REGISTERS / "sources.yaml").read_text("utf-8"))["sources"]
    assert record.subject == subject and record.commit == sources[subject]["commit"]
    statuses = Counter(seen.status for seen in measured(record).values())
    assert statuses == _by_hand(subject) == Counter(SUITE_SUMMARY[subject])


def test_every_recorded_check_is_named_by_a_concept() -> None:
    concepts = yaml.safe_load((REGISTERS / "concepts.yaml").read_text("utf-8"))["concepts"]
    named = {check for concept in concepts for check in concept.get("checks", [])}
    for subject in SUITE_SUMMARY:
        assert set(measured(_record(subject))) <= named, subject


def _bench():
    spec = importlib.util.spec_from_file_location(
        "conformance_run", PROJECT / "bench" / "conformance_run.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["conformance_run"] = module
    spec.loader.exec_module(module)
    return module


def test_compare_passes_the_same_statuses_and_names_a_check_that_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _bench()
    recorded = REGISTERS / "conformance" / "server-everything.json"
    data = json.loads(recorded.read_text("utf-8"))
    for run in data["runs"]:
        run["timestamp"] = "2027-01-01T00:00:00.000Z"  # a re-run's own times: no difference
    rerun = tmp_path / "server-everything.json"
    rerun.write_text(json.dumps(data), "utf-8")
    bench._compare(recorded, rerun)
    assert "re-run: 32 checks: 19 FAILURE, 13 SUCCESS" in capsys.readouterr().out
    ping = next(run for run in data["runs"] if run["scenario"] == "ping")
    ping["checks"][0]["status"] = "FAILURE"
    rerun.write_text(json.dumps(data), "utf-8")
    with pytest.raises(bench.Failed, match="ping SUCCESS -> FAILURE"):
        bench._compare(recorded, rerun)

"""The real runs recorded in registers/conformance/ (docs/conformance.md, "A real run,
recorded"): each reads back, its checks' statuses are a count by hand of its JSON, every
check it holds is named by a concept, its scores per requirement set are a count by hand of
its scenarios' checks at that revision's wire, a claim it contradicts is reported at the
entry's state, and bench/conformance_run.py's `--compare` fails on a check whose status moved
at a revision."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from builder import registers
from compat_register.conformance.record import read_record
from compat_register.conformance.runs import measured
from gitrepo import git_env
from suiterepo import FILES, RECORDED_SETS, suite, suite_sources

PROJECT = Path(__file__).resolve().parents[2]
REGISTERS = PROJECT / "registers"
RECORDED = {
    # each check's status (the worst of the latest run of each scenario, across the two wires)
    # in the recorded files, as docs/conformance.md gives them: the requirement sets of
    # 2025-11-25 and 2026-07-28, each run at its wire, suite 0.2.0-alpha.11
    "server-everything": {"FAILURE": 104, "WARNING": 6, "SUCCESS": 17, "SKIPPED": 4, "INFO": 5},
    "python-sdk": {"FAILURE": 25, "SUCCESS": 132, "SKIPPED": 1, "INFO": 5},
}
WORST_FIRST = ("FAILURE", "WARNING", "SUCCESS", "SKIPPED", "INFO")


def _record(subject: str):
    path = REGISTERS / "conformance" / f"{subject}.json"
    record, problems = read_record(path.read_text(encoding="utf-8"), str(path))
    assert problems == [] and record is not None
    return record


def _data(subject: str) -> dict:  # type: ignore[type-arg]
    return json.loads((REGISTERS / "conformance" / f"{subject}.json").read_text("utf-8"))


def _by_hand(subject: str) -> Counter[str]:
    """Each check's worst status over each scenario's latest run (of either wire), counted
    from the file's JSON without the tool's reader."""
    latest: dict[tuple[str, str], dict] = {}  # type: ignore[type-arg]
    for run in _data(subject)["runs"]:
        held = latest.setdefault((run["mode"], run["scenario"]), run)
        if run["timestamp"] >= held["timestamp"]:
            latest[(run["mode"], run["scenario"])] = run
    worst: dict[str, str] = {}
    for run in latest.values():
        for check in run["checks"]:
            seen = worst.get(check["id"], "INFO")
            worst[check["id"]] = min(seen, check["status"], key=WORST_FIRST.index)
    return Counter(worst.values())


@pytest.mark.parametrize("subject", sorted(RECORDED))
def test_a_recorded_run_reads_back_with_its_statuses_counted_by_hand(subject: str) -> None:
    record = _record(subject)
    sources = yaml.safe_load((REGISTERS / "sources.yaml").read_text("utf-8"))["sources"]
    assert record.subject == subject and record.commit == sources[subject]["commit"]
    statuses = Counter(seen.status for seen in measured(record).values())
    assert statuses == _by_hand(subject) == Counter(RECORDED[subject])


def test_every_recorded_check_is_named_by_a_concept() -> None:
    """Each check but the traces (every status INFO: what a run did, not a measurement)."""
    concepts = yaml.safe_load((REGISTERS / "concepts.yaml").read_text("utf-8"))["concepts"]
    named = {check for concept in concepts for check in concept.get("checks", [])}
    for subject in RECORDED:
        measures = {c for c, seen in measured(_record(subject)).items() if seen.status != "INFO"}
        assert measures <= named, subject


def _scored_by_hand(subject: str, set_text: str, revision: str) -> tuple[int, int]:
    """(passed, scored) over a set's server scenarios, from the record's JSON alone: a
    scenario passes when its run at the set's revision (its `revision` key) holds no FAILURE
    or WARNING check; one with no run fails. The records hold no client run, so the client
    list is not scored."""
    data = _data(subject)
    assert {run["mode"] for run in data["runs"]} == {"server"}
    assert {run["revision"] for run in data["runs"]} == {"2025-11-25", "2026-07-28"}
    at = [run for run in data["runs"] if run["revision"] == revision]
    runs = {run["scenario"]: {c["status"] for c in run["checks"]} for run in at}
    listed = yaml.safe_load(set_text)["server"]
    passed = sum(1 for name in listed if name in runs and not {"FAILURE", "WARNING"} & runs[name])
    return passed, len(listed)


def _tier(passed: int, scored: int) -> int | None:
    return 1 if passed == scored else 2 if passed * 5 >= scored * 4 else None


def test_the_recorded_scores_are_a_count_by_hand_of_their_runs(tmp_path: Path) -> None:
    """`register conformance score --format json`, through the installed console script,
    against a suite repository built here whose requirement sets hold the real sets'
    scenario names (suiterepo.RECORDED_SETS: written out, no file of the suite copied)."""
    _, pin = suite(tmp_path / "suite", {**FILES, **RECORDED_SETS})
    subjects = sorted(RECORDED)
    folder = registers(
        tmp_path / "registers", suite_sources(pin, "path: ../suite", subjects, "conformance")
    )
    shutil.copytree(REGISTERS / "conformance", folder / "conformance")
    env = {k: v for k, v in git_env().items() if not k.startswith("REGISTER_")}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "register"), "conformance", "score", "--format", "json"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = {row["subject"]: row for row in json.loads(done.stdout)["subjects"]}
    assert sorted(found) == subjects
    for subject in subjects:
        rows = {row["revision"]: row for row in found[subject]["revisions"]}
        for path, set_text in RECORDED_SETS.items():
            row = rows[Path(path).stem]
            passed, scored = _scored_by_hand(subject, set_text, Path(path).stem)
            assert row["wire_known"] is True
            assert (row["passed"], row["scored"], row["legs"]) == (passed, scored, ["server"])
            assert (row["failed"] + row["not_run"], row["rate"]) == (
                scored - passed,
                passed / scored,
            )
            assert row["tier"] == _tier(passed, scored)
    # the figures docs/conformance.md gives
    assert [(r["passed"], r["tier"]) for r in found["python-sdk"]["revisions"]] == [
        (30, 1),
        (37, 1),
    ]
    assert [r["passed"] for r in found["server-everything"]["revisions"]] == [11, 1]


def _state_at(register: Path, entry_id: str) -> tuple[int, int]:
    """Line and column (1-based) of an entry's `status.state` value, from the YAML nodes."""
    root = yaml.compose(register.read_text("utf-8"))
    entries = next(v for k, v in root.value if k.value == "entries")
    for entry in entries.value:
        fields = {k.value: v for k, v in entry.value}
        if fields["id"].value == entry_id:
            status = {k.value: v for k, v in fields["status"].value}
            mark = status["state"].start_mark
            return mark.line + 1, mark.column + 1
    raise AssertionError(entry_id)


def test_a_claim_the_recorded_run_contradicts_is_reported_at_its_state(tmp_path: Path) -> None:
    """EVERY-02 says `done` for prompts while the recorded prompts-list fails: `verify
    --conformance` (offline: the concepts' checks need no checkout) names it at the line and
    column of the entry's state."""
    shutil.copytree(REGISTERS, tmp_path / "registers")
    env = {k: v for k, v in git_env().items() if not k.startswith("REGISTER_")}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "register"), "verify", "--conformance", "--offline"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    line, col = _state_at(REGISTERS / "server-everything.yaml", "EVERY-02")
    assert (
        f"registers/server-everything.yaml:{line}:{col}: error: EVERY-02: done, but conformance "
        "check prompts-list fails for server-everything at e00bde0a5e78 (FAILURE in prompts-list)"
    ) in done.stdout.splitlines()


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
    assert (
        "re-run: 161 checks at their revisions: 119 FAILURE, 5 INFO, 4 SKIPPED, 27 SUCCESS, "
        "6 WARNING" in capsys.readouterr().out
    )
    # the older wire's ping alone: a check that moved at one revision is named with it
    ping = next(run for run in data["runs"] if run["scenario"] == "ping")
    assert (ping["revision"], ping["checks"][0]["id"]) == ("2025-11-25", "ping")
    ping["checks"][0]["status"] = "FAILURE"
    rerun.write_text(json.dumps(data), "utf-8")
    with pytest.raises(
        bench.Failed, match=r"re-run differs .*: 2025-11-25 ping SUCCESS -> FAILURE$"
    ):
        bench._compare(recorded, rerun)

"""The suite's files read: results folders' names, checks.json, the baseline, and a record
written and read back; every malformed file one located problem."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from compat_register.conformance import collect
from compat_register.conformance.jsontext import JsonProblem, parse
from compat_register.conformance.record import (
    read_baseline,
    read_record,
    read_run,
    record_text,
    scenario_of,
)
from compat_register.conformance.runs import (
    Baseline,
    Record,
    Run,
    at_revision,
    latest_runs,
    measured,
    stale,
)

FIXTURES = Path(__file__).parent.parent / "fixtures" / "conformance"
RESULTS = FIXTURES / "results"


@pytest.mark.parametrize(
    "folder, expected",
    [
        (
            "server-server-initialize-2026-10-02T09-14-03-512Z",
            ("server", "server-initialize", "2026-10-02T09:14:03.512Z"),
        ),
        ("server-ping-2026-10-02T09-14-04-001Z", ("server", "ping", "2026-10-02T09:14:04.001Z")),
        (
            "initialize-2026-10-02T09-15-00-000Z",
            ("client", "initialize", "2026-10-02T09:15:00.000Z"),
        ),
        (
            "auth/basic-cimd-2026-10-02T09-16-00-000Z",
            ("client", "auth/basic-cimd", "2026-10-02T09:16:00.000Z"),
        ),
        ("my-run", ("client", "my-run", None)),
    ],
)
def test_a_results_folder_names_its_mode_scenario_and_time(folder: str, expected: tuple) -> None:
    assert scenario_of(folder) == expected


def test_checks_json_of_the_suite_reads_with_every_field() -> None:
    file = RESULTS / "server-ping-2026-10-02T09-14-04-001Z" / "checks.json"
    run, problems = read_run(
        file.read_text(), "ping/checks.json", "server-ping-2026-10-02T09-14-04-001Z"
    )
    assert problems == [] and run is not None
    (check,) = run.checks
    assert (run.mode, run.scenario, run.failed) == ("server", "ping", True)
    assert (check.id, check.status, check.name) == ("ping", "FAILURE", "Ping")
    assert check.error == "Ping response must be an empty object"
    assert [r.id for r in check.spec_references] == ["MCP-Ping"]
    assert (check.where.line, check.where.col) == (2, 3)  # the check's object, in the file


@pytest.mark.parametrize(
    "text, where, code, words",
    [
        ('[\n  {"id": "ping",\n   "status": "FAILURE",,}\n]', (3, 24), "results-json", "not JSON"),
        ('{"id": "ping"}', (1, 1), "results-shape", "array of checks"),
        ('[\n  {"id": "ping", "status": "PASSED"}\n]', (2, 28), "results-shape", "'PASSED'"),
        ('[\n  {"status": "SUCCESS"}\n]', (2, 3), "results-shape", "id is a non-empty"),
        (
            '[{"id": "a", "status": "INFO", "name": 3}]',
            (1, 40),
            "results-shape",
            "name is a string",
        ),
        (
            '[{"id": "a", "status": "INFO", "specReferences": [{"url": "u"}]}]',
            (1, 51),
            "results-shape",
            "spec reference",
        ),
        ('[{"id": "a", "id": "b", "status": "INFO"}]', (1, 14), "results-json", "given twice"),
        ("[" * 100_000, (1, 1), "results-json", "nested too deeply"),
    ],
)
def test_a_malformed_checks_json_is_one_located_problem(
    text: str, where: tuple[int, int], code: str, words: str
) -> None:
    run, problems = read_run(text, "r/checks.json", "server-ping")
    assert run is None
    (problem,) = problems
    assert (problem.file, problem.line, problem.col, problem.code) == (
        "r/checks.json",
        *where,
        code,
    )
    assert words in problem.message and problem.severity == "error"


def test_every_value_is_placed_where_it_was_written() -> None:
    text = '{\n  "a": [1, {"b": "x\\"y"}],\n  "c": null\n}'
    parsed = parse(text, "f.json")
    assert parsed.data == json.loads(text)
    places = {path: (w.line, w.col) for path, w in parsed.places.items()}
    assert places == {
        (): (1, 1),
        ("a",): (2, 8),
        ("a", 0): (2, 9),
        ("a", 1): (2, 12),
        ("a", 1, "b"): (2, 18),
        ("c",): (3, 8),
    }
    with pytest.raises(JsonProblem):
        parse("", "f.json")


def test_the_baseline_lists_scenarios_by_mode() -> None:
    baseline, problems = read_baseline((FIXTURES / "conformance-baseline.yml").read_text(), "b.yml")
    assert problems == [] and baseline is not None
    assert baseline.scenarios("server") == ["completion-complete", "logging-set-level"]
    assert baseline.scenarios("client") == ["sse-retry"]
    assert (baseline.listed[1].where.line, baseline.listed[1].where.col) == (4, 5)
    for empty in ("", "# nothing expected to fail\n"):
        assert read_baseline(empty, "b.yml") == (Baseline("b.yml", ()), [])


@pytest.mark.parametrize(
    "text, where, code",
    [
        ("server: [a\n", (2, 1), "yaml-syntax"),
        ("- a\n", (1, 1), "not-a-mapping"),
        ("server: a\n", (1, 9), "baseline-shape"),
        ("server: [a]\nclients: [b]\n", (2, 1), "baseline-shape"),
        ("server: [a, [b]]\n", (1, 13), "baseline-shape"),
        ("server: [a]\nserver: [b]\n", (2, 1), "duplicate-key"),
    ],
)
def test_a_malformed_baseline_is_one_located_problem(
    text: str, where: tuple[int, int], code: str
) -> None:
    baseline, problems = read_baseline(text, "b.yml")
    assert baseline is None
    (problem,) = problems
    assert ((problem.line, problem.col), problem.code) == (where, code)


def all_runs() -> Record:
    runs, problems = collect.read_runs([RESULTS])
    assert problems == []
    baseline, problems = collect.read_baseline_file(FIXTURES / "conformance-baseline.yml")
    assert problems == []
    return Record("go-sdk", "3d6450f", tuple(latest_runs(runs)), baseline, "r.json")


def test_a_results_folder_gives_the_latest_run_of_each_scenario() -> None:
    record = all_runs()
    names = [(run.mode, run.scenario) for run in record.runs]
    assert names == [
        ("client", "auth/basic-cimd"),
        ("client", "initialize"),
        ("server", "completion-complete"),
        ("server", "logging-set-level"),
        ("server", "ping"),
        ("server", "server-initialize"),
    ]
    ping = next(run for run in record.runs if run.scenario == "ping")
    assert ping.timestamp == "2026-10-02T09:14:04.001Z" and ping.failed  # not 10-01's pass


def test_a_check_shows_its_latest_worst_status_and_the_baseline_it_sits_in() -> None:
    found = measured(all_runs())
    statuses = {check: (m.status, m.baselined) for check, m in found.items()}
    assert statuses == {
        "cimd-client-id-used": ("WARNING", False),
        "mcp-client-initialization": ("SUCCESS", False),
        "server-info": ("INFO", False),
        "completion-complete": ("FAILURE", True),
        "logging-set-level": ("SUCCESS", True),
        "ping": ("FAILURE", False),
        "server-initialize": ("SUCCESS", False),
    }
    assert [(item.scenario, run.scenario) for item, run in stale(all_runs())] == [
        ("logging-set-level", "logging-set-level")
    ]


def test_a_record_reads_back_as_written_each_check_at_its_line() -> None:
    record = all_runs()
    text = record_text(record)
    again, problems = read_record(text, "conformance/go-sdk.json")
    assert problems == [] and again is not None
    assert record_text(again) == text
    assert "details" not in text  # the suite's free details are not kept
    lines = text.splitlines()
    for run in again.runs:
        for check in run.checks:
            assert lines[check.where.line - 1][check.where.col - 1 :] == "{"
            assert f'"id": "{check.id}"' in lines[check.where.line]
    listed = again.baseline.listed[0] if again.baseline else None
    assert listed and lines[listed.where.line - 1].strip() == '"completion-complete",'


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.pop("format"), "format 1"),
        (lambda d: d.update(subject=""), "'subject'"),
        (lambda d: d["runs"][0].update(mode="proxy"), "server or client"),
        (lambda d: d["runs"][0]["checks"][0].update(status="OK"), "'OK'"),
        (lambda d: d["baseline"].update(server="x"), "lists scenario names"),
    ],
)
def test_a_record_not_as_import_writes_it_is_located(change, words: str) -> None:
    data = json.loads(record_text(all_runs()))
    change(data)
    record, problems = read_record(json.dumps(data, indent=2), "c/go-sdk.json")
    assert record is None and problems
    assert all(p.code == "conformance-record" for p in problems)
    assert any(words in p.message for p in problems), problems


def _at(run: Run, revision: str, timestamp: str, status: str) -> Run:
    """`run` as made at `revision`'s wire at `timestamp`, its checks all of `status`."""
    checks = tuple(dataclasses.replace(check, status=status) for check in run.checks)
    return dataclasses.replace(run, revision=revision, timestamp=timestamp, checks=checks)


def test_a_scenario_run_at_two_wires_shows_its_latest_run_and_each_revision_its_own() -> None:
    """Statuses (matrix cells, contradictions, the join, SEP rates, stale baseline) come from
    each scenario's latest run across revisions; a revision's runs are its wire's."""
    ping = next(run for run in all_runs().runs if run.scenario == "ping")
    old = _at(ping, "2025-11-25", "2026-10-02T09:00:00.000Z", "SUCCESS")
    new = _at(ping, "2026-07-28", "2026-10-02T10:00:00.000Z", "FAILURE")
    record = dataclasses.replace(all_runs(), runs=(old, new), baseline=None)
    assert measured(record)["ping"].status == "FAILURE"
    earlier = dataclasses.replace(new, timestamp="2026-10-02T08:00:00.000Z")
    assert measured(dataclasses.replace(record, runs=(old, earlier)))["ping"].status == "SUCCESS"
    assert at_revision(record.runs, "2025-11-25") == ([old], True)
    untagged = dataclasses.replace(ping, revision=None)
    assert at_revision((untagged, new), "2025-11-25") == ([untagged], False)


def test_a_runs_revision_is_written_and_read_back_and_checked_against_the_revisions() -> None:
    ping = next(run for run in all_runs().runs if run.scenario == "ping")
    tagged = dataclasses.replace(ping, revision="2026-07-28")
    text = record_text(dataclasses.replace(all_runs(), runs=(tagged,)))
    assert '"revision": "2026-07-28"' in text
    again, problems = read_record(text, "c/go-sdk.json", ["2025-11-25", "2026-07-28"])
    assert problems == [] and again is not None and again.runs[0].revision == "2026-07-28"
    _, problems = read_record(text, "c/go-sdk.json", ["2025-11-25"])
    assert [(p.code, p.line, p.message) for p in problems] == [
        (
            "conformance-record",
            text.splitlines().index('      "revision": "2026-07-28",') + 1,
            "a run's revision is one of sources.yaml's revisions (2025-11-25): '2026-07-28' is not",
        )
    ]
    # a record with no revision key reads as it always did: its runs untagged
    plain, problems = read_record(record_text(all_runs()), "c/go-sdk.json", ["2025-11-25"])
    assert problems == [] and plain is not None
    assert {run.revision for run in plain.runs} == {None}

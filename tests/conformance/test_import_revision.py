"""`register conformance import --revision`: runs tagged with the wire they spoke, each
revision's runs replacing only their own, and `register conformance score` scoring each
requirement set from its own revision's runs (docs/conformance.md, "Runs at each wire")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_scores import register

from builder import registers
from suiterepo import results, suite, suite_sources

OLD_WIRE = {
    ("server", "server-initialize"): [("server-initialize", "SUCCESS")],
    ("server", "ping"): [("ping", "SUCCESS")],
    ("server", "tools-list"): [("tools-list", "SUCCESS")],
    ("server", "prompts-list"): [("prompts-list", "SUCCESS")],
}
"""A run at 2025-11-25's wire: its scenarios pass."""

NEW_WIRE = {
    ("server", "server-stateless"): [("server-stateless", "SUCCESS")],
    ("server", "tools-list"): [("tools-list", "FAILURE")],
    ("server", "prompts-list"): [("prompts-list", "FAILURE")],
    ("server", "resources-list"): [("resources-list", "SUCCESS")],
}
"""A run at 2026-07-28's wire, made after: tools-list and prompts-list fail there (a
stateful server)."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A subject `srv`, a suite beside it, and a results folder per wire."""
    _, pin = suite(tmp_path / "suite")
    registers(tmp_path / "registers", suite_sources(pin, "path: ../suite"))
    results(tmp_path / "old", OLD_WIRE)
    results(tmp_path / "new", NEW_WIRE)
    return tmp_path


def imported(project: Path, *args: str) -> None:
    done = register(project, "conformance", "import", "--subject", "srv", *args)
    assert done.returncode == 0, done.stderr


def record(project: Path) -> dict:  # type: ignore[type-arg]
    return json.loads((project / "registers/conformance/srv.json").read_text("utf-8"))


def scored(project: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    done = register(project, "conformance", "score", "--format", "json")
    assert done.returncode == 0, done.stderr
    (subject,) = json.loads(done.stdout)["subjects"]
    return {row["revision"]: row for row in subject["revisions"]}


def test_each_requirement_set_is_scored_from_its_own_wires_runs(project: Path) -> None:
    """Untagged, the later import replaced the earlier: 2025-11-25 was scored with the
    2026-07-28 wire's failures. Tagged, each set counts its own runs."""
    imported(project, "--revision", "2025-11-25", "old")
    imported(project, "--revision", "2026-07-28", "new")
    rows = scored(project)
    old = {s["scenario"]: s["outcome"] for s in rows["2025-11-25"]["scenarios"]}
    assert old == {
        "server-initialize": "passed",
        "ping": "passed",
        "tools-list": "passed",
        "prompts-list": "passed",
        "resources-list": "not run",
    }
    new = rows["2026-07-28"]
    assert (new["passed"], new["failed"], new["not_run"]) == (2, 2, 1)
    assert [row["wire_known"] for row in rows.values()] == [True, True]
    text = register(project, "conformance", "score")
    assert "unknown wire" not in text.stdout


def test_an_import_replaces_only_its_own_revisions_runs(project: Path) -> None:
    imported(project, "--revision", "2025-11-25", "old")
    imported(project, "--revision", "2026-07-28", "new")
    one = project / "old" / next(p.name for p in (project / "old").glob("server-tools-list-*"))
    imported(project, "--revision", "2025-11-25", str(one))
    runs = [(r["revision"], r["scenario"]) for r in record(project)["runs"]]
    assert runs == [
        ("2025-11-25", "tools-list"),
        ("2026-07-28", "prompts-list"),
        ("2026-07-28", "resources-list"),
        ("2026-07-28", "server-stateless"),
        ("2026-07-28", "tools-list"),
    ]
    # a run at another commit replaces the whole record, as does an untagged import
    imported(project, "--revision", "2025-11-25", "--commit", "abcdef1", str(one))
    assert [(r["revision"], r["scenario"]) for r in record(project)["runs"]] == [
        ("2025-11-25", "tools-list")
    ]
    imported(project, "new")
    assert all("revision" not in run for run in record(project)["runs"])
    assert len(record(project)["runs"]) == 4


def test_untagged_runs_score_every_set_and_say_their_wire_is_unknown(project: Path) -> None:
    imported(project, "new")
    rows = scored(project)
    assert [row["wire_known"] for row in rows.values()] == [False, False]
    assert (rows["2025-11-25"]["failed"], rows["2025-11-25"]["not_run"]) == (2, 2)
    # a tagged import drops the untagged runs (either may be at its wire): the other set
    # then has no run, rather than runs at a wire nobody named
    imported(project, "--revision", "2025-11-25", "old")
    rows = scored(project)
    assert (rows["2025-11-25"]["passed"], rows["2025-11-25"]["wire_known"]) == (4, True)
    assert (rows["2026-07-28"]["legs"], rows["2026-07-28"]["not_run"]) == ([], 0)


def test_a_revision_sources_yaml_does_not_list_is_a_usage_error(project: Path) -> None:
    done = register(
        project, "conformance", "import", "--subject", "srv", "--revision", "2024-11-05", "old"
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith(
            "--revision 2024-11-05: not one of sources.yaml's revisions (2025-11-25, 2026-07-28)"
        )
    )
    assert not (project / "registers" / "conformance").exists()


def test_a_recorded_run_of_an_unknown_revision_is_a_located_record_error(project: Path) -> None:
    imported(project, "--revision", "2026-07-28", "new")
    path = project / "registers/conformance/srv.json"
    text = path.read_text("utf-8")
    path.write_text(text.replace('"revision": "2026-07-28"', '"revision": "2099-01-01"', 1))
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1) if "2099" in row)
    done = register(project, "conformance", "score")
    assert done.returncode == 1
    assert (
        f"registers/conformance/srv.json:{line}:19: error: srv: a run's revision "
        "is one of sources.yaml's revisions (2025-11-25, 2026-07-28): '2099-01-01' is not"
    ) in done.stderr.splitlines()


def test_a_tagged_import_keeps_the_baseline_and_refuses_over_a_record_that_does_not_read(
    project: Path,
) -> None:
    (project / "baseline.yml").write_text("server:\n  - tools-list\n", encoding="utf-8")
    imported(project, "--revision", "2025-11-25", "--baseline", "baseline.yml", "old")
    imported(project, "--revision", "2026-07-28", "new")
    assert record(project)["baseline"]["server"] == ["tools-list"]
    path = project / "registers/conformance/srv.json"
    path.write_text('{"format": 1}\n', encoding="utf-8")
    done = register(project, "conformance", "import", "--subject", "srv", "--revision",
                    "2026-07-28", "new")  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        "register: nothing recorded: a record held does not read (fix or remove it)"
    )
    assert path.read_text(encoding="utf-8") == '{"format": 1}\n'

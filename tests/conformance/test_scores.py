"""`register conformance score`: a subject's recorded results against each revision's
requirement set of the suite's source (read at its pin, moved by bump), run through the
installed console script, matched against a count made by hand from the checks.json files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from builder import edit_sources, registers
from compat_register.conformance.requirements import RequirementSet
from compat_register.conformance.runs import Check, Record, Run
from compat_register.conformance.scores import score
from compat_register.model.positions import Where
from gitrepo import git_env
from suiterepo import FILES, REQUIREMENTS, RUNS, SET_2026, results, suite, suite_sources

REGISTER = Path(sys.executable).parent / "register"
"""The installed console script."""

"""A server's run: tools-list fails (a WARNING and a FAILURE), caching is never run, and
http-header-validation (not scored) fails; no client scenario is run."""


def register(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`register ARGS` through the installed console script, as a user types it in `cwd`."""
    env = {k: v for k, v in git_env().items() if not k.startswith("REGISTER_")}
    done = subprocess.run(
        [str(REGISTER), *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project whose subject `srv` has RUNS recorded (tools-list in its baseline), and
    whose suite's source is a repository beside it."""
    _, pin = suite(tmp_path / "suite")
    registers(tmp_path / "registers", suite_sources(pin, "path: ../suite"))
    results(tmp_path / "results", RUNS)
    (tmp_path / "baseline.yml").write_text("server:\n  - tools-list\n", encoding="utf-8")
    done = register(
        tmp_path, "conformance", "import", "--subject", "srv", "--baseline", "baseline.yml",
        "results",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return tmp_path


def hand_count(folder: Path, set_text: str) -> tuple[int, int]:
    """(passed, scored) counted from the checks.json files alone: a server scenario of the
    set passes when its folder's checks hold no FAILURE or WARNING; one with no folder
    fails; no client scenario was run, so the client list is not scored."""
    passed = 0
    listed = yaml.safe_load(set_text)["server"]
    for scenario in listed:
        found = list(folder.glob(f"server-{scenario}-2026-*/checks.json"))
        statuses = [c["status"] for f in found for c in json.loads(f.read_text())]
        passed += bool(found) and not {"FAILURE", "WARNING"} & set(statuses)
    return passed, len(listed)


def test_the_score_matches_a_hand_count_of_the_checks_files(project: Path) -> None:
    done = register(project, "conformance", "score", "--format", "json")
    assert done.returncode == 0, done.stderr
    (subject,) = json.loads(done.stdout)["subjects"]
    rows = {row["revision"]: row for row in subject["revisions"]}
    assert list(rows) == ["2025-11-25", "2026-07-28"]
    latest = rows["2026-07-28"]
    passed, scored = hand_count(project / "results", SET_2026)
    assert (latest["passed"], latest["scored"]) == (passed, scored) == (3, 5)
    assert (latest["failed"], latest["not_run"], latest["rate"]) == (1, 1, 0.6)
    assert (latest["legs"], latest["tier"], latest["wire_known"]) == (["server"], None, False)
    assert [(s["scenario"], s["outcome"]) for s in latest["scenarios"]] == [
        ("server-stateless", "passed"),
        ("tools-list", "failed"),  # in the baseline: expected, and still a failure
        ("prompts-list", "passed"),
        ("resources-list", "passed"),
        ("caching", "not run"),
    ]
    assert [(s["scenario"], s["reason"], s["outcome"]) for s in latest["not_scored"]] == [
        ("auth/dpop", "extension", "not run"),
        ("http-header-validation", "pending", "failed"),
    ]
    older = rows["2025-11-25"]
    assert (older["passed"], older["scored"], older["rate"], older["tier"]) == (4, 5, 0.8, 2)
    assert subject["seps"] == [
        {"sep": 2243, "checks": 3, "passed": 1, "failed": 1, "not_run": 1, "rate": 0.5},
        {"sep": 2575, "checks": 2, "passed": 1, "failed": 0, "not_run": 1, "rate": 1.0},
    ]


def test_text_and_markdown_say_the_same_for_one_revision(project: Path) -> None:
    text = register(project, "conformance", "score", "--revision", "2026-07-28")
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines() == [
        "srv",
        "  2026-07-28: 60.0 %, none (3 of 5 scored scenarios passed, 1 failed, 1 not run; server)"
        "; runs at an unknown wire: imported without --revision",
        "    not scored: auth/dpop (client, extension): not run",
        "    not scored: http-header-validation (server, pending): failed",
        "  SEP-2243: 50.0 % (1 of 3 checks passed, 1 failed, 1 not run)",
        "  SEP-2575: 100.0 % (1 of 2 checks passed, 0 failed, 1 not run)",
    ]
    shown = register(
        project / "registers", "conformance", "score", "--subject", "srv", "--format", "markdown"
    )
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == "## Server srv"
    assert "| 2025-11-25 | 80.0 % | Tier 2 | 4 | 1 | 0 | 5 (server) |" in lines
    assert "| SEP-2243 | 50.0 % | 1 | 1 | 1 | 3 |" in lines
    assert (
        "Scored from runs at an unknown wire: imported without --revision (2025-11-25, 2026-07-28)."
    ) in lines


def test_a_malformed_suite_file_is_one_located_line_naming_it_in_the_source(
    project: Path,
) -> None:
    repo, _ = suite(project / "suite")  # the same repository, one more commit
    bad = FILES["src/seps/sep-2575.yaml"].replace(
        "  - check: sep-2575-discover", "  - chek: x\n    check: sep-2575-discover"
    )
    repo.write("src/seps/sep-2575.yaml", bad)
    pin = repo.commit("a misspelt key")
    edit_sources(project / "registers", _pin(project), pin)
    done = register(project, "conformance", "score")
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "suite:src/seps/sep-2575.yaml:7:5: error: sep-2575: a requirement has a 'text' and "
        "either a 'check' or an 'excluded' reason"
    ]


def _pin(project: Path) -> str:
    text = (project / "registers" / "sources.yaml").read_text(encoding="utf-8")
    return str(yaml.safe_load(text)["sources"]["suite"]["commit"])


def test_bump_moves_the_suite_and_the_score_reads_its_new_sets(project: Path) -> None:
    repo, _ = suite(project / "suite")
    repo.write("requirements/2026-07-28.yaml", SET_2026.replace("  - caching\n", ""))
    new = repo.commit("caching leaves the 2026-07-28 set")
    bumped = register(project, "bump", "suite", new)
    assert bumped.returncode == 0, bumped.stdout + bumped.stderr
    assert _pin(project) == new
    done = register(project, "conformance", "score", "--revision", "2026-07-28", "--format", "json")
    (row,) = json.loads(done.stdout)["subjects"][0]["revisions"]
    assert (row["passed"], row["scored"], row["tier"]) == (3, 4, None)


def test_without_a_suite_source_the_score_says_what_to_add(project: Path) -> None:
    sources = project / "registers" / "sources.yaml"
    text = sources.read_text(encoding="utf-8")
    sources.write_text(text.replace("    requirements: ", "    _meta: "), encoding="utf-8")
    done = register(project, "conformance", "score")
    assert done.returncode == 1
    assert done.stderr.startswith(
        "registers/sources.yaml:1:1: error: sources: no source names the conformance suite's "
        "requirement files"
    )


def test_an_unknown_subject_or_revision_is_a_usage_error(project: Path) -> None:
    assert register(project, "conformance", "score", "--subject", "nobody").returncode == 2
    assert register(project, "conformance", "score", "--revision", "2024-11-05").returncode == 2


@pytest.mark.parametrize(
    "outcomes, tier",
    [
        ((True,) * 5, 1),
        ((True,) * 4 + (False,), 2),  # 80 % exactly
        ((True,) * 79 + (False,) * 21, None),  # 79 %
        ((), None),
    ],
)
def test_the_tier_is_met_at_100_and_at_80_percent(
    outcomes: tuple[bool, ...], tier: int | None
) -> None:
    where = Where("r.json", 1, 1)
    runs = tuple(
        Run("server", f"s{n}", None, "f", (), where) if ok else
        Run("server", f"s{n}", None, "f", (_failing(where),), where)
        for n, ok in enumerate(outcomes)
    )  # fmt: skip
    names = tuple(f"s{n}" for n in range(len(outcomes)))
    held = RequirementSet("2026-07-28", names, (), (), where)
    assert score(Record("srv", "0123456", runs, None, "r.json"), held).tier == tier


def _failing(where: Where) -> Check:
    return Check("x", "FAILURE", None, None, None, (), None, where)


def test_a_manifest_not_at_the_pin_and_a_second_suite_are_located_errors(
    project: Path,
) -> None:
    sources = project / "registers" / "sources.yaml"
    text = sources.read_text(encoding="utf-8").replace("seps/traceability.json", "seps/t.json")
    second = (
        f"  again: {{title: Again, repo: null, commit: 0123456, requirements: {REQUIREMENTS}}}\n"
    )
    sources.write_text(text + second, encoding="utf-8")
    done = register(project, "conformance", "score")
    assert done.returncode == 1
    pin = _pin(project)[:12]
    assert done.stderr.splitlines() == [
        "registers/sources.yaml:10:3: error: again: suite names the suite's requirement files "
        "already: one suite is read (drop requirements: from one of them)",
        f"suite:src/seps/t.json:1:1: error: suite: no such file at suite's pin {pin}",
    ]
    assert "SEP-2243: 50.0 % (1 of 3 checks passed" in done.stdout  # read all the same

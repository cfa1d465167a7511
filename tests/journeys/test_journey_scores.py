"""Scores as docs/conformance.md prints them: its `register conformance score` lines run as
printed through the installed script, from the project's root and from `registers/`, on
a suite whose repository (built in tmp, in the real files' shapes) is fetched by `register
sync` as the doc's `repo:` would be; the first prints the doc's text block."""

from __future__ import annotations

import json
from pathlib import Path

from builder import registers
from gitrepo import GitRepo
from journey import Shell, blocks, sh_lines
from suiterepo import RUNS, results, suite, suite_sources

DOC = "docs/conformance.md"


def test_the_docs_score_commands_run_as_printed(tmp_path: Path) -> None:
    repo, pin = suite(tmp_path / "suite")
    bare = tmp_path / "conformance.git"
    repo.git("clone", "--quiet", "--bare", str(repo.root), str(bare))
    project = tmp_path / "project"
    place = f"repo: {bare}"  # the doc's https URL, stood in for by a local bare clone
    registers(project / "registers", suite_sources(pin, place, ("go-sdk",), "conformance"))
    GitRepo(project).commit("a project")
    results(project / "results", RUNS)
    shell = Shell(project)
    shell.run("register sync conformance")
    shell.run("register conformance import --subject go-sdk results")
    printed = [b for b in blocks(DOC, "text") if b.startswith("go-sdk\n")]
    lines = [line for line in sh_lines(DOC, 3) if "conformance score" in line]
    assert len(lines) == 2 and len(printed) == 1
    for folder in (project, project / "registers"):
        first, markdown = (shell.at(folder).run(line).stdout for line in lines)
        assert first == printed[0]
        assert markdown.startswith("## Server go-sdk\n")
        assert "| 2026-07-28 | 60.0 % | none | 3 | 1 | 1 | 5 (server) |" in markdown
        assert "2025-11-25" not in markdown


def test_the_docs_imports_at_each_wire_run_as_printed(tmp_path: Path) -> None:
    """docs/conformance.md's "Runs at each wire" block, from the project's root: each
    revision's results imported with its `--revision`, each set then scored from its own
    (a run at the older wire passes tools-list, one at the newer fails it)."""
    _, pin = suite(tmp_path / "suite")
    project = tmp_path / "project"
    registers(project / "registers", suite_sources(pin, "path: ../../suite", ("go-sdk",)))
    GitRepo(project).commit("a project")
    results(project / "results-2025-11-25", {("server", "tools-list"): [("tools-list", "SUCCESS")]})
    results(project / "results-2026-07-28", {("server", "tools-list"): [("tools-list", "FAILURE")]})
    shell = Shell(project)
    lines = sh_lines(DOC, 1)
    assert [line.split()[-1] for line in lines] == ["results-2025-11-25/", "results-2026-07-28/"]
    for line in lines:
        shell.run(line)
    done = shell.run("register conformance score --subject go-sdk --format json")
    (subject,) = json.loads(done.stdout)["subjects"]
    outcomes = {
        row["revision"]: (row["wire_known"], [s["outcome"] for s in row["scenarios"]
                                              if s["scenario"] == "tools-list"])
        for row in subject["revisions"]
    }  # fmt: skip
    assert outcomes == {"2025-11-25": (True, ["passed"]), "2026-07-28": (True, ["failed"])}

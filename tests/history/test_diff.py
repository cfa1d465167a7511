"""`register diff` on a real history: each kind of change reported, and nothing else.

The project repository of `historyrepo` holds one kind of change per commit, made the way a
user makes it (an edit, `register fix`, `register bump`); the diff of each commit against
its parent must report exactly that change.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from compat_register.history.timeline import PLAIN
from conftest import RunLine
from historyrepo import History


@pytest.fixture
def in_project(history: History) -> Iterator[History]:
    cwd = os.getcwd()
    os.chdir(history.project.root)
    yield history
    os.chdir(cwd)


def diff_json(run_line: RunLine, *args: str) -> dict[str, Any]:
    result = run_line(["diff", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def between(run_line: RunLine, history: History, old: str, new: str) -> dict[str, Any]:
    data = diff_json(run_line, history.commits[old], history.commits[new])
    assert data["from"] == history.commits[old] and data["to"] == history.commits[new]
    assert data["problems"] == []
    return data


def entry(register: str, entry_id: str, change: str, title: str, **kw: Any) -> dict[str, Any]:
    citations = {"added": [], "removed": [], "moved": [], **kw.pop("citations", {})}
    return {
        "register": register,
        "id": entry_id,
        "change": change,
        "title": title,
        "fields": kw.pop("fields", {}),
        "citations": citations,
    }


def test_a_register_added(run_line: RunLine, in_project: History) -> None:
    data = between(run_line, in_project, "start", "register")
    assert data["registers"] == [{"register": "ext", "change": "added"}]
    assert data["entries"] == [entry("ext", "E-01", "added", "Extra")]
    assert data["sources"] == []


def test_a_state_changed(run_line: RunLine, in_project: History) -> None:
    data = between(run_line, in_project, "register", "state")
    state = {"status.state": {"from": "missing", "to": "partial"}}
    assert data["entries"] == [entry("t", "T-01", "changed", "Handles requests", fields=state)]
    assert data["registers"] == data["sources"] == []


def test_an_entry_added_and_one_removed(run_line: RunLine, in_project: History) -> None:
    data = between(run_line, in_project, "state", "entries")
    assert data["entries"] == [
        entry("t", "T-02", "removed", "Goes away"),
        entry("t", "T-03", "added", "New"),
    ]


def test_prose_edited_only(run_line: RunLine, in_project: History) -> None:
    data = between(run_line, in_project, "entries", "prose")
    assert data["entries"] == [
        entry("t", "T-01", "changed", "Handles requests", fields={"what": "changed"})
    ]


def test_fix_is_a_move(run_line: RunLine, in_project: History) -> None:
    data = between(run_line, in_project, "prose", "fix")
    quote = " “func handle() error {”"
    moved = [{"from": f"src/server.go:4{quote}", "to": f"src/server.go:3{quote}"}]
    assert data["entries"] == [
        entry("t", "T-01", "changed", "Handles requests", citations={"moved": moved})
    ]


def test_bump_moves_the_pin_and_the_citations(run_line: RunLine, in_project: History) -> None:
    data = between(run_line, in_project, "fix", "bump")
    old, new = in_project.pins
    [source] = data["sources"]
    assert source["alias"] == "up" and source["change"] == "moved"
    assert old.startswith(source["from"]) and new.startswith(source["to"])
    quote = " “func handle() error {”"
    assert data["entries"] == [
        entry(
            "ext",
            "E-01",
            "changed",
            "Extra",
            citations={"moved": [{"from": "src/server.go:2", "to": "src/server.go:4"}]},
        ),
        entry(
            "t",
            "T-01",
            "changed",
            "Handles requests",
            citations={
                "moved": [
                    {"from": f"src/server.go:3{quote}", "to": f"src/server.go:5{quote}"},
                    {"from": "src/server.go:4", "to": "src/server.go:6"},
                ]
            },
        ),
        entry(
            "t",
            "T-03",
            "changed",
            "New",
            citations={"moved": [{"from": "src/server.go:5", "to": "src/server.go:7"}]},
        ),
    ]
    assert all(not e["fields"] for e in data["entries"])  # the notes' tokens are citations


def test_a_title_renamed(run_line: RunLine, in_project: History) -> None:
    data = between(run_line, in_project, "bump", "title")
    title = {"title": {"from": "New", "to": "Renamed"}}
    assert data["entries"] == [entry("t", "T-03", "changed", "Renamed", fields=title)]


def test_no_revision_is_head_against_the_working_tree(
    run_line: RunLine, in_project: History
) -> None:
    path = in_project.registers / "t.yaml"
    text = path.read_text(encoding="utf-8")
    try:
        done = text.replace("{state: partial, note:", "{state: done, note:", 1)
        path.write_text(done, encoding="utf-8")
        data = diff_json(run_line)
        assert data["from"] == in_project.commits["title"] and data["to"] == "worktree"
        state = {"status.state": {"from": "partial", "to": "done"}}
        assert data["entries"] == [entry("t", "T-01", "changed", "Handles requests", fields=state)]
        one = diff_json(run_line, in_project.commits["bump"])
        assert [e["id"] for e in one["entries"]] == ["T-01", "T-03"]
    finally:
        path.write_text(text, encoding="utf-8")
    assert diff_json(run_line)["entries"] == []


def test_text_and_markdown(run_line: RunLine, in_project: History) -> None:
    commits = in_project.commits
    text = run_line(["diff", commits["register"], commits["state"]])
    assert text.exit_code == 0
    assert text.stdout.splitlines() == [
        f"registers: {commits['register'][:12]} -> {commits['state'][:12]}",
        "T-01 Handles requests (t): changed",
        "  status.state: missing -> partial",
        "entries: 1 changed",
    ]
    markdown = run_line(["diff", "--format", "markdown", commits["state"], commits["entries"]])
    assert markdown.stdout == (
        f"### Register changes: `{commits['state'][:12]}` → `{commits['entries'][:12]}`\n\n"
        "#### t\n\n"
        "- **T-02** Goes away: **removed**\n"
        "- **T-03** New: **added**\n\n"
        "*entries: 1 removed, 1 added*\n"
    )


def test_a_file_that_does_not_load_is_located(run_line: RunLine, in_project: History) -> None:
    path = in_project.registers / "t.yaml"
    text = path.read_text(encoding="utf-8")
    try:
        path.write_text(text.replace("  - id: T-03", "  - id: [T-03"), encoding="utf-8")
        result = run_line(["diff"])
        assert result.exit_code == 1
        assert "Traceback" not in result.output
        [line] = [x for x in result.stdout.splitlines() if x.startswith("registers/t.yaml:")]
        assert line.startswith("registers/t.yaml:") and ": error: t: " in line
        assert line.endswith("(at working tree)")
        data = json.loads(run_line(["diff", "--format", "json"]).stdout)
        assert data["registers"] == [
            {
                "register": "t",
                "change": "unreadable",
                "problems": [data["registers"][0]["problems"][0]],
            }
        ]
        [problem] = data["problems"]
        assert problem["file"] == "registers/t.yaml" and problem["side"] == "to"
    finally:
        path.write_text(text, encoding="utf-8")


def test_outside_git_and_unknown_revision(
    run_line: RunLine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # whatever holds tmp
    registers = tmp_path / "registers"
    registers.mkdir()
    result = run_line(["diff", "--registers", str(registers)])
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("is not inside a git repository: no history to compare")
    assert "Traceback" not in result.output


def test_unknown_revision_in_a_shallow_clone(
    run_line: RunLine, history: History, tmp_path: Path
) -> None:
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "--quiet", "--depth", "2", history.project.url, str(clone)],
        check=True,
        capture_output=True,
    )
    registers = str(clone / "registers")
    result = run_line(["diff", "--registers", registers, history.commits["start"]])
    assert result.exit_code == 1
    assert "(a shallow clone: fetch more history)" in result.stderr
    assert "Traceback" not in result.output
    ok = run_line(["diff", "--registers", registers, "HEAD~1", "HEAD"])
    assert ok.exit_code == 0 and "title: New -> Renamed" in ok.stdout
    assert run_line(["diff", "a", "b", "c"]).exit_code == 2


def test_revisions_read_as_written() -> None:
    old = {"added": "2024-11-05"}
    new = {"added": "2024-11-05", "changed": ["2025-06-18", "2025-11-25"]}
    assert PLAIN.field("revisions", (old, new)) == (
        "revisions: added 2024-11-05 -> added 2024-11-05, changed [2025-06-18, 2025-11-25]"
    )

"""The matrix dated from a real history: `register matrix --format json` gives each cell's
`since`, the Matrix page says it in words, `--no-history` leaves the cells undated."""

from __future__ import annotations

import json
from pathlib import Path

import builder
from compat_register import api
from conftest import RunLine
from gitrepo import GitRepo
from registerfiles import register_head

SOURCES = """revisions: [2025-06-18]
sources:
  up: {{title: Up, repo: null, commit: {commit}, path: ../../up, claims: ['src/**']}}
"""
CONCEPTS = "concepts:\n  - {id: mcp.ping, title: Ping}\n"
ENTRY = """  - id: T-01
    title: Ping
    concept: mcp.ping
    what: w.
    status: {{state: {state}}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: r.
    sources: [src/a.go:1]
"""


def test_each_cell_says_since_when_its_entry_holds_its_state(
    tmp_path: Path, run_line: RunLine
) -> None:
    _, pin = builder.source(tmp_path / "up", {"src/a.go": "package a\n"}, "first")
    project = GitRepo(tmp_path / "project")
    files = {"concepts.yaml": CONCEPTS, "t.yaml": register_head() + ENTRY.format(state="missing")}
    builder.registers(project.root / "registers", SOURCES.format(commit=pin[:12]), files)
    project.commit("start")
    project.write("registers/t.yaml", register_head() + ENTRY.format(state="done"))
    done = project.commit("T-01 is done")
    registers = project.root / "registers"
    shown = run_line(["matrix", "--registers", str(registers), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    cell = json.loads(shown.stdout)["rows"][0]["cells"]["up"]
    date = cell["since"]["date"]
    assert cell["since"] == {"date": date, "commit": done[:12], "pin": pin[:12]}
    undated = run_line(
        ["matrix", "--registers", str(registers), "--format", "json", "--no-history"]
    )
    assert json.loads(undated.stdout)["rows"][0]["cells"]["up"]["since"] is None
    site = api.build_site(registers, api.SiteOptions(verify=False))
    page = next(text for uri, text in site.pages.items() if "Ping" in text and "concepts/" in uri)
    assert f"since {date}, at pin {pin[:7]}" in page  # the concept's page: since, on demand

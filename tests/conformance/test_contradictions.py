"""Claims against measurements: every kind of contradiction, located, and `register verify
--conformance` failing on them while plain `verify` is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import builder
from compat_register import api
from compat_register.conformance.measurements import cell_status, entry_checks
from conftest import RunLine
from registerfiles import register_head

FIXTURES = Path(__file__).parent.parent / "fixtures" / "conformance"

SOURCES = """revisions: [2025-06-18]
sources:
  go-sdk: {{title: Go SDK, repo: null, commit: {commit}, path: ../go-sdk, claims: ['mcp/**']}}
  mcpx: {{title: mcpx, repo: null, commit: {commit}, path: ../go-sdk, claims: ['internal/**']}}
"""

CONCEPTS = """concepts:
  - {id: mcp.ping, title: Ping, checks: [ping]}
  - {id: mcp.completion, title: Completion, checks: [completion-complete]}
  - {id: mcp.logging, title: Logging level, checks: [logging-set-level]}
  - {id: mcp.lifecycle, title: Initialization, checks: [server-initialize, never-run]}
  - {id: mcp.meta, title: _meta, checks: []}
"""


def entry(entry_id: str, state: str, concept: str, cited: str = "mcp/server.go:1") -> str:
    return f"""  - id: {entry_id}
    title: {concept}
    concept: {concept}
    what: w.
    status: {{state: {state}}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: r.
    sources: [{cited}]
"""


@pytest.fixture
def with_records(tmp_path: Path, run_line: RunLine) -> Path:
    files = {"mcp/server.go": "package mcp\n", "internal/proxy.go": "package internal\n"}
    _, commit = builder.source(tmp_path / "go-sdk", files, "first")
    go = (
        register_head("Go", "GO", subject="go-sdk")
        + entry("GO-01", "done", "mcp.ping")
        + entry("GO-02", "done", "mcp.completion")
        + entry("GO-03", "done", "mcp.logging")
        + entry("GO-04", "missing", "mcp.lifecycle")
        + entry("GO-05", "partial", "mcp.ping")
        + entry("GO-06", "done", "mcp.meta")
    )
    mx = register_head("Mx", "MX", subject="mcpx") + entry(
        "MX-01", "done", "mcp.ping", "internal/proxy.go:1"
    )
    folder = builder.registers(
        tmp_path / "registers",
        SOURCES.format(commit=commit),
        {"concepts.yaml": CONCEPTS, "go.yaml": go, "mx.yaml": mx},
    )
    args = ["--registers", str(folder), "--subject", "go-sdk"]
    baseline = ["--baseline", str(FIXTURES / "conformance-baseline.yml")]
    done = run_line(["conformance", "import", *args, *baseline, str(FIXTURES / "results")])
    assert done.exit_code == 0, done.output
    return folder


def found(registers: Path) -> list[tuple[str, int, str, str]]:
    verified = api.with_conformance(api.verify_citations(registers))
    return [
        (Path(d.file).name, d.line, d.id, d.code)
        for d in verified.diagnostics
        if d.code.startswith("conformance-")
    ]


def line_of(path: Path, text: str, after: str = "") -> int:
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if after in line)
    return next(i for i, line in enumerate(lines) if i >= start and text in line) + 1


def test_each_kind_of_contradiction_is_found_and_located(with_records: Path) -> None:
    go, record = with_records / "go.yaml", with_records / "conformance" / "go-sdk.json"
    state = "status: {state:"
    assert sorted(found(with_records)) == sorted(
        [
            ("go.yaml", line_of(go, state, "GO-01"), "GO-01", "conformance-done-fails"),
            ("go.yaml", line_of(go, state, "GO-02"), "GO-02", "conformance-done-fails"),
            ("go.yaml", line_of(go, state, "GO-03"), "GO-03", "conformance-done-baselined"),
            ("go.yaml", line_of(go, state, "GO-04"), "GO-04", "conformance-missing-passes"),
            (
                "go-sdk.json",
                line_of(record, '"id": "cimd-client-id-used"') - 1,
                "go-sdk",
                "conformance-unnamed-check",
            ),
            (
                "go-sdk.json",
                line_of(record, '"id": "mcp-client-initialization"') - 1,
                "go-sdk",
                "conformance-unnamed-check",
            ),
            (
                "go-sdk.json",
                line_of(record, '"logging-set-level"', '"baseline"'),
                "go-sdk",
                "conformance-stale-baseline",
            ),
        ]
    )


def test_the_messages_say_what_disagrees(with_records: Path) -> None:
    verified = api.with_conformance(api.verify_citations(with_records))
    by_id = {d.id: d for d in verified.diagnostics if d.code.startswith("conformance-")}
    assert by_id["GO-01"].message.startswith("done, but conformance check ping fails for go-sdk")
    assert "(FAILURE in ping)" in by_id["GO-01"].message
    assert "expected-failures baseline (SUCCESS in logging-set-level)" in by_id["GO-03"].message
    assert "server-initialize passes" in by_id["GO-04"].message
    assert by_id["GO-04"].col == 21  # the state itself: `missing` in `    status: {state: missing}`


def test_verify_fails_on_a_contradiction_only_when_asked(
    with_records: Path, run_line: RunLine
) -> None:
    plain = run_line(["verify", "--registers", str(with_records)])
    assert plain.exit_code == 0, plain.output
    assert "conformance" not in plain.stdout
    asked = run_line(["verify", "--registers", str(with_records), "--conformance"])
    assert asked.exit_code == 1
    assert asked.stdout.count(": error: ") == 6 and asked.stdout.count(": warning: ") >= 1


def test_a_claim_that_agrees_with_its_measurement_is_no_contradiction(
    with_records: Path, run_line: RunLine
) -> None:
    go = with_records / "go.yaml"
    text = go.read_text()
    for fixed in ("GO-01", "GO-02", "GO-03"):
        head, tail = text.split(f"id: {fixed}", 1)
        text = head + f"id: {fixed}" + tail.replace("state: done", "state: partial", 1)
    go.write_text(text.replace("state: missing", "state: done"))
    (with_records / "concepts.yaml").write_text(
        CONCEPTS + "  - {id: mcp.client, title: Client, checks: [mcp-client-initialization, "
        "cimd-client-id-used]}\n"
    )
    record = with_records / "conformance" / "go-sdk.json"
    data = json.loads(record.read_text())
    data["baseline"]["server"] = ["completion-complete"]
    record.write_text(json.dumps(data, indent=2))
    assert found(with_records) == []


def test_a_cell_and_a_page_show_each_named_checks_latest_status(with_records: Path) -> None:
    checked = api.check(with_records)
    recorded = api.recorded(with_records)
    entries = checked.registers.entries()
    concepts = checked.registers.concepts.by_id() if checked.registers.concepts else {}
    go_sdk = recorded.records["go-sdk"]
    assert cell_status(entries["GO-04"], concepts["mcp.lifecycle"], go_sdk) == {
        "server-initialize": "SUCCESS",
        "never-run": None,
    }
    assert cell_status(entries["GO-06"], concepts["mcp.meta"], go_sdk) == {}
    assert cell_status(entries["MX-01"], concepts["mcp.ping"], None) == {}
    shown = entry_checks(checked.registers, recorded.records)
    assert set(shown) == {"GO-01", "GO-02", "GO-03", "GO-04", "GO-05"}
    (completion,) = shown["GO-02"]
    assert (completion.status, completion.baselined) == ("FAILURE", True)


def test_the_site_shows_each_entrys_checks_and_lists_the_contradictions(with_records: Path) -> None:
    site = api.build_site(with_records, api.SiteOptions(history=False))
    go = site.pages["registers/go.md"]
    section = go.split("## GO-02", 1)[1].split("\n## ", 1)[0]
    assert (
        "- **Conformance checks.** `completion-complete` FAILURE (expected to fail: in the "
        "baseline); Go SDK at `" in section  # the subject by its source's title
    )
    lifecycle = go.split("## GO-04", 1)[1].split("\n## ", 1)[0]
    assert "`server-initialize` SUCCESS, `never-run` not run;" in lifecycle
    assert "Conformance checks" not in go.split("## GO-06", 1)[1]  # its concept names none
    assert "Conformance checks" not in site.pages["registers/mx.md"]  # mcpx has no record
    health = site.pages["registers/health.md"]
    assert "## Conformance contradictions (7) { #conformance }" in health
    row = next(line for line in health.splitlines() if "GO-04" in line and "passes" in line)
    assert "go.yaml:" in row and "[GO-04](go.md#go-04)" in row


def test_a_site_without_records_says_nothing_of_conformance(with_records: Path) -> None:
    for record in (with_records / "conformance").iterdir():
        record.unlink()
    site = api.build_site(with_records, api.SiteOptions(history=False))
    assert "Conformance" not in site.pages["registers/health.md"]
    assert "Conformance checks" not in site.pages["registers/go.md"]


def test_the_matrix_cells_carry_their_checks(with_records: Path, run_line: RunLine) -> None:
    shown = run_line(["matrix", "--registers", str(with_records), "--format", "json"])
    assert shown.exit_code == 0, shown.output
    rows = {row["concept"]: row for row in json.loads(shown.stdout)["rows"]}
    lifecycle = rows["mcp.lifecycle"]["cells"]["go-sdk"]
    assert lifecycle["checks"] == {"server-initialize": "SUCCESS", "never-run": None}
    assert "checks" not in rows["mcp.ping"]["cells"]["mcpx"]  # mcpx has no record
    assert "checks" not in rows["mcp.meta"]["cells"]["go-sdk"]  # its concept names none
    site = api.build_site(with_records, api.SiteOptions(history=False))
    page = next(
        text
        for uri, text in site.pages.items()
        if uri.endswith("concepts.md") or ("mcp.lifecycle" in text and "matrix" in uri)
    )
    assert "checks: server-initialize SUCCESS, never-run not run" in page

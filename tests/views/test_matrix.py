"""The concept x subject matrix (views.matrix), `register matrix` in each format, and the
since-when hook: over tests/golden/concepts/registers, two registers of two subjects
sharing concepts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import builder
from compat_register import api
from compat_register.model.registers import Entry
from compat_register.views import conceptmatrix as view
from conftest import RunLine

CASE = Path(__file__).parents[1] / "golden" / "concepts" / "registers"


@pytest.mark.parametrize(
    "states, expected",
    [
        ([], "not recorded"),
        (["done"], "done"),
        (["done", "done"], "done"),
        (["done", "missing"], "partial"),
        (["partial", "missing"], "partial"),
        (["missing", "unknown"], "missing"),
        (["done", "unknown"], "partial"),
        (["n/a", "done"], "done"),
        (["n/a", "n/a"], "n/a"),
        (["unknown", "unknown"], "unknown"),
        (["n/a", "unknown"], "unknown"),
    ],
)
def test_a_cell_of_several_entries_rolls_their_states_up(states: list[str], expected: str) -> None:
    assert view.rollup(states) == expected


def test_rows_are_concepts_in_file_order_under_their_parents() -> None:
    shown = view.matrix(api.check(CASE).registers)
    assert shown.subjects == ("client", "server")
    assert [(row.concept.id, row.depth) for row in shown.rows] == [
        ("mcp.meta", 0),
        ("mcp.meta.progress", 1),
        ("mcp.meta.trace", 1),
        ("mcp.meta.trace.baggage", 2),
        ("server-initialize", 0),
        ("mcp.unnamed", 0),
    ]
    cells = {
        row.concept.id: [(c.state, [e.id for e in c.entries]) for c in row.cells]
        for row in shown.rows
    }
    assert cells["mcp.meta.progress"] == [("done", ["CLI-01"]), ("partial", ["SRV-01", "SRV-02"])]
    assert cells["mcp.meta.trace.baggage"] == [("missing", ["CLI-03"]), ("n/a", ["SRV-04"])]
    assert cells["server-initialize"] == [("done", ["CLI-04"]), ("not recorded", [])]
    assert [row.done for row in shown.rows] == [0, 1, 0, 0, 1, 0]
    assert [concept.id for concept in shown.unnamed] == ["mcp.meta", "mcp.unnamed"]


def test_the_project_s_own_subject_leads_the_columns() -> None:
    registers = api.check(CASE).registers
    assert view.matrix(registers, first="server").subjects == ("server", "client")


def test_a_stale_citation_marks_its_cell_and_unverified_does_not() -> None:
    registers = api.check(CASE).registers
    entries = registers.entries()
    srv = entries["SRV-02"].citations[0]
    cli = entries["CLI-01"].citations[0]
    shown = view.matrix(registers, {srv.key: "moved", cli.key: "unverified"})
    progress = next(row for row in shown.rows if row.concept.id == "mcp.meta.progress")
    assert [cell.stale for cell in progress.cells] == [(), ("SRV-02",)]
    assert all(not c.stale for row in view.matrix(registers).rows for c in row.cells)


def test_the_since_hook_dates_each_recorded_cell() -> None:
    asked: list[str] = []

    def since(entry: Entry) -> dict[str, str] | None:
        asked.append(entry.id)
        return (
            {"date": "2026-10-02", "commit": "abc", "pin": "def"} if entry.id == "CLI-01" else None
        )

    shown = api.matrix(CASE, since=since).matrix
    progress = next(row for row in shown.rows if row.concept.id == "mcp.meta.progress")
    assert [cell.since for cell in progress.cells] == [
        {"date": "2026-10-02", "commit": "abc", "pin": "def"},
        None,
    ]
    assert sorted(asked) == ["CLI-01", "CLI-02", "CLI-03", "CLI-04", "SRV-01", "SRV-03", "SRV-04"]


def test_matrix_json_has_the_issue_s_shape(run_line: RunLine) -> None:
    args = ["--registers", str(CASE), "--format", "json", "--no-history"]  # no dates: a shape
    result = run_line(["matrix", *args])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["subjects"] == ["client", "server"]
    assert data["names"] == {"client": "A client", "server": "A server"}  # sources' titles
    progress = data["rows"][1]
    assert {k: progress[k] for k in ("concept", "title")} == {
        "concept": "mcp.meta.progress",
        "title": "progressToken",
    }
    assert progress["cells"] == {
        "client": {
            "entry": "CLI-01",
            "state": "done",
            "since": None,
            "entries": ["CLI-01"],
            "stale": [],
        },
        "server": {
            "entry": "SRV-01",
            "state": "partial",
            "since": None,
            "entries": ["SRV-01", "SRV-02"],
            "stale": [],
        },
    }
    assert data["rows"][4]["cells"]["server"] == {
        "entry": None,
        "state": "not recorded",
        "since": None,
        "entries": [],
        "stale": [],
    }
    assert data["unnamed"] == ["mcp.meta", "mcp.unnamed"]


def test_matrix_markdown_is_a_table_for_a_readme(run_line: RunLine) -> None:
    result = run_line(["matrix", "--registers", str(CASE), "--format", "markdown"])
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "| Concept | A client 1111111 | A server 2222222 | Done |\n"
        "|---|---|---|---:|\n"
        "| \\_meta (`mcp.meta`) | _not recorded_ | _not recorded_ | 0/2 |\n"
        "| ↳ progressToken (`mcp.meta.progress`) | **done** CLI-01 "
        "| **partial** SRV-01, SRV-02 | 1/2 |\n"
        "| ↳ Trace context \\<keys\\> (`mcp.meta.trace`) | **partial** CLI-02 "
        "| **unknown** SRV-03 | 0/2 |\n"
        "| ↳ ↳ baggage (`mcp.meta.trace.baggage`) | **missing** CLI-03 | **n/a** SRV-04 | 0/2 |\n"
        "| Initialize (`server-initialize`) | **done** CLI-04 | _not recorded_ | 1/2 |\n"
        "| Nobody names this (`mcp.unnamed`) | _not recorded_ | _not recorded_ | 0/2 |\n"
        "\n"
        "Named by no entry: `mcp.meta`, `mcp.unnamed`.\n"
    )


def test_matrix_text_and_a_set_without_concepts(run_line: RunLine, tmp_path: Path) -> None:
    result = run_line(["matrix", "--registers", str(CASE)])
    assert result.stdout.splitlines()[:2] == [
        "concept                     client          server                 done",
        "mcp.meta                    not recorded    not recorded           0/2",
    ]
    builder.registers(tmp_path, (CASE / "sources.yaml").read_text())
    empty = run_line(["matrix", "--registers", str(tmp_path), "--format", "json"])
    assert json.loads(empty.stdout) == {
        "subjects": [],
        "names": {},
        "versions": {},
        "rows": [],
        "unnamed": [],
    }


def test_matrix_fails_as_check_does(run_line: RunLine, tmp_path: Path) -> None:
    for name in ("sources.yaml", "client.yaml"):
        (tmp_path / name).write_text((CASE / name).read_text())
    result = run_line(["matrix", "--registers", str(tmp_path)])
    assert result.exit_code == 1
    assert "unknown concept 'mcp.meta.progress': no concepts.yaml" in result.stderr


def test_a_cell_on_the_page_says_state_ids_value_effort_and_stale_in_words() -> None:
    """Each entry of a cell by its ID, value and effort as text (no hover, no title), the
    cell's state first; since when is the concept page's, said once there."""
    from compat_register.site import conceptpages
    from compat_register.site import renderer as render

    registers = api.check(CASE).registers
    srv = registers.entries()["SRV-02"].citations[0]

    def since(entry: Entry) -> dict[str, str] | None:
        return {"date": "2026-10-02", "pin": "def1234abc"} if entry.id == "SRV-01" else None

    shown = view.matrix(registers, {srv.key: "broken"}, since)
    progress = next(row for row in shown.rows if row.concept.id == "mcp.meta.progress")
    fmt = render.Renderer(registers).formatter("registers/matrix.md")
    text = fmt.concept_cell(progress.cells[1])
    assert text.startswith(
        '<span class="reg-mcell reg-mcell--partial">'
        '<span class="reg-badge reg-state reg-state--partial" data-rank="1">partial</span>'
    )
    assert (
        '<span class="reg-mentry">[SRV-01](server.md#srv-01) '
        '<span class="reg-rated">done, value high, effort M</span></span>'
    ) in text
    assert '[SRV-02](server.md#srv-02) <span class="reg-rated">missing, value med' in text
    assert text.endswith('<span class="reg-stale">stale citation in SRV-02</span>')
    assert "since" not in text and "title" not in text
    single = fmt.concept_cell(progress.cells[0])  # one entry: its state is the cell's
    assert '[CLI-01](client.md#cli-01) <span class="reg-rated">value high, effort S' in single
    assert conceptpages.since_text(progress.cells[1]) == "since 2026-10-02, at pin def1234"
    assert conceptpages.since_text(progress.cells[0]) == ""


def test_a_register_named_matrix_clashes_with_the_matrix_page(
    run_line: RunLine, tmp_path: Path
) -> None:
    from compat_register.site import urls as layout

    for name in ("sources.yaml", "concepts.yaml", "server.yaml"):
        (tmp_path / name).write_text((CASE / name).read_text())
    (tmp_path / "matrix.yaml").write_text((CASE / "client.yaml").read_text())
    clashes = layout.page_clashes(api.check(tmp_path).registers, layout.Layout())
    assert [d.message for d in clashes] == [
        "this register's page registers/matrix.md is also the site's Matrix page: rename the file"
    ]

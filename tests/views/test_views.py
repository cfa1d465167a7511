"""The revision matrix, what each revision changed, the priorities and the state bars: pure
views of a register set (compat_register.views), and the pages the site makes of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import builder
from compat_register import api
from compat_register.model.registers import Revisions
from compat_register.site import chart
from compat_register.site import renderer as render
from compat_register.site import urls as site_layout
from compat_register.views import priorities as prio
from compat_register.views import revisionmatrix as revs
from conftest import RunLine
from registerfiles import REVISION_SOURCES as SOURCES
from registerfiles import register_head
from registerfiles import revision_entry as entry

ORDER = ["r1", "r2", "r3", "r4", "r5"]


@pytest.mark.parametrize(
    "added, changed, removed, expected",
    [
        (None, [], None, ["unrecorded"] * 5),
        ("r2", [], None, ["absent", "added", "present", "present", "present"]),
        (None, ["r3"], None, ["present", "present", "changed", "present", "present"]),
        (None, [], "r4", ["present", "present", "present", "removed", "absent"]),
        ("r1", ["r3"], None, ["added", "present", "changed", "present", "present"]),
        ("r2", [], "r4", ["absent", "added", "present", "removed", "absent"]),
        (None, ["r2", "r3"], "r5", ["present", "changed", "changed", "present", "removed"]),
        ("r1", ["r2", "r4"], "r5", ["added", "changed", "present", "changed", "removed"]),
        ("r5", [], None, ["absent", "absent", "absent", "absent", "added"]),
        ("r1", [], "r2", ["added", "removed", "absent", "absent", "absent"]),
    ],
)
def test_matrix_cells(
    added: str | None, changed: list[str], removed: str | None, expected: list[str]
) -> None:
    """Every combination of added, changed and removed (none, one, several)."""
    assert revs.cells(Revisions(added, changed, removed), ORDER) == expected


def test_a_cell_per_revision_even_without_revisions_declared() -> None:
    assert revs.cells(Revisions("r1"), []) == []


def checked(tmp_path: Path, *entries: str, more: dict[str, str] | None = None) -> api.Checked:
    files = {"t.yaml": register_head() + "".join(entries), **(more or {})}
    result = api.check(builder.registers(tmp_path, SOURCES, files))
    assert not result.failed, [d.as_text() for d in result.diagnostics]
    return result


def test_what_each_revision_changed(tmp_path: Path) -> None:
    result = checked(
        tmp_path,
        entry(1, revisions="{added: 2024-11-05, changed: [2025-06-18]}"),
        entry(2, revisions="{added: 2025-06-18, removed: 2025-11-25}"),
        entry(3, revisions="{added: 2025-11-25}"),
        entry(4),
    )
    found = {
        c.revision: (
            [e.id for _, e in c.added],
            [e.id for _, e in c.changed],
            [e.id for _, e in c.removed],
        )
        for c in revs.changes(result.registers)
    }
    assert found == {
        "2024-11-05": (["T-01"], [], []),
        "2025-06-18": (["T-02"], ["T-01"], []),
        "2025-11-25": (["T-03"], [], ["T-02"]),
        "draft": ([], [], []),
    }
    rows = revs.matrix(result.registers)
    assert [row.cells for row in rows][3] == ["unrecorded"] * 4


def test_priorities_by_subject_then_value_then_effort(tmp_path: Path) -> None:
    other = register_head("Other", "O", subject="spec") + entry(1, "partial", "low", "S").replace(
        "T-01", "O-01"
    )
    result = checked(
        tmp_path,
        entry(1, "missing", "low", "S"),
        entry(2, "done", "high", "S"),
        entry(3, "partial", "high", "XL"),
        entry(4, "missing", "med", "M"),
        entry(5, "n/a", "high", "S"),
        entry(6, "missing", "high", "M"),
        entry(7, "missing", "none", "S"),
        entry(8, "partial", "med", "M"),
        more={"o.yaml": other},
    )
    # "up" has the most entries: the project's own subject, first though its register's
    # file comes after o.yaml.
    assert prio.own_subject(result.registers) == "up"
    groups = prio.priorities(result.registers, prio.own_subject(result.registers))
    assert [(g.subject, [e.id for e in g.entries]) for g in groups] == [
        ("up", ["T-06", "T-03", "T-04", "T-08", "T-01", "T-07"]),
        ("spec", ["O-01"]),
    ]
    assert groups[0].counts == {"done": 1, "partial": 2, "missing": 4, "n/a": 1}
    assert groups[1].counts == {"done": 0, "partial": 1, "missing": 0, "n/a": 0}
    configured = prio.priorities(result.registers, prio.own_subject(result.registers, "spec"))
    assert [g.subject for g in configured] == ["spec", "up"]
    grid = prio.grid(groups)
    assert grid[("high", "M")] == 1 and grid[("med", "M")] == 2 and grid[("low", "S")] == 2
    assert sum(grid.values()) == 7 and len(grid) == 16


def test_priorities_page_shows_risk_and_next_step(tmp_path: Path) -> None:
    with_next = entry(2, "partial").replace("risk: Risk 2.", "risk: Risk 2.\n    next: Ask.")
    result = checked(tmp_path, entry(1, "missing", note="Reads one key."), with_next)
    page = render.Renderer(result.registers).pages()["registers/priorities.md"]
    rows = [line for line in page.splitlines() if line.startswith("| [T-0")]
    assert rows[0].endswith("| Risk 1. | Reads one key. |")  # the status note
    assert rows[1].endswith("| Risk 2. | Ask. |")  # next: before the note
    assert "### Up { #subject-up }" in page  # the source's title; the anchor keeps the alias
    assert "1 missing" in page and "1 partial" in page  # the group's state summary
    register_page = render.Renderer(result.registers).pages()["registers/t.md"]
    assert "- **Next.** Ask." in register_page


def test_a_register_with_nothing_open_has_no_group(tmp_path: Path) -> None:
    result = checked(tmp_path, entry(1, "done"), entry(2, "n/a"))
    assert prio.priorities(result.registers) == []


def test_state_bar_names_its_counts_and_fills_its_width() -> None:
    svg = chart.state_bar("_meta <x>", "m", {"done": 3, "partial": 1, "missing": 0, "n/a": 0})
    assert '<svg class="reg-bar" role="img" aria-labelledby="state-bar-m"' in svg
    title = "_meta &lt;x&gt;: 3 done, 1 partial, 0 missing, 0 n/a"
    assert f'<title id="state-bar-m">{title}</title>' in svg
    widths = [float(w) for w in re.findall(r'<rect[^>]* width="([\d.]+)"', svg)]
    assert widths == [150.0, 50.0]
    assert svg.count("<rect") == svg.count("</rect>") == 2
    assert "no entries" in chart.state_bar("Empty", "e", {"done": 0})


def pages(tmp_path: Path, *entries: str) -> dict[str, str]:
    result = checked(tmp_path, *entries)
    return render.Renderer(result.registers, layout=site_layout.Layout(legend="legend.md")).pages()


def test_matrix_page_has_the_id_and_state_first_then_a_column_per_revision(tmp_path: Path) -> None:
    site = pages(
        tmp_path,
        entry(1, "partial", revisions="{added: 2025-06-18, changed: [2025-11-25]}", note="x"),
    )
    matrix = site["registers/revisions/index.md"]
    header = next(line for line in matrix.splitlines() if line.startswith("| ID |"))
    names = ["2024-11-05", "2025-06-18", "2025-11-25", "draft"]
    columns = " | ".join(f"[{name}]({name}.md){{ .reg-link }}" for name in names)
    assert header == f"| ID | State | Title | {columns} | Register | Tags |"
    row = next(line for line in matrix.splitlines() if line.startswith("| [T-01]"))
    words = re.findall(r">([a-z /]+)</span>", row)
    assert words == ["partial", "absent", "added", "changed", "present"]
    assert row.count("(../t.md#t-01)") == 3  # the ID, and the added and changed cells


def test_revision_page_lists_its_entries_with_state_value_and_effort(tmp_path: Path) -> None:
    site = pages(tmp_path, entry(1, "missing", "high", "M", revisions="{added: 2025-11-25}"))
    page = site["registers/revisions/2025-11-25.md"]
    assert page.startswith("---\nsearch:\n  boost: 0.2\n---\n# What 2025-11-25 changed\n")
    assert "1 added, 0 changed, 0 removed" in page
    row = next(line for line in page.splitlines() if line.startswith("| [T-01]"))
    assert re.findall(r">([a-zA-Z/]+)</span>", row) == ["missing", "high", "M"]
    assert "## Changed" not in page
    assert "No entry records" in site["registers/revisions/draft.md"]


def test_priorities_page_grid_links_to_the_filtered_list(tmp_path: Path) -> None:
    site = pages(tmp_path, entry(1, "missing", "high", "S"), entry(2, "missing", "high", "S"))
    page = site["registers/priorities.md"]
    assert "| **high** | [2](?value=high&effort=S#open-entries) | 0 | 0 | 0 |" in page
    assert "## Open entries { #open-entries }" in page


def test_overview_has_a_state_bar_per_register(tmp_path: Path) -> None:
    site = pages(tmp_path, entry(1, "done"), entry(2, "missing"))
    assert ">Test: 1 done, 0 partial, 1 missing, 0 n/a</title>" in site["registers/index.md"]


def test_register_page_links_its_revisions(tmp_path: Path) -> None:
    site = pages(tmp_path, entry(1, revisions="{added: 2024-11-05, changed: [2025-06-18]}"))
    assert (
        "- **Revisions.** added in [2024-11-05](revisions/2024-11-05.md){ .reg-link }, changed in "
        "[2025-06-18](revisions/2025-06-18.md){ .reg-link }." in site["registers/t.md"]
    )


def test_a_revision_name_that_is_no_file_name_gets_one() -> None:
    layout = site_layout.Layout()
    assert layout.revision_page("2025-11-25") == "registers/revisions/2025-11-25.md"
    assert layout.revision_page("v 1/2") == "registers/revisions/v-1-2.md"
    assert layout.revision_page("index") == "registers/revisions/index-.md"


@pytest.mark.parametrize(
    "name, clash",
    [
        ("priorities", "priorities page"),
        ("revisions", "revision matrix"),
        ("health", "citation-health page"),
        ("index", "overview"),
        ("changes", "Changes page"),
        ("prioritie", None),
    ],
)
def test_a_register_named_like_a_site_page_is_an_error(
    tmp_path: Path, run_line: RunLine, name: str, clash: str | None
) -> None:
    builder.registers(tmp_path / "registers", SOURCES, {f"{name}.yaml": register_head() + entry(1)})
    args = ["render", "--registers", str(tmp_path / "registers"), "--out", str(tmp_path / "out")]
    result = run_line([*args, "--offline", "--no-history"])
    if clash is None:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1
    page = f"registers/{name}.md"
    assert result.stderr.splitlines() == [
        f"{tmp_path / 'registers' / name}.yaml:2:9: error: {name}: this register's page {page} "
        f"is also the site's {clash}: rename the file"
    ]


@st.composite
def ordered_revisions(draw: st.DrawFn) -> tuple[list[str], Revisions]:
    """A revision list and revisions over it in order: added < changed... < removed."""
    order = [f"r{n}" for n in range(draw(st.integers(1, 8)))]
    picked = sorted(draw(st.sets(st.integers(0, len(order) - 1), max_size=len(order))))
    has_added = bool(picked) and draw(st.booleans())
    has_removed = len(picked) > has_added and draw(st.booleans())
    added = order[picked[0]] if has_added else None
    removed = order[picked[-1]] if has_removed else None
    middle = picked[int(has_added) : len(picked) - int(has_removed)]
    return order, Revisions(added, [order[n] for n in middle], removed)


@given(ordered_revisions())
def test_the_cells_say_exactly_what_the_revisions_record(case: tuple[list[str], Revisions]) -> None:
    order, recorded = case
    found = revs.cells(recorded, order)
    assert len(found) == len(order)
    if not recorded.recorded:
        assert set(found) == {"unrecorded"}
        return
    named = [order[n] for n, cell in enumerate(found) if cell in revs.EVENTS]
    back = Revisions(
        next((order[n] for n, c in enumerate(found) if c == "added"), None),
        [order[n] for n, c in enumerate(found) if c == "changed"],
        next((order[n] for n, c in enumerate(found) if c == "removed"), None),
    )
    assert back.as_data() == recorded.as_data()
    assert named == sorted(named, key=order.index)
    before = found[: order.index(named[0])]  # before the first revision named
    assert set(before) <= ({"absent"} if recorded.added else {"present"})
    if recorded.removed is not None:
        assert all(c == "absent" for c in found[order.index(recorded.removed) + 1 :])

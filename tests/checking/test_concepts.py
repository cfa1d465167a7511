"""registers/concepts.yaml: its problems located, the entries' `concept:` checked, the
note rule of `partial` and `n/a`."""

from __future__ import annotations

from pathlib import Path

import pytest

import builder
from compat_register import api
from conftest import RunLine
from registerfiles import REVISION_SOURCES as SOURCES
from registerfiles import register_head
from registerfiles import revision_entry as entry

CONCEPTS = """concepts:
  - id: mcp.meta
    title: _meta
  - id: mcp.meta.traceparent
    title: traceparent
    parent: mcp.meta
    statements: ['schema/s.ts:3 "x"']
    checks: [server-initialize, json-schema-2020-12-$defs]
"""
# json-schema-2020-12-$defs: a real check ID of the suite (0.2.0-alpha.11), `$` and all


def check(tmp_path: Path, run_line: RunLine, concepts: str | None, *entries: str):  # type: ignore[no-untyped-def]
    files = {"t.yaml": register_head() + "".join(entries)}
    if concepts is not None:
        files["concepts.yaml"] = concepts
    builder.registers(tmp_path, SOURCES, files)
    return run_line(["check", "--registers", str(tmp_path), "--strict"])


def lines(tmp_path: Path, result) -> list[str]:  # type: ignore[no-untyped-def]
    return result.stdout.replace(str(tmp_path) + "/", "").splitlines()


def test_concepts_are_read_in_order_with_their_fields(tmp_path: Path, run_line: RunLine) -> None:
    result = check(tmp_path, run_line, CONCEPTS, entry(1, concept="mcp.meta.traceparent"))
    assert result.stdout == "0 errors, 0 warnings\n", result.output
    checked = api.check(tmp_path)
    concepts = checked.registers.concepts
    assert concepts is not None and concepts.file.endswith("concepts.yaml")
    assert [c.id for c in concepts.concepts] == ["mcp.meta", "mcp.meta.traceparent"]
    trace = concepts.by_id()["mcp.meta.traceparent"]
    assert (trace.title, trace.parent, trace.checks) == (
        "traceparent",
        "mcp.meta",
        ("server-initialize", "json-schema-2020-12-$defs"),
    )
    assert [(s.source, s.repo_path, s.start, s.quote) for s in trace.statements] == [
        ("spec", "schema/s.ts", 3, "x")
    ]
    assert (trace.where.line, trace.where.col) == (4, 9)
    assert checked.registers.registers[0].entries[0].concept == "mcp.meta.traceparent"


def test_no_concepts_file_is_none(tmp_path: Path, run_line: RunLine) -> None:
    assert check(tmp_path, run_line, None, entry(1)).exit_code == 0
    assert api.check(tmp_path).registers.concepts is None


def test_concepts_yaml_is_no_register(tmp_path: Path, run_line: RunLine) -> None:
    check(tmp_path, run_line, CONCEPTS, entry(1))
    assert [r.slug for r in api.check(tmp_path).registers.registers] == ["t"]


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "concepts:\n  - id: a\n    title: [x\n",
            "concepts.yaml:4:1: error: concepts: invalid YAML: did not find expected ',' or ']' "
            "(while parsing a flow sequence opened at line 3, column 12)",
        ),
        (
            "concepts:\n  - id: a\n    title: A\n    parnet: b\n",
            "concepts.yaml:4:5: error: concepts: unknown field 'parnet' (did you mean 'parent'?)",
        ),
        (
            "concepts:\n  - id: a\n    title: A\n    checks: server-initialize\n",
            "concepts.yaml:4:13: error: concepts: ",
        ),
        (
            "concepts:\n  - id: Bad ID\n    title: A\n",
            "concepts.yaml:2:9: error: concepts: ",
        ),
        (
            "concepts:\n  - id: a\n    title: A\n  - id: a\n    title: B\n",
            "concepts.yaml:4:9: error: a: duplicate concept ID a (first defined at line 2)",
        ),
    ],
    ids=["bad-yaml", "unknown-key", "wrong-type", "bad-id", "duplicate-id"],
)
def test_concepts_file_errors_are_located(
    tmp_path: Path, run_line: RunLine, text: str, expected: str
) -> None:
    result = check(tmp_path, run_line, text, entry(1))
    assert result.exit_code == 1
    found = lines(tmp_path, result)
    assert any(line.startswith(expected) for line in found), found
    assert "Traceback" not in result.output


def test_an_unknown_concept_is_an_error_with_a_guess(tmp_path: Path, run_line: RunLine) -> None:
    result = check(tmp_path, run_line, CONCEPTS, entry(1, concept="mcp.meta.traceparnet"))
    assert lines(tmp_path, result) == [
        "t.yaml:18:14: error: T-01: unknown concept 'mcp.meta.traceparnet' "
        "(did you mean 'mcp.meta.traceparent'?)",
        "1 errors, 0 warnings",
    ]


def test_a_concept_without_a_concepts_file_is_an_error(tmp_path: Path, run_line: RunLine) -> None:
    result = check(tmp_path, run_line, None, entry(1, concept="mcp.meta"))
    assert lines(tmp_path, result)[0] == (
        "t.yaml:18:14: error: T-01: unknown concept 'mcp.meta': "
        "no concepts.yaml beside the registers"
    )


def test_an_unknown_parent_is_an_error(tmp_path: Path, run_line: RunLine) -> None:
    text = (
        "concepts:\n  - id: mcp.meta.trace\n    title: T\n    parent: mcp.metta\n"
        "  - id: mcp.meta\n    title: M\n"
    )
    result = check(tmp_path, run_line, text, entry(1))
    assert lines(tmp_path, result) == [
        "concepts.yaml:4:13: error: mcp.meta.trace: unknown parent concept 'mcp.metta' "
        "(did you mean 'mcp.meta'?)",
        "1 errors, 0 warnings",
    ]


def test_a_parent_cycle_is_one_error(tmp_path: Path, run_line: RunLine) -> None:
    text = (
        "concepts:\n  - id: root\n    title: R\n"
        "  - id: a\n    title: A\n    parent: b\n"
        "  - id: b\n    title: B\n    parent: c\n"
        "  - id: c\n    title: C\n    parent: a\n"
        "  - id: d\n    title: D\n    parent: a\n"
        "  - id: e\n    title: E\n    parent: e\n"
    )
    result = check(tmp_path, run_line, text, entry(1))
    assert lines(tmp_path, result) == [
        "concepts.yaml:6:13: error: a: concept parents form a cycle: a -> b -> c -> a",
        "concepts.yaml:18:13: error: e: concept parents form a cycle: e -> e",
        "2 errors, 0 warnings",
    ]


def test_a_statement_no_source_claims_is_an_error(tmp_path: Path, run_line: RunLine) -> None:
    text = "concepts:\n  - id: a\n    title: A\n    statements: ['docs/x.md:3']\n"
    result = check(tmp_path, run_line, text, entry(1))
    assert lines(tmp_path, result)[0].startswith(
        "concepts.yaml:4:18: error: a: no source claims docs/x.md"
    )


@pytest.mark.parametrize(
    "state, say", [("partial", "what is there and what is not"), ("n/a", "why not")]
)
def test_partial_and_na_need_a_note(
    tmp_path: Path, run_line: RunLine, state: str, say: str
) -> None:
    result = check(tmp_path, run_line, None, entry(1, state))
    assert (
        lines(tmp_path, result)[0]
        == f"t.yaml:13:21: warning: T-01: state '{state}' needs a note: say {say}"
    )
    noted = check(tmp_path, run_line, None, entry(1, state, note="only the keys (internal/a.go:1)"))
    assert noted.stdout == "0 errors, 0 warnings\n", noted.output


@pytest.mark.parametrize("state", ["missing", "unknown"])
def test_missing_and_unknown_need_no_note(tmp_path: Path, run_line: RunLine, state: str) -> None:
    assert check(tmp_path, run_line, None, entry(1, state)).stdout == "0 errors, 0 warnings\n"

"""`coverage.scope` in sources.yaml: the pages and headings a project covers; every other
statement is out of scope, counted apart (not uncovered, not in the share covered), with
the scope's one reason, in the text report and the JSON."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from compat_register.cli import main
from specrepo import NEW, OLD, registers_for, spec_repo

STATEMENTS = (
    '      statements: ["docs/specification/**/*.mdx", "schema/*/schema.ts", "README.md"]\n'
)
REASON = "The proxy never reads the schema's doc comments."


def project(tmp_path: Path, scope: str) -> tuple[Path, dict[str, str]]:
    """The spec-shaped project of tests/specrepo.py with `scope` under `coverage:`."""
    repo, commit = spec_repo(tmp_path / "spec")
    registers = registers_for(tmp_path / "registers", commit)
    sources = registers / "sources.yaml"
    text = sources.read_text()
    assert STATEMENTS in text
    sources.write_text(text.replace(STATEMENTS, STATEMENTS + scope))
    return registers, {"REGISTER_SOURCE_SPEC": str(repo.root)}


def run(registers: Path, env: dict[str, str], *args: str) -> Result:
    return CliRunner().invoke(main, [*args, "--registers", str(registers)], env=env)


def scope(covers: str, reason: str) -> str:
    return f"      scope:\n        covers: {covers}\n        reason: {reason}\n"


PAGES = scope('["docs/specification/*/basic/*.mdx"]', f'"{REASON}"')


def test_a_statement_outside_the_scope_is_counted_apart_with_the_reason(tmp_path: Path) -> None:
    registers, env = project(tmp_path, PAGES)
    result = run(registers, env, "coverage", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["summary"][OLD] == {
        "statements": 5, "cited": 1, "excluded": 0, "out of scope": 1, "uncovered": 3,
    }  # fmt: skip
    # NEW's schema.ts statement is cited: an entry covering it counts, scope or not.
    assert data["summary"][NEW]["out of scope"] == 0
    [out] = [s for s in data["statements"] if s["state"] == "out of scope"]
    assert (out["revision"], out["path"], out["reason"]) == (OLD, f"schema/{OLD}/schema.ts", REASON)
    text = run(registers, env, "coverage", OLD)
    counts = "5 statements: 1 cited, 0 excluded, 3 uncovered, 1 out of scope (25.0% covered)"
    assert f"{OLD}: {counts}" in text.stdout
    assert "schema.ts:3" not in text.stdout  # not listed among the uncovered


def test_a_heading_anchor_narrows_a_page_to_its_section(tmp_path: Path) -> None:
    anchored = scope('["**/basic/index.mdx#other*", "schema/**"]', "Not ours.")
    registers, env = project(tmp_path, anchored)
    data = json.loads(run(registers, env, "coverage", "--format", "json", NEW).stdout)
    states = {s["line"]: s["state"] for s in data["statements"] if s["path"].endswith(".mdx")}
    # 12 and 16 reworded, 15, 20: under "Messages", out of scope; 17 excluded stays so.
    assert states == {12: "out of scope", 15: "out of scope", 16: "out of scope",
                      17: "excluded", 20: "out of scope"}  # fmt: skip
    assert data["summary"][NEW]["uncovered"] == 0


def test_a_glob_re2_cannot_read_is_a_located_error(tmp_path: Path) -> None:
    registers, env = project(tmp_path, scope('["docs/[z-a]/*.mdx"]', "r"))
    result = run(registers, env, "check")
    assert result.exit_code == 1
    [line] = [line for line in result.stdout.splitlines() if "[z-a]" in line]
    assert "registers/sources.yaml:13:18: error: spec: scope glob 'docs/[z-a]/*.mdx' " in line


def test_a_scope_without_a_reason_is_a_located_schema_error(tmp_path: Path) -> None:
    registers, env = project(tmp_path, '      scope:\n        covers: ["**/*.mdx"]\n')
    result = run(registers, env, "check")
    assert result.exit_code == 1
    assert "sources.yaml:13:9: error: sources: missing required field 'reason' in" in result.stdout

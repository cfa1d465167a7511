"""`register coverage` on a spec-shaped repository built in a tmp dir: states, changes
across revisions, the report's forms, and exclusions kept true like other citations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import builder
from compat_register.cli import main
from specrepo import NEW, NEW_PAGE, OLD, registers_for, spec_repo


@pytest.fixture
def spec_project(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo, commit = spec_repo(tmp_path / "spec")
    registers = registers_for(tmp_path / "registers", commit)
    env = {"REGISTER_SOURCE_SPEC": str(repo.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    return registers, env


def run(registers: Path, env: dict[str, str], *args: str) -> Result:
    return CliRunner().invoke(main, ["coverage", "--registers", str(registers), *args], env=env)


def statements(registers: Path, env: dict[str, str], *args: str) -> dict[str, object]:
    result = run(registers, env, "--format", "json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_each_statement_s_state_keyword_heading_and_change(
    spec_project: tuple[Path, dict[str, str]],
) -> None:
    data = statements(*spec_project)
    rows = {(s["revision"], s["path"].split("/")[-1], s["line"]): s for s in data["statements"]}  # type: ignore[index,union-attr]
    assert data["summary"] == {
        OLD: {"statements": 5, "cited": 1, "excluded": 0, "out of scope": 0, "uncovered": 4},
        NEW: {"statements": 6, "cited": 1, "excluded": 1, "out of scope": 0, "uncovered": 4},
    }
    cited = rows[OLD, "index.mdx", 12]
    assert cited == {
        "revision": OLD, "source": "spec", "path": f"docs/specification/{OLD}/basic/index.mdx",
        "line": 12, "end": 13, "keyword": "MUST", "text": "Requests MUST include an integer ID.",
        "heading": "Messages", "state": "cited", "entries": ["T-01"], "reason": None,
        "change": "new", "checks": [],
    }  # fmt: skip
    excluded = rows[NEW, "index.mdx", 17]
    assert (excluded["state"], excluded["reason"], excluded["change"]) == (
        "excluded",
        "Cancellation is the host's, not the proxy's.",
        "new",
    )
    assert [rows[NEW, "index.mdx", n]["change"] for n in (12, 15, 16, 20)] == [
        "changed",
        "same",
        "changed",
        "new",
    ]
    assert (
        rows[NEW, "schema.ts", 3]["entries"] == ["T-02"]
        and rows[NEW, "schema.ts", 3]["heading"] == "Request.id"
    )
    assert rows[OLD, "index.mdx", 24]["keyword"] == "REQUIRED"
    # Code, front matter, the boilerplate, schema.json, the changelog and a file outside
    # every revision's folder hold no statement.
    assert {(r, f) for r, f, _ in rows} == {
        (OLD, "index.mdx"),
        (OLD, "schema.ts"),
        (NEW, "index.mdx"),
        (NEW, "schema.ts"),
    }


def test_a_cited_statement_reworded_in_the_next_revision_needs_a_look(
    spec_project: tuple[Path, dict[str, str]],
) -> None:
    registers, env = spec_project
    data = statements(registers, env)
    page = "docs/specification/{}/basic/index.mdx"
    was = {"revision": OLD, "source": "spec", "path": page.format(OLD), "line": 12}
    assert data["reworded"] == [
        {"revision": NEW, "source": "spec", "path": page.format(NEW), "line": 12,
         "entries": ["T-01"], "was": was}
    ]  # fmt: skip
    text = run(registers, env, NEW).stdout
    assert (
        f"    {NEW}/basic/index.mdx:12-13 MUST Requests MUST include a string or integer ID. "
        f"(was {OLD}/basic/index.mdx:12-13, cited by T-01)"
    ) in text


def test_the_text_report_names_the_uncovered_ready_to_paste(
    spec_project: tuple[Path, dict[str, str]],
) -> None:
    registers, env = spec_project
    result = run(registers, env, NEW)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert f"{NEW}: 6 statements: 1 cited, 1 excluded, 4 uncovered (33.3% covered)" in lines
    assert (
        f"  docs/specification/{NEW}/basic/index.mdx: "
        "5 statements: 0 cited, 1 excluded, 4 uncovered (20.0% covered)" in lines
    )
    assert f"    {NEW}/basic/index.mdx:20 MUST Proxies MUST forward the ID unchanged." in lines
    assert f"    {NEW}/basic/index.mdx:15 MUST NOT The ID MUST NOT be null." in lines
    assert not any(line.startswith(OLD) for line in lines)
    assert "warning: spec: 2025-06-01: 33.3% covered, 4 statements uncovered" in result.stdout


def test_new_lists_only_what_a_revision_added_or_changed(
    spec_project: tuple[Path, dict[str, str]],
) -> None:
    data = statements(*spec_project, "--new", NEW)
    listed = [(s["path"].split("/")[-1], s["line"]) for s in data["statements"]]  # type: ignore[index,union-attr]
    assert listed == [("index.mdx", 12), ("index.mdx", 16), ("index.mdx", 17), ("index.mdx", 20)]
    assert data["summary"] == {
        NEW: {"statements": 4, "cited": 0, "excluded": 1, "out of scope": 0, "uncovered": 3}
    }


def test_min_fails_below_the_threshold_and_a_revision_must_be_declared(
    spec_project: tuple[Path, dict[str, str]],
) -> None:
    registers, env = spec_project
    low = run(registers, env, "--min", "50")
    assert low.exit_code == 1
    assert "error: spec: 2025-06-01: 33.3% covered, below --min 50%" in low.stdout
    assert run(registers, env, "--min", "20").exit_code == 0
    unknown = run(registers, env, "2030-01-01")
    assert unknown.exit_code == 2 and "no revision 2030-01-01 in sources.yaml" in unknown.stderr


def test_a_stale_citation_covers_nothing(tmp_path: Path) -> None:
    repo, commit = spec_repo(tmp_path / "spec")
    registers = registers_for(tmp_path / "registers", commit)
    text = (
        (registers / "t.yaml")
        .read_text()
        .replace(f"{OLD}/basic/index.mdx:12-13 ", f"{OLD}/basic/index.mdx:15 ")
    )
    (registers / "t.yaml").write_text(text)
    env = {"REGISTER_SOURCE_SPEC": str(repo.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    result = run(registers, env, "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["summary"][OLD]["cited"] == 0
    assert any(d["code"] == "citation-moved" for d in data["diagnostics"])


def test_an_exclusion_moves_with_a_bump(
    spec_project: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    registers, env = spec_project
    repo_root = Path(env["REGISTER_SOURCE_SPEC"])
    from gitrepo import GitRepo

    repo = GitRepo(repo_root)
    repo.write(
        f"docs/specification/{NEW}/basic/index.mdx",
        NEW_PAGE.replace("## Messages\n", "## Messages\n\nAn added paragraph.\nAnd another.\n"),
    )
    new = repo.commit("lines above the excluded statement")
    bumped = CliRunner().invoke(main, ["bump", "--registers", str(registers), "spec", new], env=env)
    assert bumped.exit_code == 0, bumped.output
    assert (
        f"'{NEW}/basic/index.mdx:20 “Clients MAY cancel a request.”'"
        in (registers / "exclusions.yaml").read_text()
    )
    data = statements(registers, env, NEW)
    excluded = [s for s in data["statements"] if s["state"] == "excluded"]  # type: ignore[index,union-attr]
    assert [(s["line"], s["text"]) for s in excluded] == [(20, "Clients MAY cancel a request.")]


def test_an_exclusion_is_verified_and_fixed_like_any_citation(
    spec_project: tuple[Path, dict[str, str]],
) -> None:
    registers, env = spec_project
    text = (registers / "exclusions.yaml").read_text().replace(":17 ", ":16 ")
    (registers / "exclusions.yaml").write_text(text)
    verified = CliRunner().invoke(
        main, ["verify", "--registers", str(registers), "--skip", "up"], env=env
    )
    assert verified.exit_code == 1
    assert (
        "exclusions.yaml:2:16: error: exclusions: " in verified.stdout
        and "moved" in verified.stdout
    )
    fixed = CliRunner().invoke(main, ["fix", "--registers", str(registers)], env=env)
    assert "exclusions.yaml" in fixed.stdout, fixed.output
    assert f"{NEW}/basic/index.mdx:17 “Clients" in (registers / "exclusions.yaml").read_text()


def test_exclusions_yaml_errors_are_located(
    tmp_path: Path, spec_project: tuple[Path, dict[str, str]]
) -> None:
    registers, env = spec_project
    (registers / "exclusions.yaml").write_text(
        "exclusions:\n  - statement: a/b.mdx:1\n    reson: typo\n"
    )
    result = CliRunner().invoke(main, ["check", "--registers", str(registers)], env=env)
    assert result.exit_code == 1
    assert (
        "exclusions.yaml:3:5: error: exclusions: unknown field 'reson' (did you mean 'reason'?)"
        in result.stdout
    )
    (registers / "exclusions.yaml").write_text("exclusions:\n  - statement: a/b.mdx:1\n")
    missing = CliRunner().invoke(main, ["check", "--registers", str(registers)], env=env)
    assert "exclusions.yaml:2:5: error: exclusions: " in missing.stdout
    assert "'reason'" in missing.stdout


def test_an_exclusion_of_a_cited_or_of_no_statement_is_a_warning(
    spec_project: tuple[Path, dict[str, str]],
) -> None:
    registers, env = spec_project
    (registers / "exclusions.yaml").write_text(
        f"exclusions:\n  - statement: {OLD}/basic/index.mdx:12\n    reason: cited anyway.\n"
        f"  - statement: {OLD}/basic/index.mdx:2\n    reason: front matter.\n"
    )
    result = run(registers, env, OLD)
    assert (
        "exclusions.yaml:2:5: warning: exclusions: 2025-01-01/basic/index.mdx:12 "
        "is cited by an entry too: drop the exclusion" in result.stdout
    )
    assert (
        "exclusions.yaml:4:5: warning: exclusions: 2025-01-01/basic/index.mdx:2 names no statement"
        in result.stdout
    )


def test_a_warm_run_reads_the_cache_and_says_the_same(
    spec_project: tuple[Path, dict[str, str]],
) -> None:
    registers, env = spec_project
    cold = run(registers, env, "--format", "json").stdout
    assert (Path(env["REGISTER_CACHE"]) / "statements.json").exists()
    assert run(registers, env, "--format", "json").stdout == cold


def test_exclusions_are_stamped_under_their_label(
    spec_project: tuple[Path, dict[str, str]],
) -> None:
    registers, env = spec_project
    stamped = CliRunner().invoke(
        main, ["stamp", "--registers", str(registers), "exclusions"], env=env
    )
    assert stamped.exit_code == 0, stamped.output
    lock = (registers / "citations.lock").read_text()
    assert f"exclusions spec docs/specification/{NEW}/basic/index.mdx:17 v2:sha256:" in lock
    assert "T-01" not in lock


def test_no_source_naming_statements_is_an_error(tmp_path: Path) -> None:
    repo, commit = spec_repo(tmp_path / "spec")
    registers = registers_for(tmp_path / "registers", commit, exclusions=None)
    text = (registers / "sources.yaml").read_text()
    builder.edit_sources(registers, text[text.index("    coverage:") : text.index("  up:")], "")
    env = {"REGISTER_SOURCE_SPEC": str(repo.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    result = run(registers, env)
    assert result.exit_code == 1
    assert "sources.yaml:1:1: error: sources: no coverage is configured" in result.stdout
    assert "covered)" not in result.stdout  # no counts of nothing


def test_a_source_without_a_checkout_is_named_unreadable(
    spec_project: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    registers, env = spec_project
    (tmp_path / "empty").mkdir()
    result = run(registers, {**env, "REGISTER_SOURCE_SPEC": str(tmp_path / "empty")})
    assert result.exit_code == 1, result.output
    assert "error: spec: cannot read the statements of spec: " in result.output

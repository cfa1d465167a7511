"""`register bump` on a real git history: every kind of move, and writes that are all or none.

The upstream repository's pin is its first commit; five more commits insert lines above
the cited code, move a function to the end of its file, rename a file, edit a cited line
and delete a cited block. Citations are written in every form: listed and in prose,
unprefixed, prefixed, the mapping form, with and without quotes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import builder
from compat_register.cli import main
from gitrepo import GitRepo
from registerfiles import register_head

SERVER = """package server

func handle(req Request) error {
\treturn nil
}

func helper() int {
\treturn 42
}

func edited() string {
\treturn "old"
}

// keep 1
// keep 2

func doomed() {
\tpanic("x")
}

// keep 3
// keep 4
"""

GUIDE = "# Guide\n\nStep one.\nStep two.\n"


@pytest.fixture
def moves(tmp_path: Path) -> tuple[GitRepo, str]:
    return build_upstream(tmp_path / "upstream")


def build_upstream(root: Path) -> tuple[GitRepo, str]:
    """The upstream repository, its history and the sha of its first commit (the pin)."""
    repo, first = builder.source(root, {"src/server.go": SERVER, "docs/guide.md": GUIDE}, "first")
    text = "// header\n// more\n// more\n" + SERVER
    repo.write("src/server.go", text)
    repo.commit("lines inserted above")
    helper = "func helper() int {\n\treturn 42\n}\n\n"
    text = text.replace(helper, "") + "\n" + helper.rstrip("\n") + "\n"
    repo.write("src/server.go", text)
    repo.commit("helper moved to the end")
    repo.mv("docs/guide.md", "docs/manual/guide.md")
    repo.commit("guide renamed")
    text = text.replace('return "old"', 'return "new"')
    repo.write("src/server.go", text)
    repo.commit("a cited line edited")
    repo.write("src/server.go", text.replace('func doomed() {\n\tpanic("x")\n}\n\n', ""))
    repo.commit("a cited block deleted")
    return repo, first


FINAL_SERVER = [
    "// header",
    "// more",
    "// more",
    "package server",
    "",
    "func handle(req Request) error {",
    "\treturn nil",
    "}",
    "",
    "func edited() string {",
    '\treturn "new"',
    "}",
    "",
    "// keep 1",
    "// keep 2",
    "",
    "// keep 3",
    "// keep 4",
    "",
    "func helper() int {",
    "\treturn 42",
    "}",
]

SOURCES = """revisions: [2025-06-18]
sources:
  up:
    title: Upstream
    repo: null
    commit: {commit}   # the pin
    claims: [src/**, {{glob: "manual/**", under: docs/}}, {{glob: "guide.md", under: docs/}}]
"""

REGISTER = (
    register_head()
    + """  - id: T-01
    title: Every move
    what: '`src/server.go:3` is code; the body src/server.go:3-5; the line src/server.go:3.'
    status: {state: done, note: See guide.md:3 and up:src/server.go:12.}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources:
      - src/server.go:3-5
      - src/server.go:7-9 “func helper() int {”
      - guide.md:3-4
      - src/server.go:12
      - up:src/server.go:18-20    # doomed
      - {source: up, path: docs/guide.md, lines: 1}
      - {path: guide.md, lines: 4, quote: Step two.}
"""
)


def make_registers(root: Path, commit: str) -> Path:
    return builder.registers(
        root / "registers", SOURCES.format(commit=commit), {"t.yaml": REGISTER}
    )


def run(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, env=env)
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def snapshot(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


@pytest.fixture
def pinned_first(
    tmp_path: Path, moves: tuple[GitRepo, str]
) -> tuple[Path, dict[str, str], GitRepo]:
    repo, first = moves
    registers = make_registers(tmp_path, first[:10])
    return registers, {"REGISTER_SOURCE_UP": str(repo.root)}, repo


def test_bump_reanchors_flags_and_rewrites(
    pinned_first: tuple[Path, dict[str, str], GitRepo],
) -> None:
    registers, env, repo = pinned_first
    code, out = run(["bump", "--registers", str(registers), "up"], env)
    assert code == 1, out  # a changed and a gone citation need a human look
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    # lines inserted above: shifted; the token in code and the longer token stay as they were
    assert (
        "what: '`src/server.go:3` is code; the body src/server.go:6-8; the line src/server.go:6.'"
        in text
    )
    assert "- src/server.go:6-8\n" in text
    # a function moved within the file: found where the diff added it
    assert "- src/server.go:20-22 “func helper() int {”" in text
    assert FINAL_SERVER[19:22] == ["func helper() int {", "\treturn 42", "}"]
    # a renamed file: the path changes, unprefixed paths stay relative to their claim
    assert "- manual/guide.md:3-4\n" in text
    assert "note: See manual/guide.md:3 and up:src/server.go:11.}" in text
    assert "{source: up, path: docs/manual/guide.md, lines: 1}" in text
    assert "{path: manual/guide.md, lines: 4, quote: Step two.}" in text
    # the edited line: re-pointed at its new place, and reported as changed
    assert "- src/server.go:11\n" in text
    # the deleted block: left as it was, and reported as gone
    assert "- up:src/server.go:18-20    # doomed" in text
    sources = (registers / "sources.yaml").read_text(encoding="utf-8")
    head = repo.git("rev-parse", "HEAD")
    assert f"    commit: {head[:10]}   # the pin\n" in sources
    lines = out.splitlines()
    assert lines[0] == f"up: {repo.git('rev-parse', 'HEAD~5')[:12]} -> {head[:12]}"
    assert any(
        line.endswith("re-anchored: T-01: src/server.go:7-9 -> 20-22: moved within the file")
        for line in lines
    )
    assert any(
        ": re-anchored: T-01: docs/guide.md:3-4 -> docs/manual/guide.md:3-4: renamed from "
        "docs/guide.md" in line
        for line in lines
    )
    assert any(
        "changed: T-01: src/server.go:12 -> 11: the cited lines were edited" in line
        for line in lines
    )
    assert any(
        line.endswith("gone: T-01: src/server.go:18-20: the cited lines were deleted")
        for line in lines
    )
    assert lines[-2] == "0 carried over, 8 re-anchored, 2 changed, 1 gone"
    assert lines[-1] == f"wrote {registers / 't.yaml'}, {registers / 'sources.yaml'}".replace(
        str(Path.cwd()) + os.sep, ""
    )


def test_bumped_register_verifies(pinned_first: tuple[Path, dict[str, str], GitRepo]) -> None:
    registers, env, _ = pinned_first
    run(["bump", "--registers", str(registers), "up"], env)
    code, out = run(["verify", "--registers", str(registers), "--format", "json"], env)
    report = json.loads(out)
    by_text = {c["text"]: c["outcome"] for c in report["citations"]}
    assert by_text["src/server.go:20-22 “func helper() int {”"] == "ok"
    assert by_text["manual/guide.md:4 “Step two.”"] == "ok"
    assert report["summary"]["ok"] == 11  # the gone one still points at lines that exist


def test_second_bump_to_the_same_commit_changes_nothing(
    pinned_first: tuple[Path, dict[str, str], GitRepo],
) -> None:
    registers, env, _ = pinned_first
    run(["bump", "--registers", str(registers), "up"], env)
    before = snapshot(registers)
    code, out = run(["bump", "--registers", str(registers), "up"], env)
    assert snapshot(registers) == before
    assert out.splitlines()[-2:] == [
        "11 carried over, 0 re-anchored, 0 changed, 0 gone",
        "wrote nothing",
    ]
    assert code == 0


def test_bump_to_a_named_commit(pinned_first: tuple[Path, dict[str, str], GitRepo]) -> None:
    registers, env, repo = pinned_first
    second = repo.git("rev-parse", "HEAD~4")
    code, out = run(["bump", "--registers", str(registers), "up", second[:8]], env)
    assert code == 0, out
    assert "0 changed, 0 gone" in out
    assert f"commit: {second[:10]}" in (registers / "sources.yaml").read_text(encoding="utf-8")
    code, out = run(["bump", "--registers", str(registers), "up", "main~3"], env)
    assert code == 0, out  # a branch expression works for a local checkout
    assert "src/server.go:7-9 -> 10-12" not in out  # already moved by the first bump
    assert "src/server.go:10-12 -> 24-26: moved within the file" in out


def test_dry_run_writes_nothing(pinned_first: tuple[Path, dict[str, str], GitRepo]) -> None:
    registers, env, _ = pinned_first
    before = snapshot(registers)
    code, out = run(["bump", "--registers", str(registers), "up", "--dry-run"], env)
    assert code == 1
    assert snapshot(registers) == before
    assert out.splitlines()[-1].endswith("(dry run)")
    assert "src/server.go:7-9 -> 20-22" in out


def test_json_report(pinned_first: tuple[Path, dict[str, str], GitRepo]) -> None:
    registers, env, repo = pinned_first
    code, out = run(
        ["bump", "--registers", str(registers), "up", "--dry-run", "--format", "json"], env
    )
    report = json.loads(out)
    assert report["summary"] == {
        "carried": 0, "re-anchored": 8, "changed": 2, "gone": 1, "flagged": 0
    }  # fmt: skip
    assert report["dry_run"] is True and report["written"] is False
    [gone] = [c for c in report["citations"] if c["kind"] == "gone"]
    assert (gone["path"], gone["lines"], gone["new_lines"]) == ("src/server.go", [18, 20], None)
    assert (gone["flags"], gone["candidates"], gone["renames"]) == ([], [], [])
    [renamed] = report["renames"]
    assert (renamed["from"], renamed["to"]) == ("docs/guide.md", "docs/manual/guide.md")
    assert renamed["commit"] == repo.git("rev-parse", "HEAD~2")
    moved = [c for c in report["citations"] if c["new_path"] == "docs/manual/guide.md"]
    assert all(c["renames"] == [renamed] for c in moved) and len(moved) == 4


def test_what_bump_cannot_decide_is_flagged_in_text_and_json(tmp_path: Path) -> None:
    repo, first = builder.source(
        tmp_path / "upstream",
        {"src/client.go": 'package a\n\nfunc a() {\n\tcase "text/event-stream":\n}\n'},
    )
    repo.write("src/client.go", "package a\n\nfunc a() {\n}\n")
    repo.write("src/server.go", 'package a\n\nfunc b() {\n\tcase "text/event-stream":\n}\n')
    repo.commit()
    entry = (
        "  - id: T-01\n    title: Streams\n    what: A stream.\n    status: {state: done}\n"
        "    value: {level: low}\n    effort: {size: S}\n    risk: None.\n"
        "    sources:\n      - src/client.go:4\n"
    )
    files = {"t.yaml": register_head() + entry}
    registers = builder.registers(tmp_path / "registers", SOURCES.format(commit=first), files)
    env = {"REGISTER_SOURCE_UP": str(repo.root)}
    code, out = run(["bump", "--registers", str(registers), "up", "--dry-run"], env)
    assert code == 1, out
    assert (
        "gone: T-01: src/client.go:4: the cited lines were deleted; its text was added to "
        "other files: not taken (no context moved with it) "
        "[flagged ambiguous: candidates src/server.go:4]"
    ) in out
    assert "1 citation flagged: bump could not decide" in out
    code, out = run(
        ["bump", "--registers", str(registers), "up", "--dry-run", "--format", "json"], env
    )
    report = json.loads(out)
    assert report["summary"]["flagged"] == 1
    [flagged] = [c for c in report["citations"] if c["flags"]]
    assert flagged["flags"] == ["ambiguous"]
    head = repo.git("rev-parse", "HEAD")
    assert flagged["candidates"] == [{"path": "src/server.go", "lines": [4, 4], "commit": head}]


def test_interrupted_bump_leaves_every_file_as_before(
    pinned_first: tuple[Path, dict[str, str], GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    registers, env, _ = pinned_first
    before = snapshot(registers)
    real_replace = os.replace
    calls: list[str] = []

    def failing_replace(src: str, dst: str) -> None:
        calls.append(str(dst))
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    code, out = run(["bump", "--registers", str(registers), "up"], env)
    monkeypatch.undo()
    assert code == 1
    assert "No space left on device" in out
    assert calls[:2] == [str(registers / "t.yaml"), str(registers / "sources.yaml")]
    assert len(calls) == 4  # the second write failed; both are put back from their backups
    assert snapshot(registers) == before  # no temporary or backup file left either


def test_bump_refuses_a_register_set_with_errors(
    pinned_first: tuple[Path, dict[str, str], GitRepo],
) -> None:
    registers, env, _ = pinned_first
    (registers / "t.yaml").write_text(REGISTER.replace("prefix: T", "prefix: t"), "utf-8")
    before = snapshot(registers)
    code, out = run(["bump", "--registers", str(registers), "up"], env)
    assert code == 1
    assert "bump needs a register set without errors" in out
    assert snapshot(registers) == before


def test_unknown_source_is_a_usage_error(
    pinned_first: tuple[Path, dict[str, str], GitRepo],
) -> None:
    registers, env, _ = pinned_first
    code, out = run(["bump", "--registers", str(registers), "nope"], env)
    assert code == 2
    assert "no source 'nope'" in out


def test_a_rename_out_of_every_claim_gets_a_prefix(tmp_path: Path) -> None:
    repo, first = builder.source(tmp_path / "upstream", {"docs/guide.md": GUIDE})
    repo.mv("docs/guide.md", "elsewhere/guide.md")
    repo.commit()
    registers = make_registers(tmp_path, first)
    text = REGISTER.split("    sources:\n")[0].replace("src/server.go:", "src/x.go:")
    (registers / "t.yaml").write_text(text + "    sources:\n      - guide.md:3\n", "utf-8")
    code, out = run(
        ["bump", "--registers", str(registers), "up"], {"REGISTER_SOURCE_UP": str(repo.root)}
    )
    assert code == 0, out
    assert "      - up:elsewhere/guide.md:3\n" in (registers / "t.yaml").read_text("utf-8")
    assert f"commit: {repo.git('rev-parse', 'HEAD')}   # the pin" in (
        registers / "sources.yaml"
    ).read_text("utf-8")


def test_bump_fetches_the_default_branch_into_the_cache(
    tmp_path: Path, moves: tuple[GitRepo, str]
) -> None:
    repo, first = moves
    registers = make_registers(tmp_path, first[:7])
    builder.edit_sources(registers, "repo: null", f"repo: {repo.url}")
    env = {"REGISTER_CACHE": str(tmp_path / "cache")}
    code, out = run(["bump", "--registers", str(registers), "up", "--dry-run"], env)
    head = repo.git("rev-parse", "HEAD")
    assert out.splitlines()[0] == f"up: {first[:12]} -> {head[:12]}"
    assert (tmp_path / "cache" / "up.git").is_dir()
    code, out = run(["bump", "--registers", str(registers), "up"], env)
    assert f"commit: {head[:7]}   # the pin" in (registers / "sources.yaml").read_text("utf-8")
    code, out = run(["verify", "--registers", str(registers)], env)
    assert "11 ok" in out, out


def test_hostile_revisions_are_refused(
    tmp_path: Path, pinned_first: tuple[Path, dict[str, str], GitRepo]
) -> None:
    registers, env, _ = pinned_first
    target = tmp_path / "x"
    for rev in [f"--output={target}", "HEAD\nmain", "no-such-branch"]:
        code, out = run(["bump", "--registers", str(registers), "up", "--", rev], env)
        assert code == 1, out
        assert "cannot bump up" in out
    assert not target.exists()

"""Cited text compared by file kind, end to end on real git repositories: the issue's four
edits of code are changes for bump, quotes, stamps and `verify --against`; `**MUST**` made
`MUST` in Markdown is not; a stamp has one form, `v2:` by file kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import builder
from compat_register.cli import main
from gitrepo import GitRepo
from registerfiles import register_head

CODE = """package conn

func (s conn) Close() error {
\treturn nil
}

type state struct {
\tinitialized bool
}

func (c *Client) ListTools() ([]Tool, error) {
\treturn build(Options{
\t\topts: *opts,
\t})
}
"""
EDITED = (
    CODE.replace("(s conn)", "(s *conn)")
    .replace("\tinitialized", "\t_initialized")
    .replace("([]Tool,", "([]*Tool,")
    .replace("opts: *opts", "opts: opts")
)
LINES = {"close": 3, "initialized": 8, "tools": 11, "opts": 13}
SPEC = "# Spec\n\nServers **MUST** reply.\n\nClients MAY ask.\n"
NOTES = "Servers **SHOULD** log.\n"

SOURCES = """revisions: [2025-06-18]
sources:
  up: {{title: Up, repo: null, commit: {commit}, path: {path}, claims: ['src/**', 'docs/**']{more}}}
"""
ENTRY = """  - id: T-0{n}
    title: Entry {n}
    what: Something.
    status: {{state: done, note: Done.}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: None.
    sources: [{sources}]
"""


def registers_for(root: Path, commit: str, path: str, quotes: bool = False, more: str = "") -> Path:
    code = CODE.splitlines()
    cited = [
        f"'src/conn.go:{n} “{code[n - 1].strip()}”'" if quotes else f"src/conn.go:{n}"
        for n in LINES.values()
    ]
    entries = [
        ENTRY.format(n=1, sources=", ".join(cited)),
        ENTRY.format(n=2, sources="docs/spec.md:3" + (" “Servers MUST reply.”" if quotes else "")),
        ENTRY.format(n=3, sources="docs/notes.txt:1"),
    ]
    sources = SOURCES.format(commit=commit, path=path, more=more)
    return builder.registers(
        root / "registers", sources, {"t.yaml": register_head() + "".join(entries)}
    )


@pytest.fixture
def reformatted(tmp_path: Path) -> tuple[GitRepo, str]:
    repo, first = builder.source(
        tmp_path / "up",
        {"src/conn.go": CODE, "docs/spec.md": SPEC, "docs/notes.txt": NOTES},
        "first",
    )
    repo.write("src/conn.go", EDITED)
    repo.write("docs/spec.md", SPEC.replace("**MUST**", "MUST"))
    repo.write("docs/notes.txt", NOTES.replace("**SHOULD**", "SHOULD"))
    repo.commit("pointers, an underscore and emphasis")
    return repo, first


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env={})
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def test_bump_calls_the_four_code_edits_changed_and_markup_only_in_markdown_the_same(
    tmp_path: Path, reformatted: tuple[GitRepo, str]
) -> None:
    _, first = reformatted
    registers = registers_for(tmp_path, first[:7], "../up")
    code, out = run("bump", "--registers", str(registers), "up", "--format", "json")
    assert code == 1, out
    cited = json.loads(out)["citations"]
    kinds = {(c["path"], c["lines"][0]): (c["kind"], c["note"]) for c in cited}
    for line in LINES.values():
        assert kinds[("src/conn.go", line)] == ("changed", "the cited lines were edited")
    assert kinds[("docs/spec.md", 3)] == ("re-anchored", "edited in spacing or markup only")
    assert kinds[("docs/notes.txt", 1)] == ("changed", "the cited lines were edited")  # code


def test_a_source_declares_more_markdown_files(
    tmp_path: Path, reformatted: tuple[GitRepo, str]
) -> None:
    _, first = reformatted
    registers = registers_for(tmp_path, first[:7], "../up", more=", markdown: ['docs/*.txt']")
    code, out = run("bump", "--registers", str(registers), "up", "--dry-run")
    assert "notes.txt" not in out.replace("docs/notes.txt:1 -> 1: edited in spacing", "")
    assert "4 changed, 0 gone" in out


def test_a_quote_of_the_old_code_is_not_found_in_the_new(
    tmp_path: Path, reformatted: tuple[GitRepo, str]
) -> None:
    repo, _ = reformatted
    registers = registers_for(tmp_path, repo.git("rev-parse", "HEAD")[:7], "../up", quotes=True)
    text = (registers / "t.yaml").read_text("utf-8")
    text = text.replace("“Servers MUST reply.”", "“Servers MUST reply”")
    (registers / "t.yaml").write_text(text, encoding="utf-8")
    code, out = run("verify", "--registers", str(registers), "--format", "json")
    assert code == 1
    outcomes = {c["text"].split(" ")[0]: c["outcome"] for c in json.loads(out)["citations"]}
    for line in LINES.values():
        assert outcomes[f"src/conn.go:{line}"] == "broken", out
    assert outcomes["docs/spec.md:3"] == "ok"  # “Servers MUST reply” in **MUST** or MUST


def test_a_stamp_of_code_sees_the_four_edits(
    tmp_path: Path, reformatted: tuple[GitRepo, str]
) -> None:
    _, first = reformatted
    registers = registers_for(tmp_path, first[:7], "../up")
    assert run("stamp", "--registers", str(registers))[0] == 0
    lock = (registers / "citations.lock").read_text("utf-8")
    assert _new_stamps(lock) == 6
    # bump carries each stamp to its new key; the edited code is then changed
    run("bump", "--registers", str(registers), "up")
    code, out = run("verify", "--registers", str(registers), "--format", "json")
    outcomes = {c["text"]: c["outcome"] for c in json.loads(out)["citations"]}
    assert [outcomes[f"src/conn.go:{n}"] for n in LINES.values()] == ["changed"] * 4
    assert outcomes["docs/spec.md:3"] == "ok"


def test_against_predicts_the_four_edits_stale(tmp_path: Path) -> None:
    repo, first = builder.source(
        tmp_path / "impl",
        {"src/conn.go": CODE, "docs/spec.md": SPEC, "docs/notes.txt": NOTES},
        "code",
    )
    registers = registers_for(repo.root, first[:7], "..")
    repo.commit("register")
    repo.write("src/conn.go", EDITED)
    repo.write("docs/spec.md", SPEC.replace("**MUST**", "MUST"))
    repo.commit("a pull request")
    code, out = run("verify", "--registers", str(registers), "--against", "up=HEAD")
    assert code == 1
    assert "this change makes 4 register citations stale" in out
    assert "docs/spec.md" not in out


# --- the one stamp form -------------------------------------------------------------------


def _new_stamps(lock: str) -> int:
    return sum(" v2:sha256:" in line for line in lock.splitlines() if not line.startswith("#"))


def test_a_stamp_without_its_rule_marker_is_no_stamp(
    tmp_path: Path, reformatted: tuple[GitRepo, str]
) -> None:
    """`v2:sha256:HASH` is the one form: a line without `v2:` (the form of an unreleased
    version, by the Markdown rule for every file) is a bad line of the lock, not a stamp."""
    _, first = reformatted
    registers = registers_for(tmp_path, first[:7], "../up")
    run("stamp", "--registers", str(registers))
    lock = (registers / "citations.lock").read_text("utf-8")
    line = next(line for line in lock.splitlines() if "src/conn.go:3 " in line)
    (registers / "citations.lock").write_text(lock.replace(line, line.replace(" v2:", " ")))
    code, out = run("verify", "--registers", str(registers))
    assert code == 1
    number = lock.splitlines().index(line) + 1
    lock_file = registers / "citations.lock"
    assert f"{lock_file}:{number}:1: error: citations: not a stamp line" in out


# --- blank lines in Markdown (issue item 6) -------------------------------------------------

DOC = "# Guide\n\nFirst paragraph.\n\nSecond paragraph.\n\n\nThird paragraph.\n"


@pytest.mark.parametrize(
    ("edit", "kind", "lines"),
    [
        # the blank line between two cited paragraphs deleted: they are one paragraph now
        (("First paragraph.\n\nSecond", "First paragraph.\nSecond"), "changed", [3, 4]),
        # a second blank line between them: two read as one, the range grows by a line
        (("First paragraph.\n\nSecond", "First paragraph.\n\n\nSecond"), "re-anchored", [3, 6]),
        # re-wrapped, emphasised: the same paragraphs
        (("First paragraph.\n", "First\n**paragraph**.\n"), "re-anchored", [3, 6]),
    ],
)
def test_blank_lines_inside_a_cited_markdown_range(
    tmp_path: Path, edit: tuple[str, str], kind: str, lines: list[int]
) -> None:
    repo, first = builder.source(tmp_path / "up", {"docs/guide.md": DOC}, "first")
    repo.write("docs/guide.md", DOC.replace(*edit))
    repo.commit("edited")
    sources = SOURCES.format(commit=first[:7], path="../up", more="")
    entry = ENTRY.format(n=1, sources="docs/guide.md:3-5")
    registers = builder.registers(
        tmp_path / "registers", sources, {"t.yaml": register_head() + entry}
    )
    _, out = run("bump", "--registers", str(registers), "up", "--dry-run", "--format", "json")
    (cited,) = json.loads(out)["citations"]
    assert (cited["kind"], cited["new_lines"]) == (kind, lines), cited

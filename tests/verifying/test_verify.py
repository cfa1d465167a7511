"""`register verify` and `register fix` against real git repositories built in tmp dirs.

The upstream repository has two commits. Citations are written against the first; the
pin is the second, where lines of server.go moved down, a quoted line of spec.mdx was
deleted and old.md was removed. Every outcome is proved on listed and in-prose citations.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

import builder
from compat_register.cli import main
from compat_register.model.registers import Citation
from compat_register.sources.filetext import FileText
from compat_register.verifying.verify import judge
from gitrepo import GitRepo
from registerfiles import register_head

SPEC_V1 = """# Basic

Some intro.

Implementations **SHOULD NOT**
make assumptions.
1. Add `_meta` field to additional interface types
This line will be deleted.
The `_meta` keys are reserved by
this specification.
"""

SERVER_V1 = """package server

func handle(req Request) {
\treturn nil
}
"""


@pytest.fixture
def two_commits(tmp_path: Path) -> tuple[GitRepo, str, str]:
    repo, first = builder.source(
        tmp_path / "upstream",
        {
            "docs/spec.mdx": SPEC_V1,
            "src/server.go": SERVER_V1,
            "old.md": "gone soon\n",
            "logo.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00binary",
        },
        "first",
    )
    repo.write("src/server.go", "// header\n// more\n// more\n" + SERVER_V1)
    repo.write("docs/spec.mdx", SPEC_V1.replace("This line will be deleted.\n", ""))
    repo.rm("old.md")
    second = repo.commit("second")
    return repo, first, second


SOURCES = """revisions: [2025-06-18]
sources:
  up:
    title: Upstream
    repo: null
    commit: {commit}
    claims: [src/**, docs/**, "*.md", "*.png"]
  other:
    title: Other
    repo: https://example.invalid/other
    commit: 1234567
    claims: [lib/**]
"""

REGISTER = (
    register_head()
    + """  - id: T-01
    title: Every outcome
    what: Handled in (src/server.go:3-5), see src/server.go:500 and old.md:1 and lib/a.py:2.
    status: {state: done, note: 'Quoted elsewhere: `src/server.go:99` is code, not a citation.'}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources:
      - src/server.go:3 “func handle(”
      - src/server.go:1
      - docs/spec.mdx:5 “Implementations SHOULD NOT”
      - docs/spec.mdx:7 “1. Add _meta field to additional interface types”
      - 'docs/spec.mdx:9-10 “The _meta keys are reserved by this specification.”'
      - docs/spec.mdx:8 “This line will be deleted.”
      - old.md:1 “gone soon”
      - src/server.go:500
      - {source: up, path: src/server.go, lines: 4, quote: "return nil"}
      - lib/a.py:3
      - logo.png:1
"""
)


def make_registers(root: Path, commit: str) -> Path:
    return builder.registers(
        root / "registers", SOURCES.format(commit=commit), {"t.yaml": REGISTER}
    )


def run(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, env=env)
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def test_every_outcome(tmp_path: Path, two_commits: tuple[GitRepo, str, str]) -> None:
    repo, _, second = two_commits
    registers = make_registers(tmp_path, second)
    env = {"REGISTER_SOURCE_UP": str(repo.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    code, out = run(["verify", "--registers", str(registers), "--format", "json"], env)
    assert code == 1
    report = json.loads(out)
    outcomes = {(c["text"], c["in_prose"]): c["outcome"] for c in report["citations"]}
    assert outcomes == {
        ("src/server.go:3-5", True): "ok",
        ("src/server.go:500", True): "out-of-range",
        ("old.md:1", True): "missing-file",
        ("lib/a.py:2", True): "unverified",
        ("src/server.go:3 “func handle(”", False): "moved",
        ("src/server.go:1", False): "ok",
        ("docs/spec.mdx:5 “Implementations SHOULD NOT”", False): "ok",
        ("docs/spec.mdx:7 “1. Add _meta field to additional interface types”", False): "ok",
        ("docs/spec.mdx:9-10 “The _meta keys are reserved by this specification.”", False): "moved",
        ("docs/spec.mdx:8 “This line will be deleted.”", False): "broken",
        ("old.md:1 “gone soon”", False): "missing-file",
        ("src/server.go:500", False): "out-of-range",
        ("up:src/server.go:4 “return nil”", False): "moved",
        ("lib/a.py:3", False): "unverified",
        ("logo.png:1", False): "broken",
    }
    moved = {c["text"]: c["proposed"] for c in report["citations"] if c["outcome"] == "moved"}
    assert moved["src/server.go:3 “func handle(”"] == [6, 6]
    assert moved["docs/spec.mdx:9-10 “The _meta keys are reserved by this specification.”"] == [
        8,
        9,
    ]
    summary = report["summary"]
    assert (summary["ok"], summary["moved"], summary["broken"], summary["unverified"]) == (
        4,
        3,
        2,
        2,
    )


def test_unresolved_outcome(tmp_path: Path, two_commits: tuple[GitRepo, str, str]) -> None:
    repo, _, second = two_commits
    registers = make_registers(tmp_path, second)
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    (registers / "t.yaml").write_text(text.replace("- lib/a.py:3", "- nowhere/a.py:3"), "utf-8")
    env = {"REGISTER_SOURCE_UP": str(repo.root), "REGISTER_SOURCE_OTHER": str(repo.root)}
    code, out = run(["verify", "--registers", str(registers), "--format", "json"], env)
    report = json.loads(out)
    [unresolved] = [c for c in report["citations"] if c["outcome"] == "unresolved"]
    assert unresolved["text"] == "nowhere/a.py:3"
    assert any(d["code"] == "citation-unresolved" for d in report["diagnostics"])


def test_text_report_is_one_line_per_problem(
    tmp_path: Path, two_commits: tuple[GitRepo, str, str]
) -> None:
    repo, _, second = two_commits
    registers = make_registers(tmp_path, second)
    code, out = run(
        ["verify", "--registers", str(registers)], {"REGISTER_SOURCE_UP": str(repo.root)}
    )
    assert code == 1
    lines = out.strip().splitlines()
    assert re.fullmatch(
        r".*t\.yaml:18:9: error: T-01: quote “func handle\(” is no longer at line 3 of "
        r"src/server\.go @ up \w+; found at 6 \(register fix rewrites it\)",
        lines[[i for i, line in enumerate(lines) if "func handle" in line][0]],
    )
    assert any("sources.yaml:8:3: error: other: no checkout" in line for line in lines)
    assert lines[-1].startswith(
        "15 citations: 4 ok, 3 moved, 2 broken, 2 missing-file, 2 out-of-range"
    )
    github_code, github = run(
        ["verify", "--registers", str(registers), "--format", "github"],
        {"REGISTER_SOURCE_UP": str(repo.root)},
    )
    assert github_code == 1
    assert any(
        line.startswith("::error file=") and ",line=18,col=9::T-01: quote" in line
        for line in github.splitlines()
    )


def test_skip_and_offline_leave_citations_unverified_on_purpose(
    tmp_path: Path, two_commits: tuple[GitRepo, str, str]
) -> None:
    repo, _, second = two_commits
    registers = make_registers(tmp_path, second)
    env = {"REGISTER_SOURCE_UP": str(repo.root)}
    code, out = run(["verify", "--registers", str(registers), "--offline", "--format", "json"], env)
    report = json.loads(out)
    assert {c["outcome"] for c in report["citations"]} == {"unverified", "unresolved"} - {
        "unresolved"
    }
    assert not any(d["code"].startswith("citation-") for d in report["diagnostics"])
    code, out = run(
        ["verify", "--registers", str(registers), "--skip", "other", "--format", "json"], env
    )
    report = json.loads(out)
    assert not any(d["code"] == "source-unavailable" for d in report["diagnostics"])
    assert report["summary"]["unverified"] == 2


def test_fix_round_trip(tmp_path: Path, two_commits: tuple[GitRepo, str, str]) -> None:
    repo, _, second = two_commits
    registers = make_registers(tmp_path, second)
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    text = re.sub(r"what: .*", "what: Handled in (src/server.go:3-5).  # a comment stays", text)
    bad = ("deleted", "old.md", "500", "lib/a.py", "logo.png")
    original = "\n".join(line for line in text.splitlines() if not any(b in line for b in bad))
    original += "\n"
    (registers / "t.yaml").write_text(original, encoding="utf-8")
    env = {"REGISTER_SOURCE_UP": str(repo.root)}
    code, out = run(["verify", "--registers", str(registers)], env)
    assert code == 1 and "3 moved" in out
    code, out = run(["fix", "--registers", str(registers)], env)
    assert code == 0, out
    assert out.count(": fixed: T-01: ") == 3
    fixed = (registers / "t.yaml").read_text(encoding="utf-8")
    pairs = zip(original.splitlines(), fixed.splitlines(), strict=True)
    changed = [(a, b) for a, b in pairs if a != b]
    assert len(changed) == 3
    for before, after in changed:  # only the line numbers differ
        assert re.sub(r"\d+", "N", before) == re.sub(r"\d+", "N", after)
    assert "src/server.go:6 “func handle(”" in fixed
    assert "lines: 7" in fixed
    code, out = run(["verify", "--registers", str(registers)], env)
    assert code == 0, out
    code, out = run(["fix", "--registers", str(registers)], env)
    assert code == 0 and ": fixed:" not in out
    assert (registers / "t.yaml").read_text(encoding="utf-8") == fixed


def test_fix_shows_only_line_numbers_in_git_diff(
    tmp_path: Path, two_commits: tuple[GitRepo, str, str]
) -> None:
    repo, _, second = two_commits
    work = GitRepo(tmp_path / "work")
    registers = make_registers(work.root, second)
    work.commit("registers")
    env = {"REGISTER_SOURCE_UP": str(repo.root)}
    run(["fix", "--registers", str(registers)], env)
    diff = work.git("diff", "--word-diff=porcelain", "--word-diff-regex=[0-9]+|[^0-9]+", "-U0")
    words = [
        line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert words and all(re.fullmatch(r"[+-][0-9]+", word) for word in words)


def test_source_checkout_missing_commit(
    tmp_path: Path, two_commits: tuple[GitRepo, str, str]
) -> None:
    repo, _, _ = two_commits
    registers = make_registers(tmp_path, "abcdef1234567")
    code, out = run(
        ["verify", "--registers", str(registers)], {"REGISTER_SOURCE_UP": str(repo.root)}
    )
    assert code == 1
    assert "does not hold commit abcdef1234567" in out


def test_source_checkout_not_a_repository(
    tmp_path: Path, two_commits: tuple[GitRepo, str, str]
) -> None:
    _, _, second = two_commits
    registers = make_registers(tmp_path, second)
    code, out = run(
        ["verify", "--registers", str(registers)], {"REGISTER_SOURCE_UP": str(tmp_path)}
    )
    assert code == 1
    assert "is not a git repository" in out


def test_hostile_paths_never_reach_git(
    tmp_path: Path, two_commits: tuple[GitRepo, str, str]
) -> None:
    repo, _, second = two_commits
    registers = make_registers(tmp_path, second)
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    target = tmp_path / "x"  # what git would write, were the path handed to it as an option
    hostile = f"- 'up:--output={target}:3'\n      - up:../../etc/passwd:1"
    text = text.replace("- lib/a.py:3", hostile)
    (registers / "t.yaml").write_text(text, encoding="utf-8")
    code, out = run(
        ["verify", "--registers", str(registers)], {"REGISTER_SOURCE_UP": str(repo.root)}
    )
    assert code == 1
    assert f"path '--output={target}' starts with '-'" in out
    assert "'..'" in out
    assert not target.exists()


def test_hostile_sources_rejected_and_nothing_runs(tmp_path: Path) -> None:
    pwned = tmp_path / "pwned"
    registers = builder.registers(
        tmp_path / "registers",
        f"""revisions: [a]
sources:
  evil:
    title: Evil
    repo: 'ext::sh -c touch% {pwned}'
    commit: 1234567
  evil2:
    title: Evil 2
    repo: https://example.invalid/x
    commit: '--upload-pack=touch {pwned}'
""",
        {"t.yaml": REGISTER.replace("subject: up", "subject: evil")},
    )
    code, out = run(
        ["sync", "--registers", str(registers), "evil", "evil2"],
        {"REGISTER_CACHE": str(tmp_path / "c")},
    )
    assert code == 1
    assert "git transport" in out or "transport helper" in out
    assert "hex" in out
    assert not pwned.exists()
    code, out = run(["check", "--registers", str(registers)], {})
    assert "bad-repo" not in out  # the code is not printed, the message is
    assert "7 to 40 hex digits" in out
    assert not pwned.exists()


def test_sync_then_verify_from_cache(tmp_path: Path, two_commits: tuple[GitRepo, str, str]) -> None:
    repo, _, second = two_commits
    registers = make_registers(tmp_path, second)
    builder.edit_sources(registers, "repo: null", f"repo: {repo.url}")
    env = {"REGISTER_CACHE": str(tmp_path / "cache")}
    code, out = run(["sync", "--registers", str(registers), "up"], env)
    assert code == 0, out
    assert out.strip() == f"up: {second}"
    code, out = run(
        ["verify", "--registers", str(registers), "--skip", "other", "--format", "json"], env
    )
    report = json.loads(out)
    assert report["summary"]["ok"] == 4
    subprocess.run(
        ["git", "--git-dir", str(tmp_path / "cache" / "up.git"), "fsck", "--no-progress"],
        check=True,
    )


# --- judge: the quote search ---------------------------------------------------------------


def cited(lines: str, quote: str) -> Citation:
    start, _, end = lines.partition("-")
    where = ("t.yaml", 1, 1)  # file, line, col
    return Citation(
        lines, None, "a.md", int(start), int(end or start), quote, False, "t", "T-01", *where,
        ("x",), lines, source="up", repo_path="a.md",
    )  # fmt: skip


def test_a_quote_spanning_a_blank_line_reads_the_same_in_place_and_moved() -> None:
    quote = "The end of one paragraph. The start of the next."
    text = FileText(["The end of one paragraph.", "", "The start of the next."])
    assert text.find_nearest(quote, 1, "markdown") == (1, 3)
    assert judge(cited("1-3", quote), text, "a.md", "markdown").outcome == "ok"
    moved = FileText(["# Title", "", *text.lines])
    outcome = judge(cited("1-3", quote), moved, "a.md", "markdown")
    assert (outcome.outcome, outcome.proposed) == ("moved", (3, 5))
    assert judge(cited("3-5", quote), moved, "a.md", "markdown").outcome == "ok"


def test_a_quote_across_lines_of_markup_only() -> None:
    text = FileText(["one", "   ", "**", "two three", "four"])
    assert text.find_nearest("one two", 4, "markdown") == (1, 4)
    assert text.find_nearest("three four", 1, "markdown") == (4, 5)
    assert text.find_nearest("absent", 1, "markdown") is None


def test_a_proposed_range_ends_inside_the_file() -> None:
    text = FileText([f"line {n}" for n in range(1, 11)])
    outcome = judge(cited("2-6", "line 9"), text, "a.md", "markdown")
    assert (outcome.outcome, outcome.proposed) == ("moved", (9, 10))
    outcome = judge(cited("8-20", "line 2"), text, "a.md", "markdown")  # past the end, found above
    assert (outcome.outcome, outcome.proposed) == ("moved", (2, 10))
    outcome = judge(cited("12", "line 99"), text, "a.md", "markdown")  # past the end, found nowhere
    assert outcome.outcome == "out-of-range"

"""The author's loop, on real git repositories: what verify, stamp, bump and fix say when an
author takes a wrong turn (a pin moved by hand, a branch for a pin, a run of `fix`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import builder
from compat_register.cli import main
from gitrepo import GitRepo
from registerfiles import register_head

CODE = "".join(f"line {n}\n" for n in range(1, 21))

SOURCES = """revisions: [2025-06-18]
sources:
  up:
    title: Upstream
    repo: null
    commit: {commit}
    claims: [src/**]
"""

REGISTER = (
    register_head()
    + """  - id: T-01
    title: One
    what: Cited by range alone, and with a quote.
    status: {state: done}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources:
      - src/a.go:5-6
      - src/a.go:9 “line 9”
"""
)


@pytest.fixture
def up_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, GitRepo]:
    repo, first = builder.source(tmp_path / "up", {"src/a.go": CODE}, "first")
    sources = SOURCES.format(commit=first)
    registers = builder.registers(tmp_path / "registers", sources, {"t.yaml": REGISTER})
    monkeypatch.setenv("REGISTER_SOURCE_UP", str(repo.root))
    return registers, repo


def run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_verify_tells_a_hand_moved_pin_to_run_bump(up_project: tuple[Path, GitRepo]) -> None:
    registers, repo = up_project
    assert run("stamp", "--registers", str(registers)).exit_code == 0
    first = repo.git("rev-parse", "HEAD")
    lock = (registers / "citations.lock").read_text(encoding="utf-8")
    assert f"# pin up {first}\n" in lock
    repo.write("src/a.go", "// new\n// lines\n" + CODE)
    second = repo.commit("two lines on top")
    builder.edit_sources(registers, first, second)  # by hand
    sources = registers / "sources.yaml"

    done = run("verify", "--registers", str(registers))
    assert done.exit_code == 1
    lines = done.stdout.splitlines()
    # The cause, once, with how many citations it affects; not one line per citation.
    assert lines[:-1] == [
        f"{sources}:3:3: error: up: commit moved from {first} to {second} since "
        f"citations.lock was written, not by register bump, so no citation's lines followed "
        f"it: put back commit: {first} and run register bump up {second} (2 citations of up "
        "fail at the new pin; not listed one by one, as bump follows them)"
    ]
    assert "1 moved, " in lines[-1] and "1 changed, " in lines[-1]
    report = json.loads(run("verify", "--registers", str(registers), "--format", "json").stdout)
    messages = [c["message"] for c in report["citations"] if c["outcome"] == "changed"]
    assert messages and "before register stamp T-01" in messages[0]
    fixed = run("fix", "--registers", str(registers))  # the wrong remedy: fix leaves them
    assert fixed.exit_code == 1 and "fixed:" not in fixed.stdout
    assert fixed.stdout.count(": error: ") == 1

    builder.edit_sources(registers, second, first)  # the advice, followed
    bumped = run("bump", "--registers", str(registers), "up", second)
    assert bumped.exit_code == 0, bumped.output
    assert f"# pin up {second}\n" in (registers / "citations.lock").read_text(encoding="utf-8")
    after = run("verify", "--registers", str(registers), "--strict")
    assert after.exit_code == 0, after.output
    assert "src/a.go:7-8" in (registers / "t.yaml").read_text(encoding="utf-8")


def test_a_hand_moved_pin_that_broke_nothing_is_not_reported(
    up_project: tuple[Path, GitRepo],
) -> None:
    registers, repo = up_project
    assert run("stamp", "--registers", str(registers)).exit_code == 0
    first = repo.git("rev-parse", "HEAD")
    repo.write("src/b.go", "other\n")
    second = repo.commit("another file")
    builder.edit_sources(registers, first, second)
    done = run("verify", "--registers", str(registers))
    assert done.exit_code == 0, done.output


def test_a_branch_as_pin_is_one_error_in_verify(up_project: tuple[Path, GitRepo]) -> None:
    registers, repo = up_project
    builder.edit_sources(registers, repo.git("rev-parse", "HEAD"), "main")
    done = run("verify", "--registers", str(registers))
    assert done.exit_code == 1
    errors = [line for line in done.stdout.splitlines() if ": error: " in line]
    assert len(errors) == 1, done.stdout
    assert "'main' names a branch or tag" in errors[0]
    assert "git rev-parse main, in a clone of up" in errors[0]


def test_fix_counts_a_fixed_citation_once(up_project: tuple[Path, GitRepo]) -> None:
    registers, repo = up_project
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    (registers / "t.yaml").write_text(text.replace("src/a.go:9 “line 9”", "src/a.go:3 “line 9”"))
    done = run("fix", "--registers", str(registers))
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[-1].startswith("2 citations: 2 ok, 0 moved, ")
    assert done.stdout.splitlines()[-1].endswith(", 1 fixed, 0 errors, 0 warnings")
    as_json = run("fix", "--registers", str(registers), "--format", "json")
    summary = json.loads(as_json.stdout)["summary"]
    assert (summary["ok"], summary["moved"], summary["fixed"]) == (2, 0, 0)


BASE = Path(__file__).parent / "cases" / "base"


def referring_to(written: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """BASE's registers in tmp_path, the current folder, with META-02's "see META-01."
    reading "see {written}." instead."""
    for item in BASE.iterdir():
        (tmp_path / item.name).write_bytes(item.read_bytes())
    meta = tmp_path / "meta.yaml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("see META-01.", f"see {written}."))
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("MTEA-01", "MTEA-01: no register has the prefix MTEA; did you mean META-01?"),
        ("MEAT-01", "MEAT-01: no register has the prefix MEAT; did you mean META-01?"),
        ("MET-01", "MET-01: no register has the prefix MET; did you mean META-01?"),
        ("LW-3", "LW-3: no register has the prefix LW; did you mean LV-3?"),  # a pending one
    ],
)
def test_a_misspelt_prefix_is_a_warning_with_a_guess(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str, message: str
) -> None:
    referring_to(written, tmp_path, monkeypatch)
    done = run("check", "--registers", ".")
    assert done.exit_code == 0
    assert done.stdout == f"meta.yaml:21:34: warning: META-02: {message}\n0 errors, 1 warnings\n"


@pytest.mark.parametrize("written", ["M-3", "UTF-8", "SHA-256", "MX-01", "METAL-9X"])
def test_an_id_shaped_word_far_from_every_prefix_stays_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: str
) -> None:
    referring_to(written, tmp_path, monkeypatch)
    assert run("check", "--registers", ".").stdout == "0 errors, 0 warnings\n"


def test_a_quote_that_is_nowhere_shows_the_cited_lines(up_project: tuple[Path, GitRepo]) -> None:
    registers, repo = up_project
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    (registers / "t.yaml").write_text(text.replace("“line 9”", "“lien 9”"), encoding="utf-8")
    done = run("verify", "--registers", str(registers))
    assert done.exit_code == 1
    sha = repo.git("rev-parse", "HEAD")
    assert (
        f"error: T-01: quote “lien 9” is nowhere in src/a.go @ up {sha} (mistyped, or removed "
        "before this commit?): line 9 reads “line 9”"
    ) in done.stdout
    assert "gone" not in done.stdout

"""`register fix` and `register stamp` write all their files or none, and the commands
that write or print fail with one line, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import builder
from compat_register.cli import main
from compat_register.rewriting import edit
from compat_register.rewriting import fix as fixing
from gitrepo import GitRepo
from registerfiles import register_head

CODE = "".join(f"line {n}\n" for n in range(1, 11))

REGISTER = (
    register_head("{title}", "{prefix}")
    + """  - id: {prefix}-01
    title: Entry
    what: Something.
    status: {{state: done}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: None.
    sources: [{sources}]
"""
)


def register(prefix: str, sources: str) -> str:
    return REGISTER.format(title=prefix, prefix=prefix, sources=sources)


def run(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, env=env or {})
    assert "Traceback" not in result.output, result.output
    assert "internal error" not in result.output, result.output
    return result.exit_code, result.output


def snapshot(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


def pin(registers: Path, sha: str) -> None:
    builder.registers(registers, builder.up_sources(sha, path="../up"))


@pytest.fixture
def moved(tmp_path: Path) -> tuple[Path, GitRepo]:
    """Two register files, stamped, each with a quoted citation that then moved down a line."""
    repo, first = builder.source(tmp_path / "up", {"src/a.go": CODE})
    files = {
        "a.yaml": register("A", "'src/a.go:3 “line 3”'"),
        "b.yaml": register("B", "'src/a.go:7 “line 7”', src/a.go:9"),
    }
    registers = builder.registers(
        tmp_path / "registers", builder.up_sources(first, path="../up"), files
    )
    assert run(["stamp", "--registers", str(registers)])[0] == 0
    repo.write("src/a.go", "new\n" + CODE)
    pin(registers, repo.commit())
    forget_pins(registers)
    return registers, repo


def forget_pins(registers: Path) -> None:
    """Drop the lock's `# pin` lines, as an older lock has none: the pin the fixture moved
    is then not known to have moved by hand (which fix leaves to bump), and fix re-points."""
    lock = registers / "citations.lock"
    lines = lock.read_text("utf-8").splitlines(True)
    lock.write_text("".join(line for line in lines if not line.startswith("# pin ")), "utf-8")


def test_fix_rewrites_every_file_and_carries_the_stamps(moved: tuple[Path, GitRepo]) -> None:
    registers, _ = moved
    code, out = run(["fix", "--registers", str(registers)])
    assert code == 1, out  # the unquoted src/a.go:9 now reads "line 8": for a person to read
    errors = [line for line in out.splitlines() if ": error: " in line]
    assert errors[0].startswith(f"{registers / 'b.yaml'}:17:38: error: B-01: src/a.go:9 changed ")
    assert len(errors) == 1
    assert "src/a.go:3 -> src/a.go:4" in out and "src/a.go:7 -> src/a.go:8" in out
    assert "'src/a.go:4 “line 3”'" in (registers / "a.yaml").read_text("utf-8")
    assert "'src/a.go:8 “line 7”', src/a.go:9" in (registers / "b.yaml").read_text("utf-8")
    lock = (registers / "citations.lock").read_text("utf-8")
    assert "A-01 up src/a.go:4 v2:sha256:" in lock and "B-01 up src/a.go:8 v2:sha256:" in lock
    assert "src/a.go:3 " not in lock and "src/a.go:7 " not in lock
    before = snapshot(registers)
    code, out = run(["fix", "--registers", str(registers)])
    assert "fixed:" not in out and snapshot(registers) == before
    assert code == 1 and "error: B-01: src/a.go:9 changed since it was stamped" in out


def test_a_failed_write_leaves_every_file_as_it_was(
    moved: tuple[Path, GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    registers, _ = moved
    before = snapshot(registers)
    real_replace = os.replace
    calls: list[str] = []

    def failing_replace(src: str, dst: str) -> None:
        calls.append(Path(dst).name)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    code, out = run(["fix", "--registers", str(registers)])
    monkeypatch.undo()
    assert code == 1 and "No space left on device" in out
    assert calls[:2] == ["a.yaml", "b.yaml"]  # the second file failed: a.yaml is put back
    assert snapshot(registers) == before  # the lock too, and no temporary file is left


def test_fix_refuses_a_lock_it_cannot_carry(moved: tuple[Path, GitRepo]) -> None:
    registers, _ = moved
    lock = registers / "citations.lock"
    lock.write_text(lock.read_text("utf-8") + "not a stamp\n", "utf-8")
    before = snapshot(registers)
    code, out = run(["fix", "--registers", str(registers)])
    assert code == 1
    assert "has lines that are not stamps: run register stamp first" in out
    assert snapshot(registers) == before


def test_fix_reports_a_moved_citation_it_did_not_fix(
    moved: tuple[Path, GitRepo], monkeypatch: pytest.MonkeyPatch
) -> None:
    registers, _ = moved
    monkeypatch.setattr(fixing, "_moves", lambda outcomes: [])
    code, out = run(["fix", "--registers", str(registers)])
    assert code == 1
    assert out.count("error: A-01: quote “line 3” is no longer at line 3") == 1


def test_fix_never_points_past_the_end_of_the_file(tmp_path: Path) -> None:
    repo, first = builder.source(tmp_path / "up", {"src/a.go": CODE})
    files = {"a.yaml": register("A", "'src/a.go:2-5 “line 2”'")}
    registers = builder.registers(
        tmp_path / "registers", builder.up_sources(first, path="../up"), files
    )
    repo.write("src/a.go", "".join(f"line {n}\n" for n in range(3, 11)) + "line 2\n")
    pin(registers, repo.commit())  # line 2 is now the last line, the 9th
    code, out = run(["fix", "--registers", str(registers)])
    assert code == 0, out
    assert "src/a.go:2-5 -> src/a.go:9" in out
    assert run(["verify", "--registers", str(registers)])[0] == 0
    code, out = run(["fix", "--registers", str(registers)])
    assert code == 0 and "fixed:" not in out


def test_stamp_refuses_while_a_register_file_does_not_load(moved: tuple[Path, GitRepo]) -> None:
    registers, _ = moved
    (registers / "b.yaml").write_text("title: [unclosed\n", "utf-8")
    before = snapshot(registers)
    code, out = run(["stamp", "--registers", str(registers)])
    assert code == 1
    assert "b.yaml:" in out and "error:" in out  # why, at the file that does not load
    assert "stamp needs a register set without errors" in out
    assert snapshot(registers) == before  # B-01's stamps are still there


def test_stamp_refuses_a_lock_it_cannot_read(moved: tuple[Path, GitRepo]) -> None:
    registers, _ = moved
    (registers / "citations.lock").write_bytes(b"\xff\xfe not utf-8\n")
    before = snapshot(registers)
    code, out = run(["stamp", "--registers", str(registers)])
    assert code == 1
    assert out.startswith("Error: ") and "citations.lock: cannot read" in out
    assert snapshot(registers) == before


def test_write_temp_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "t.yaml"
    target.write_text("old\n", "utf-8")

    def no_space(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    with pytest.raises(edit.EditError, match="No space left on device"):
        edit.write_texts({str(target): ("old\n", "new\n")})
    assert [p.name for p in tmp_path.iterdir()] == ["t.yaml"]
    assert target.read_text("utf-8") == "old\n"


def test_sync_reads_sources_yaml_alone(tmp_path: Path) -> None:
    sources = (
        "revisions: [r1]\nsources:\n  open-code: {title: O, repo: null, commit: 1234567, "
        "claims: [a/**]}\n"
    )
    broken = {"broken.yaml": "title: [unclosed\n"}  # not sync's business
    registers = builder.registers(tmp_path / "registers", sources, broken)
    code, out = run(["sync", "--registers", str(registers), "open-code"])
    assert code == 1
    assert "broken.yaml" not in out
    assert "set REGISTER_SOURCE_OPEN_CODE to a local clone" in out


def test_sync_reports_the_problems_of_sources_yaml(tmp_path: Path) -> None:
    pwned = tmp_path / "pwned"
    registers = builder.registers(
        tmp_path / "registers",
        f"revisions: [r1]\nsources:\n  up: {{title: U, repo: 'ext::sh -c touch% {pwned}', "
        "commit: 1234567, claims: [a/**]}\n",
    )
    code, out = run(["sync", "--registers", str(registers)])
    assert code == 1
    assert "sources.yaml:3:" in out and "names a git transport" in out
    assert not (tmp_path / ".register").exists()  # nothing was fetched, not even tried
    assert not pwned.exists()


def test_export_to_a_missing_directory_is_one_line(
    tmp_path: Path, moved: tuple[Path, GitRepo]
) -> None:
    registers, _ = moved
    target = tmp_path / "nowhere" / "x.json"
    code, out = run(["export", "--registers", str(registers), "-o", str(target)])
    assert code == 1
    assert out.splitlines()[-1] == f"Error: cannot write {target}: No such file or directory"


@pytest.mark.parametrize(("command", "code"), [("verify", 1), ("export", 0)])
def test_the_console_script_prints_all_and_exits_with_the_commands_code(
    moved: tuple[Path, GitRepo], command: str, code: int
) -> None:
    # `run` flushes the output itself, before the interpreter's own flushing
    registers, _ = moved
    args = [command, "--registers", str(registers)]
    script = "from compat_register.cli import run; run()"
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, check=False, env=buffered
    )
    expected = CliRunner().invoke(main, args)
    assert (done.returncode, expected.exit_code) == (code, code)
    assert done.stdout.decode() == expected.stdout
    assert done.stdout.endswith(b"\n")
    assert done.stderr.decode() == expected.stderr


def test_a_closed_pipe_ends_quietly(moved: tuple[Path, GitRepo]) -> None:
    registers, _ = moved
    read, write = os.pipe()
    os.close(read)  # the reader (say, `head`) is gone before anything is written
    script = "from compat_register.cli import run; run()"
    with os.fdopen(write, "wb") as stdout:
        done = subprocess.run(
            [sys.executable, "-c", script, "export", "--registers", str(registers)],
            stdout=stdout,
            stderr=subprocess.PIPE,
            check=False,
        )
    assert done.stderr == b""
    assert done.returncode == 1


def test_export_still_writes_json(moved: tuple[Path, GitRepo]) -> None:
    registers, _ = moved
    code, out = run(["export", "--registers", str(registers)])
    assert code == 0
    assert [r["slug"] for r in json.loads(out)["registers"]] == ["a", "b"]

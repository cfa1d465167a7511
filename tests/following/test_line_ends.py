"""CRLF everywhere: register files, sources.yaml and citations.lock written with CRLF line
ends are read, and rewritten by fix, bump and stamp with the line ends they have."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import builder
from compat_register.cli import main
from gitrepo import GitRepo
from registerfiles import done_entry, register_head

ENTRY = done_entry("['internal/a.go:2 “func A()”', internal/a.go:3]")


def crlf_text(text: str) -> str:
    return text.replace("\n", "\r\n")


def crlf(path: Path, text: str) -> None:
    path.write_bytes(crlf_text(text).encode("utf-8"))


@pytest.fixture
def crlf_project(tmp_path: Path) -> tuple[Path, GitRepo, str, str, dict[str, str]]:
    """Registers whose files are all CRLF, citing a repository where the cited lines move
    down by two in its second commit; the lock stamped (and then made CRLF)."""
    up, first = builder.source(
        tmp_path / "up", {"internal/a.go": "package a\nfunc A() {}\nfunc B() {}\n"}, "one"
    )
    up.write("internal/a.go", "package a\n// x\n// y\nfunc A() {}\nfunc B() {}\n")
    second = up.commit("two")
    sources = (
        "revisions: [r1]\nsources:\n"
        f"  up: {{title: Up, repo: null, commit: {first}, claims: ['internal/**']}}\n"
    )
    files = {"t.yaml": crlf_text(register_head() + ENTRY)}
    registers = builder.registers(tmp_path / "registers", crlf_text(sources), files)
    env = {"REGISTER_SOURCE_UP": str(up.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    stamped = run(["stamp", "--registers", str(registers)], env)
    assert stamped.exit_code == 0, stamped.output
    lock = registers / "citations.lock"
    crlf(lock, lock.read_text(encoding="utf-8"))
    return registers, up, first, second, env


def run(args: list[str], env: dict[str, str]) -> Result:
    result = CliRunner().invoke(main, args, env=env)
    assert "Traceback" not in result.output
    return result


def all_crlf(path: Path) -> bool:
    data = path.read_bytes()
    return data.count(b"\n") == data.count(b"\r\n") > 0


def test_check_and_verify_read_crlf_files(crlf_project) -> None:
    registers, _, _, _, env = crlf_project
    result = run(["verify", "--registers", str(registers)], env)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("2 citations: 2 ok, ")


def test_bump_keeps_crlf_in_every_file(crlf_project) -> None:
    registers, _, first, second, env = crlf_project
    result = run(["bump", "--registers", str(registers), "up", second], env)
    assert result.exit_code == 0, result.output
    for name in ("sources.yaml", "t.yaml", "citations.lock"):
        assert all_crlf(registers / name), name
    text = (registers / "t.yaml").read_bytes().decode("utf-8")
    assert "internal/a.go:4 “func A()”" in text and "internal/a.go:5]" in text
    assert second in (registers / "sources.yaml").read_text(encoding="utf-8")
    assert second in (registers / "citations.lock").read_text(encoding="utf-8")
    verified = run(["verify", "--registers", str(registers)], env)
    assert verified.exit_code == 0, verified.output
    assert verified.stdout.startswith("2 citations: 2 ok, ")


def test_fix_keeps_crlf_in_the_register_and_the_lock(crlf_project) -> None:
    registers, _, _, second, env = crlf_project
    assert run(["bump", "--registers", str(registers), "up", second], env).exit_code == 0
    # A citation pointed back at its old line by hand, its stamp with it: fix re-points
    # both, rewriting the register file and the lock.
    for name, old, new in (
        ("t.yaml", "a.go:4 “func A()”", "a.go:2 “func A()”"),
        ("citations.lock", "internal/a.go:4 ", "internal/a.go:2 "),
    ):
        path = registers / name
        path.write_bytes(path.read_bytes().replace(old.encode(), new.encode()))
    result = run(["fix", "--registers", str(registers)], env)
    assert result.exit_code == 0, result.output
    assert ": fixed: T-01: internal/a.go:2 -> internal/a.go:4" in result.stdout
    for name in ("t.yaml", "citations.lock"):
        assert all_crlf(registers / name), name
    assert b"\r\nT-01 up internal/a.go:4 " in (registers / "citations.lock").read_bytes()
    assert run(["verify", "--registers", str(registers)], env).stdout.startswith(
        "2 citations: 2 ok, "
    )


def test_stamp_rewrites_a_crlf_lock_with_crlf(crlf_project) -> None:
    registers, _, _, _, env = crlf_project
    lock = registers / "citations.lock"
    kept = lock.read_bytes().split(b"\r\n")
    crlf(lock, b"\n".join(kept[:-2] + [b""]).decode("utf-8"))  # one stamp dropped
    result = run(["stamp", "--registers", str(registers)], env)
    assert result.exit_code == 0, result.output
    assert all_crlf(lock)
    assert lock.read_bytes().count(b"\r\nT-01 up ") == 2


def test_a_new_lock_and_a_new_register_are_written_with_lf(tmp_path: Path) -> None:
    """A file that does not exist yet has no line ends to keep: `register stamp` makes the
    lock with `\n`, and `register import` its new register files (issue 34: a new lock was
    written CRLF, so converting it to CRLF made its lines end in `\r\r\n`)."""
    up = GitRepo(tmp_path / "up")
    up.write("internal/a.go", "package a\nfunc A() {}\nfunc B() {}\n")
    sources = (
        "revisions: [r1]\nsources:\n"
        f"  up: {{title: Up, repo: null, commit: {up.commit()}, claims: ['internal/**']}}\n"
    )
    registers = builder.registers(
        tmp_path / "registers", sources, {"t.yaml": register_head() + ENTRY}
    )
    env = {"REGISTER_SOURCE_UP": str(up.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    assert run(["stamp", "--registers", str(registers)], env).exit_code == 0
    assert b"\r" not in (registers / "citations.lock").read_bytes()
    page = tmp_path / "page.md"
    tiny = (Path(__file__).parents[1] / "pages" / "tiny.md").read_text()
    page.write_text(tiny.replace("mcpx", "up"))
    imported = run(["import", "--registers", str(registers), str(page)], env)
    written = [p for p in registers.glob("*.yaml") if p.name not in ("sources.yaml", "t.yaml")]
    assert written, imported.output
    assert all(b"\r" not in p.read_bytes() for p in written)


@pytest.mark.parametrize("end", [b"\r\r\n", b"\r", b"\r\n"], ids=["CR-CRLF", "CR", "CRLF"])
def test_bump_rewrites_a_lock_whatever_its_line_ends(crlf_project, end: bytes) -> None:
    """The lock's read and the check before its rewrite compare the same text, so no line
    end makes bump refuse it as `changed since it was read` (issue 34: `\r\r\n`, what a
    CRLF conversion of a lock written CRLF gave, did)."""
    registers, _, _, second, env = crlf_project
    lock = registers / "citations.lock"
    lock.write_bytes(lock.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", end))
    result = run(["bump", "--registers", str(registers), "up", second], env)
    assert result.exit_code == 0, result.output
    assert b"T-01 up internal/a.go:4 " in lock.read_bytes()
    verified = run(["verify", "--registers", str(registers)], env)
    assert verified.stdout.startswith("2 citations: 2 ok, ")

"""A bad path or a damaged cache costs the citations it concerns, never the source's reader,
and says what to do: `./` and other non-canonical paths are refused by `register check`,
located; a corrupt pack is "the cache of ALIAS is damaged", and `register sync` repairs it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import builder
from compat_register.cli import main
from compat_register.sources.checkout import Checkout
from compat_register.sources.git import GitSourceError
from compat_register.sources.sourcecache import sound
from registerfiles import done_entry, register_head

CODE = "".join(f"line {n}: some text that git compresses {n * 7919 % 1000}\n" for n in range(300))


def project(tmp_path: Path, sources: str) -> tuple[Path, str]:
    _, sha = builder.source(tmp_path / "up", {"src/a.go": CODE})
    text = register_head(subject="up") + done_entry(f"[{sources}]")
    declared = (
        "revisions: [2025-06-18]\nsources:\n"
        f"  up: {{title: Up, repo: ../up, commit: {sha}, claims: [src/**]}}\n"
    )
    return builder.registers(tmp_path / "registers", declared, {"t.yaml": text}), sha


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output and "internal error" not in result.output
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("./src/a.go", "src/a.go"),
        ("src//a.go", "src/a.go"),
        ("src/./a.go", "src/a.go"),
        ("src/", "src"),
    ],
)
def test_a_path_not_written_canonically_is_refused_located(
    tmp_path: Path, written: str, canonical: str
) -> None:
    registers, _ = project(tmp_path, f"'up:{written}:3', src/a.go:4")
    code, out = run("check", "--registers", str(registers))
    assert code == 1
    assert (
        f"t.yaml:17:15: error: T-01: path '{written}' is not canonical: write '{canonical}'" in out
    )


def test_a_name_git_refuses_ends_no_other_read(tmp_path: Path) -> None:
    registers, sha = project(tmp_path, "src/a.go:4")
    assert run("sync", "--registers", str(registers))[0] == 0
    with Checkout(tmp_path / ".register" / "cache" / "up.git") as checkout:
        for _ in range(2):
            with pytest.raises(GitSourceError):
                checkout._object(f"{sha}:./src/a.go")  # a bare repository: git's reader ends
            assert checkout.read_text(sha, "src/a.go") == CODE.splitlines()


def damage(cache: Path) -> None:
    [pack] = (cache / "objects" / "pack").glob("*.pack")
    pack.chmod(0o644)
    data = bytearray(pack.read_bytes())
    for at in range(len(data) // 2, len(data) // 2 + 40):
        data[at] ^= 0xFF
    pack.write_bytes(bytes(data))


def test_a_damaged_cache_is_named_and_sync_repairs_it(tmp_path: Path) -> None:
    registers, _ = project(tmp_path, "src/a.go:3, src/a.go:250")
    assert run("sync", "--registers", str(registers))[0] == 0
    cache = tmp_path / ".register" / "cache" / "up.git"
    assert sound(cache)
    damage(cache)
    assert not sound(cache)
    code, out = run("verify", "--registers", str(registers))
    assert code == 1
    assert out.count("the cache of up is damaged: run register sync up") == 2, out
    assert " 0 out-of-range," in out
    assert run("sync", "--registers", str(registers))[0] == 0
    assert sound(cache)
    code, out = run("verify", "--registers", str(registers))
    assert code == 0 and out.startswith("2 citations: 2 ok,"), out

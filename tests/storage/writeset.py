"""A register project with many files that one `bump` or `fix` rewrites together, for
the tests that kill or race writers (real processes, real git repositories)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import builder
from commands import command
from registerfiles import done_entry, register_head

FILES = 16
CODE = "".join(f"line {n}\n" for n in range(1, 41))
HANG = 300
"""Seconds after which a `register` run counts as hung (`run` fails with TimeoutExpired):
far above any run, loaded machine included; nothing here measures speed (bench/ does)."""


def run(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    registers = str(root / "registers")
    return subprocess.run(
        command(args[0], "--registers", registers, *args[1:]),
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
        timeout=HANG,
    )


def make_project(root: Path, pinned: int = 0) -> tuple[str, str]:
    """`root/up` (a source whose second commit puts a line above every cited one) and
    `root/registers` (FILES register files citing the first commit's lines); returns the
    two commits. Pinned at the first commit (`pinned=0`) they are stamped; pinned at the
    second (`pinned=1`) every citation has moved and none is stamped."""
    repo, first = builder.source(root / "up", {"src/a.go": CODE})
    repo.write("src/a.go", "new\n" + CODE)
    second = repo.commit()
    files = {}
    for n in range(FILES):
        prefix = "".join(chr(ord("A") + int(d)) for d in f"{n:02d}")
        files[f"r{n:02d}.yaml"] = register_head(prefix, prefix) + done_entry(
            f"['src/a.go:{n + 2} “line {n + 2}”']", id=f"{prefix}-01"
        )
    builder.registers(
        root / "registers", builder.up_sources([first, second][pinned], path="../up"), files
    )
    if not pinned:
        done = run(root, "stamp")
        assert done.returncode == 0, done.stdout + done.stderr
    return first, second


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file of the registers folder, leftovers (temporary files, backups) included."""
    return {p.name: p.read_bytes() for p in sorted((root / "registers").iterdir())}


def copy(root: Path, to: Path) -> Path:
    """A copy of the project (source and registers), without its state under .register/."""
    shutil.copytree(root / "up", to / "up")
    shutil.copytree(root / "registers", to / "registers")
    return to

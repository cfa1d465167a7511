"""Only regular files are read: a link to `/dev/zero` (read forever) and a FIFO (whose
open waits forever) are refused, located, for each file a command reads: sources.yaml,
citations.lock, a register file, an import page. Nothing here is timed: a read of either
never ends, so a bound far above any run proves it was not read (HANG, below)."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from commands import register
from compat_register.storage import regular

CASES = Path(__file__).parent.parent / "cases"
TARGETS = {
    # the file replaced, the command that reads it
    "sources.yaml": ["check"],
    "citations.lock": ["verify", "--offline"],
    "meta.yaml": ["check"],
    "page.md": ["import", "--dry-run", "registers/page.md"],
}
HANG = 120
"""Seconds after which a command or a read counts as hung: a generous bound (a run takes
about a second, a loaded machine makes that a few), not a measure of speed (bench/)."""
KINDS = {
    "/dev/zero": "a character device (a symbolic link to '/dev/zero'), not a regular file",
    "FIFO": "a FIFO, not a regular file",
}


def project(root: Path) -> Path:
    registers = root / "registers"
    shutil.copytree(CASES / "base", registers)
    (registers / "citations.lock").write_text("# no stamps yet\n", "utf-8")
    (registers / "page.md").write_text("# A page\n", "utf-8")
    return registers


def ran(root: Path, args: list[str]) -> str:
    done = register(root, *args[:1], "--registers", "registers", *args[1:], timeout=HANG)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return done.stdout + done.stderr


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("name", list(TARGETS))
def test_a_device_or_a_fifo_is_refused_unread(tmp_path: Path, name: str, kind: str) -> None:
    registers = project(tmp_path)
    (registers / name).unlink()
    if kind == "FIFO":
        os.mkfifo(registers / name)
    else:
        (registers / name).symlink_to("/dev/zero")
    out = ran(tmp_path, TARGETS[name])
    assert f"registers/{name}:1:1: error: " in out or f"registers/{name}: " in out, out
    assert KINDS[kind] in out, out


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    found: list[BaseException] = []
    reader = threading.Thread(target=lambda: _read(fifo, found), daemon=True)
    reader.start()
    reader.join(HANG)
    assert not reader.is_alive(), "the read waited on the FIFO"
    assert isinstance(found[0], regular.Refused)


def _read(path: Path, found: list[BaseException]) -> None:
    try:
        regular.read_bytes(path, 1024)
    except OSError as err:
        found.append(err)


def test_a_file_over_the_limit_is_refused_and_read_no_further(tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.write_bytes(b"x" * 2049)
    with pytest.raises(regular.Refused) as refused:
        regular.read_bytes(big, 2048)
    assert refused.value.strerror == regular.too_large(2048)
    assert regular.read_bytes(big, 4096) == b"x" * 2049


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_site_build_never_reads_a_device_or_a_fifo_among_the_registers(
    tmp_path: Path, kind: str
) -> None:
    """The site build fingerprints every file under the registers folder for the next
    rebuild (`rebuild.file_states`): a FIFO there must not stop it, nor `/dev/zero` fill
    the memory; the file is reported as every command reports it."""
    registers = project(tmp_path)
    planted = registers / "planted.yaml"
    if kind == "FIFO":
        os.mkfifo(planted)
    else:
        planted.symlink_to("/dev/zero")
    out = ran(tmp_path, ["render", "--out", "out"])
    assert f"registers/planted.yaml:1:1: error: planted: {KINDS[kind]}" in out, out
    assert (tmp_path / "out").is_dir(), out

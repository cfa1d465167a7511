"""A multi-file write through the journal, killed (SIGKILL) at every step in turn: the
next `recover` leaves the files wholly old or wholly new, and nothing beside them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from compat_register.storage import atomic, journal

FILES = 4
CHILD = """
import os, signal, sys
from pathlib import Path
from compat_register.storage import atomic, journal

folder, after = Path(sys.argv[1]), int(sys.argv[2])
calls = 0

def counted(real):
    def call(*args, **kwargs):
        global calls
        calls += 1
        if calls > after:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*args, **kwargs)
    return call

for name in ("replace", "rename", "link", "fsync", "open", "unlink"):
    setattr(os, name, counted(getattr(os, name)))
files = [(folder / f"f{n}.yaml", f"new {n}\\n".encode()) for n in range(int(sys.argv[4]))]
files.append((folder / "made.yaml", b"made\\n"))
atomic.write_all(files, journal.Journal(Path(sys.argv[3]), {"registers": folder}))
"""


def old_set(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(FILES):
        (folder / f"f{n}.yaml").write_text(f"old {n}\n", "utf-8")


def contents(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text("utf-8") for p in sorted(folder.iterdir())}


OLD = {f"f{n}.yaml": f"old {n}\n" for n in range(FILES)}
NEW = {**{f"f{n}.yaml": f"new {n}\n" for n in range(FILES)}, "made.yaml": "made\n"}


def test_a_kill_at_every_step_leaves_the_set_old_or_new(tmp_path: Path) -> None:
    seen: set[str] = set()
    for after in range(200):
        folder, record = tmp_path / f"run{after}" / "registers", tmp_path / f"run{after}" / "j"
        old_set(folder)
        child = [sys.executable, "-c", CHILD, str(folder), str(after), str(record), str(FILES)]
        done = subprocess.run(child, capture_output=True, check=False)
        state = journal.Journal(record, {"registers": folder}).recover()
        found = contents(folder)
        assert found in (OLD, NEW), (after, state, found)
        assert not record.exists()
        seen.add("new" if found == NEW else "old")
        if done.returncode == 0:  # the write ran to its end: every step was a kill point
            break
    else:
        pytest.fail("the write never finished")
    assert seen == {"old", "new"}


def test_an_error_while_renaming_puts_every_file_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old_set(tmp_path / "registers")
    folder, record = tmp_path / "registers", tmp_path / "journal"
    import os

    real, calls = os.replace, []

    def failing(src: str, dst: str) -> None:
        calls.append(dst)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError, match="No space"):
        atomic.write_all(
            [(folder / f"f{n}.yaml", b"new\n") for n in range(FILES)],
            journal.Journal(record, {"registers": folder}),
        )
    monkeypatch.undo()
    assert contents(folder) == OLD and not record.exists()


def test_a_new_file_cut_short_by_a_kill_is_removed(tmp_path: Path) -> None:
    """Killed between creating a new file and writing its bytes (`prepared`): the file is
    partial, of the tool's own name, and goes; the set stays old (CI saw it left behind)."""
    folder, record = tmp_path / "registers", tmp_path / "journal"
    old_set(folder)
    planned = [atomic._plan(folder / f"f{n}.yaml", f"new {n}\n".encode()) for n in range(FILES)]
    keeper = journal.Journal(record, {"registers": folder})
    keeper.write("prepared", planned)
    planned[0].new.write_bytes(b"")
    planned[1].new.write_bytes(b"new")
    recovered = keeper.recover()
    assert recovered is not None and recovered.left == []
    assert contents(folder) == OLD and not record.exists()

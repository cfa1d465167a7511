"""One writer at a time, and a writer killed at any instant: real `register` processes
on a real project (a git source, sixteen register files rewritten together)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from writeset import HANG, copy, make_project, run, snapshot

from commands import command

HOLDER = """
import sys, time
from pathlib import Path
from compat_register.storage import writers as project
from compat_register.storage.layout import Paths
with project.writing(Paths.of(Path(sys.argv[1])), "register bump up", 30.0):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def hold(root: Path, seconds: float) -> subprocess.Popen[str]:
    """Another process holding the project's writer lock for `seconds`."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root / "registers"), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


def test_a_writer_waits_a_bounded_time_and_names_the_holder(tmp_path: Path) -> None:
    make_project(tmp_path)
    before = snapshot(tmp_path)
    holder = hold(tmp_path, 2 * HANG)  # a bump that waited for it would time out (run)
    try:
        done = run(tmp_path, "bump", "up", env={"REGISTER_LOCK_WAIT": "0.5"})
    finally:
        holder.kill()
        holder.communicate()
    assert done.returncode == 1 and done.stdout == ""
    [told, line] = done.stderr.splitlines()
    assert told.startswith(f"register: waiting for pid {holder.pid} (register bump up) since ")
    assert line.startswith("Error: ") and f"pid {holder.pid} (register bump up) since " in line
    assert "waited 0.5 s" in line
    assert snapshot(tmp_path) == before


def test_a_writer_goes_on_once_the_holder_ends(tmp_path: Path) -> None:
    _, second = make_project(tmp_path)
    holder = hold(tmp_path, 1.0)
    done = run(tmp_path, "bump", "up", second)
    holder.communicate()
    assert done.returncode == 0, done.stderr
    assert second[:7] in (tmp_path / "registers" / "sources.yaml").read_text("utf-8")


def test_bump_and_fix_at_once_do_what_one_after_the_other_does(tmp_path: Path) -> None:
    _, second = make_project(tmp_path / "project")
    endings = []
    for order in (("bump", "fix"), ("fix", "bump")):
        alone = copy(tmp_path / "project", tmp_path / "-".join(order))
        for name in order:
            run(alone, *(["bump", "up", second] if name == "bump" else ["fix"]))
        endings.append(snapshot(alone))
    project = tmp_path / "project"
    registers = str(project / "registers")
    both = [
        subprocess.Popen(command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for args in (
            ["bump", "--registers", registers, "up", second],
            ["fix", "--registers", registers],
        )
    ]
    for process in both:
        process.communicate()
    assert snapshot(project) in endings
    verified = run(project, "verify")
    assert verified.returncode == 0 and "16 citations: 16 ok, 0 moved," in verified.stdout


def killed_at_random(root: Path, args: list[str], rng: random.Random, span: float) -> None:
    """Run `register ARGS` on `root` and SIGKILL it at a random instant within `span` s."""
    process = subprocess.Popen(
        command(args[0], "--registers", str(root / "registers"), *args[1:]),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(rng.uniform(0, span))
    os.kill(process.pid, signal.SIGKILL)
    process.wait()


@pytest.mark.slow  # tests/storage/test_journal.py kills a writer at each step in the default tier
@pytest.mark.parametrize("name", ["bump", "fix"])
def test_a_kill_at_a_random_instant_leaves_the_set_old_or_new(tmp_path: Path, name: str) -> None:
    _, second = make_project(tmp_path / "project", pinned=int(name == "fix"))
    args = ["bump", "up", second] if name == "bump" else ["fix"]
    old = snapshot(tmp_path / "project")
    lone = copy(tmp_path / "project", tmp_path / "lone")
    started = time.monotonic()
    assert run(lone, *args).returncode == 0
    span = time.monotonic() - started
    new = snapshot(lone)
    assert new != old
    rng = random.Random(26)
    for attempt in range(6):
        root = copy(tmp_path / "project", tmp_path / f"run{attempt}")
        killed_at_random(root, args, rng, span * 1.2)
        run(root, "sync")  # any command that writes finishes (or undoes) what it left
        assert snapshot(root) in (old, new), attempt
        assert run(root, *args).returncode == 0
        assert snapshot(root) == new, attempt


WRITING = """
import sys, time
from pathlib import Path
from compat_register.storage import writers as project
from compat_register.storage.layout import Paths
paths = Paths.of(Path(sys.argv[1]))
with project.writing(paths, "register bump up", 30.0):
    paths.journal.write_text("{}", "utf-8")  # a write under way
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
    paths.journal.unlink()
"""


def test_a_reader_waits_for_a_writer_at_work_and_finishes_nothing(tmp_path: Path) -> None:
    make_project(tmp_path)
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITING, str(tmp_path / "registers"), "1.0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None and writer.stdout.readline() == "held\n"
    checked = run(tmp_path, "check")
    writer.communicate()
    assert checked.returncode == 0 and checked.stdout == "0 errors, 0 warnings\n", checked.stdout
    (tmp_path / ".register" / "journal.json").write_text("{}", "utf-8")  # as a kill leaves it
    checked = run(tmp_path, "check")
    assert "journal.json:1:1: warning: register: a write was interrupted" in checked.stdout
    assert (tmp_path / ".register" / "journal.json").read_text("utf-8") == "{}"

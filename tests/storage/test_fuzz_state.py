"""Whatever `.register/` holds (random bytes, cut JSON, wrong types, links out of the
project, FIFOs), every command ends with a located line or its report, never a traceback
or a hang, and nothing outside the project changes (issue 35).

Hypothesis fills the folder; each example runs every command in-process on a real git
project. A dozen examples in the default tier, so the suite stays quick; 150 in the long
one (`pytest --long`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from planted import make_project, snapshot

from compat_register.cli import main
from compat_register.history.repository import CACHE_MADE_BY as MADE_BY

PLACES = [
    "journal.json",
    "lock",
    "cache/history.json",
    "cache/statements.json",
    "cache/excerpts/0123456789abcdef/meta.json",
    "cache",
    "cache/excerpts",
]
"""Where a stranger's file may sit (a file in place of a folder too)."""
SECONDS = 30
"""The most one command may take on this small set: a FIFO read would wait forever."""
COMMANDS = [
    ["check"],
    ["verify", "--offline"],
    ["export"],
    ["coverage"],
    ["matrix"],
    ["diff", "HEAD~1"],
    ["render", "--offline", "--out", "site"],
    ["fix"],
    ["stamp"],
]
WRONG_TYPES = [
    {"version": 2, "state": "rolling back", "files": [{"in": "registers", "file": "/etc/x"}]},
    {"made_by": MADE_BY, "diffs": {"a:b..c": {"entries": "x"}}, "counts": []},
    {"made_by": MADE_BY, "diffs": [], "counts": {"x": {"done": -1}}},
    {"version": 3, "diffs": {"a:b..c": {"registers": [{"fields": []}]}}, "counts": {}},
    {"version": 1, "files": {"markdown:x": "abc"}},
    {"settings": "x", "blocks": {"a": 1}},
    [],
    "text",
    1e308,
]


def contents(outside: Path) -> st.SearchStrategy[tuple[str, object]]:
    """What one place holds: bytes, cut or wrongly typed JSON, a link, a FIFO."""
    return st.one_of(
        st.binary(max_size=64).map(lambda b: ("bytes", b)),
        st.sampled_from(WRONG_TYPES).map(lambda d: ("bytes", json.dumps(d).encode())),
        st.tuples(st.sampled_from(WRONG_TYPES), st.integers(1, 40)).map(
            lambda t: ("bytes", json.dumps(t[0]).encode()[: t[1]])
        ),
        st.sampled_from([outside / "victim", outside, Path("/dev/null"), outside / "none"]).map(
            lambda p: ("link", p)
        ),
        st.just(("fifo", None)),
    )


def clear(folder: Path) -> None:
    """Remove `folder` without following any link in it."""
    if folder.is_symlink() or folder.is_file() or folder.is_fifo():
        folder.unlink()
    elif folder.exists():
        for path in folder.iterdir():
            clear(path)
        folder.rmdir()


def fill(state: Path, planted: dict[str, tuple[str, object]]) -> None:
    for place, (kind, value) in sorted(planted.items()):
        path = state / place
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if kind == "bytes":
                assert isinstance(value, bytes)
                path.write_bytes(value)
            elif kind == "link":
                path.symlink_to(str(value))
            else:
                os.mkfifo(path)
        except (FileExistsError, NotADirectoryError):  # a file already where a folder goes
            continue


@contextlib.contextmanager
def bounded(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the block after `seconds` (a command that hangs fails)."""

    def expire(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def retitled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    repo = make_project(root)
    meta = repo.root / "registers" / "meta.yaml"
    meta.write_text(meta.read_text("utf-8").replace("title: _meta", "title: Meta"), "utf-8")
    repo.commit("retitle")
    return repo.root


NAMED = {
    "journal a FIFO": {"journal.json": ("fifo", None)},
    "lock a link to a file": {"lock": ("link", "victim")},
    "lock a link to /dev/null": {"lock": ("link", Path("/dev/null"))},
    "lock a FIFO": {"lock": ("fifo", None)},
    "cache a link out": {"cache": ("link", "")},
    "journal of old naming a file out": {
        "journal.json": (
            "bytes",
            b'{"state": "rolling back", "files": [["OUT/victim", "OUT/.victim.1-ab.tmp", null]]}',
        )
    },
}
"""The cases the red-team pass found, run every time (hypothesis may not draw them)."""


@pytest.mark.parametrize("name", list(NAMED))
def test_the_named_cases_break_no_command(retitled: Path, name: str) -> None:
    outside = retitled.parent / "outside"
    planted = {}
    for place, (kind, value) in NAMED[name].items():
        if kind == "link" and isinstance(value, str):
            value = outside / value
        if isinstance(value, bytes):
            value = value.replace(b"OUT", str(outside).encode())
        planted[place] = (kind, value)
    run_every_command(retitled, planted)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_content_of_register_folder_breaks_a_command(
    retitled: Path, data: st.DataObject
) -> None:
    outside = retitled.parent / "outside"
    planted = data.draw(st.dictionaries(st.sampled_from(PLACES), contents(outside), max_size=4))
    run_every_command(retitled, planted)


@pytest.mark.slow
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_content_of_register_folder_breaks_a_command_long(
    retitled: Path, data: st.DataObject
) -> None:
    """The same, over many more examples: the long tier (`pytest --long`)."""
    outside = retitled.parent / "outside"
    planted = data.draw(st.dictionaries(st.sampled_from(PLACES), contents(outside), max_size=6))
    run_every_command(retitled, planted)


def run_every_command(project: Path, planted: dict[str, tuple[str, object]]) -> None:
    """Plant, then run each command: none may fail oddly, hang or change `outside`."""
    outside = project.parent / "outside"
    state = project / ".register"
    clear(state)
    fill(state, planted)
    before = snapshot(outside)
    registers = str(project / "registers")
    cwd = os.getcwd()
    os.chdir(project)
    try:
        for args in COMMANDS:
            with bounded(SECONDS):
                result = CliRunner().invoke(main, [args[0], "--registers", registers, *args[1:]])
            said = result.output + (result.stderr if result.stderr_bytes else "")
            assert result.exit_code in (0, 1, 2), (args, planted, said)
            assert not isinstance(result.exception, Exception) or isinstance(
                result.exception, SystemExit
            ), (args, planted, result.exception)
            assert "Traceback" not in said and "internal error" not in said, (args, planted, said)
            assert snapshot(outside) == before, (args, planted)
    finally:
        os.chdir(cwd)
        shutil.rmtree(project / "site", ignore_errors=True)

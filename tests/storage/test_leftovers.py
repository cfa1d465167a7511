"""What a killed write leaves is removed by the next, and a cache read back is used only
when it has its writer's shape (issue 35)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from commands import command
from compat_register.site.excerpts import ExcerptStore
from compat_register.statements import statementcache as statements
from compat_register.storage import shape

KILLED_INIT = """
import os, signal, sys
real = os.fsync
def fsync(fd):
    os.kill(os.getpid(), signal.SIGKILL)  # the first file's bytes are written, not renamed
os.fsync = fsync
from compat_register.cli import run
sys.argv = ["register", "init", sys.argv[1]]
run()
"""
KILLED_INIT_RENAMING = """
import os, signal, sys
real, renamed = os.replace, []
def replace(new, target):
    if len(renamed) == 3:  # three files in place, the rest still temporary files
        os.kill(os.getpid(), signal.SIGKILL)
    renamed.append(target)
    real(new, target)
os.replace = replace
from compat_register.cli import run
sys.argv = ["register", "init", sys.argv[1]]
run()
"""
LEFTOVER = re.compile(r"\.[^/]+\.[0-9]+-[0-9a-f]{8}\.(tmp|bak)")


def leftovers(folder: Path) -> list[str]:
    return sorted(
        str(p.relative_to(folder)) for p in folder.rglob("*") if LEFTOVER.fullmatch(p.name)
    )


@pytest.mark.parametrize("kill", [KILLED_INIT, KILLED_INIT_RENAMING], ids=["writing", "renaming"])
def test_init_killed_mid_write_then_run_again_leaves_no_temporary_file(
    tmp_path: Path, kill: str
) -> None:
    """Killed while writing its files, or after renaming some into place (which hold just
    what init writes): the rerun completes the project and removes the killed run's files."""
    folder = tmp_path / "project"
    killed = subprocess.run([sys.executable, "-c", kill, str(folder)], check=False)
    assert killed.returncode == -9
    assert leftovers(folder), "the kill left nothing to clean: the test proves nothing"
    again = subprocess.run(command("init", str(folder)), capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert leftovers(folder) == []
    assert (folder / "registers" / "sources.yaml").is_file()
    assert (folder / "registers" / "example.yaml").is_file()


def test_a_rerun_keeps_what_another_live_process_is_writing(tmp_path: Path) -> None:
    """Only a killed run's files go: one named by a live process (this one's parent) stays."""
    folder = tmp_path / "project"
    live = folder / "registers" / f".sources.yaml.{os.getppid()}-abcdef01.tmp"
    live.parent.mkdir(parents=True)
    live.write_text("being written\n", "utf-8")
    done = subprocess.run(command("init", str(folder)), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert live.read_text("utf-8") == "being written\n"


WRONG = [
    b"\xff\xfe not JSON",
    b'{"made_by": ',
    b"[" * 100_000,
    b'{"made_by": %s, "files": {"markdown:abc": "not rows"}}',
    b'{"made_by": %s, "files": {"markdown:abc": [[1, 2, 3]]}}',
    b'{"made_by": %s, "files": {"markdown:abc": [["1", 2, "MUST", "t", "h", "a", "c"]]}}',
    b'{"made_by": %s, "files": {"markdown:abc": [[1, 2, "MUST", "t", "h", "a"]]}}',
    b'{"made_by": %s, "files": {"markdown:abc": [[1, 2, "MUST", "t", "h", "a", "c", "x"]]}}',
    b'{"made_by": %s, "files": [], "more": 1}',
]


@pytest.mark.parametrize("raw", WRONG)
def test_a_statements_cache_not_of_its_shape_is_dropped(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "statements.json"
    path.write_bytes(raw.replace(b"%s", json.dumps(statements.MADE_BY).encode()))
    cache = statements.StatementCache(path)
    assert cache.files == {}
    assert cache.dropped is not None and str(path) in cache.dropped
    assert cache.get("markdown:abc", "spec.md") is None


def test_a_statements_cache_of_its_shape_is_used(tmp_path: Path) -> None:
    path = tmp_path / "statements.json"
    first = statements.StatementCache(path)
    first.files["markdown:abc"] = [[1, 2, "MUST", "text", "Heading", "heading", "Servers:"]]
    first.dirty = True
    assert first.save() is None
    again = statements.StatementCache(path)
    assert again.dropped is None
    [found] = again.get("markdown:abc", "spec.md") or []
    assert (found.line, found.keyword, found.anchor) == (1, "MUST", "heading")
    assert found.context == "Servers:"


def test_a_cache_of_other_makers_is_made_anew_without_a_word(tmp_path: Path) -> None:
    path = tmp_path / "statements.json"
    path.write_text(json.dumps({"made_by": "1 markdown-it-py=0.1", "files": {}}), "utf-8")
    assert shape.read(path, "made_by", statements.MADE_BY, statements.SHAPE) == (None, None)


def test_an_excerpt_file_not_of_its_shape_is_dropped(tmp_path: Path) -> None:
    store = ExcerptStore(tmp_path / "excerpts", "settings")
    store.path("meta").parent.mkdir(parents=True)
    data = {"settings": store.settings, "blocks": {"abc": ["<b>", "not a string"]}}
    store.path("meta").write_text(json.dumps(data), "utf-8")
    assert store.cache("meta").data["blocks"] == {}
    assert len(store.dropped) == 1 and "meta.json" in store.dropped[0]


def test_a_cache_behind_a_link_is_not_read(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text(json.dumps({"made_by": statements.MADE_BY, "files": {}}), "utf-8")
    (tmp_path / "statements.json").symlink_to(real)
    cache = statements.StatementCache(tmp_path / "statements.json")
    assert cache.dropped is not None and "symbolic link" in cache.dropped

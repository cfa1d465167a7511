"""The author's loop docs/site.md prints for a thousand citations and more: `mkdocs serve
--dirty`, read from its ```sh block and run through the installed script on a project
`register init` made. An edit of the register's title is served, and a page the edit did not
change is not built again: the plugin wrote its Markdown as it was, so `--dirty` passed it."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from journey import (
    SERVE_BOUND,
    Served,
    Shell,
    blocks,
    fetched,
    revisions,
    serving,
    sh_lines,
    shown,
    stand_in,
    upstream,
)

pytestmark = pytest.mark.slow  # a server and two builds of a site: the long tier

BUILT = "Documentation built in"
"""What MkDocs logs at the end of each build, the first and every rebuild."""
WATCHING = "Watching paths for changes"
"""What MkDocs logs once its watcher has started, after the first build."""


def dirty_line() -> str:
    """The one line of docs/site.md's ```sh blocks that serves with `--dirty`."""
    lines = [line for block in blocks("docs/site.md", "sh") for line in block.splitlines()]
    (line,) = [line for line in lines if re.match(r"mkdocs serve --dirty\b", line)]
    return re.sub(r"\s+#.*$", "", line)


def built(server: Served, times: int) -> None:
    """Wait until the server has logged `times` finished builds, bounded by `SERVE_BOUND`."""
    deadline = time.monotonic() + SERVE_BOUND
    while shown(server).count(BUILT) < times:
        assert server.process.poll() is None, shown(server)
        assert time.monotonic() < deadline, (
            f"no build {times} in {SERVE_BOUND:g} s:\n{shown(server)}"
        )
        time.sleep(0.2)


def settled(server: Served) -> None:
    """Wait until MkDocs watches the files, and a second more: its polling watcher takes its
    first look in a thread of its own, and an edit made before that look is never seen."""
    deadline = time.monotonic() + SERVE_BOUND
    while WATCHING not in shown(server):
        assert time.monotonic() < deadline, f"not watching in {SERVE_BOUND:g} s:\n{shown(server)}"
        time.sleep(0.2)
    time.sleep(1.0)


def test_mkdocs_serve_dirty_as_site_md_prints_it_builds_again_only_what_an_edit_changed(
    tmp_path: Path,
) -> None:
    init = sh_lines("docs/publishing.md", 0)[0]
    assert init.startswith("register init ")
    shell = Shell(tmp_path)
    shell.run(init)
    stand_in(shell.cwd, upstream(tmp_path / "upstream", revisions(shell.cwd)))
    scratch = tmp_path / "tmp"  # where `mkdocs serve` makes the site folder it serves
    scratch.mkdir()
    example = shell.cwd / "registers" / "example.yaml"
    with serving(shell, dirty_line(), TMPDIR=str(scratch)) as server:
        assert "_meta on requests" in fetched(server, "registers/example/", "EX-01")
        built(server, 1)
        settled(server)
        (site,) = scratch.glob("mkdocs_*")
        untouched = site / "registers" / "priorities" / "index.html"  # holds no register title
        before = untouched.stat().st_mtime_ns
        example.write_text(example.read_text().replace("title: Example", "title: Edited title"))
        assert "Edited title" in fetched(server, "registers/example/", "Edited title")
        built(server, 2)
        assert "Edited title" in (site / "registers" / "index.html").read_text(encoding="utf-8")
        assert untouched.stat().st_mtime_ns == before, shown(server)

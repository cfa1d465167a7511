"""The site, as docs/publishing.md (and docs/start.md) print its commands: `mkdocs serve`
showing an edited register over HTTP, the strict builds of MkDocs and ProperDocs, and the
Zensical project from `register init --engine zensical` to `zensical build --strict`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engines
from journey import (
    Shell,
    fetched,
    installed,
    revisions,
    serving,
    sh_lines,
    stand_in,
    upstream,
)

pytestmark = pytest.mark.slow  # a server, and three builds: the long tier


def walk(shell: Shell, lines: list[str], tmp_path: Path) -> None:
    """Run a doc block's lines in `shell`: after `register init`, the example source stands
    in for the public one; a `... serve` line is served and looked at (`served`)."""
    for line in lines:
        command = re.sub(r"\s+#.*$", "", line)
        if command.startswith("pip install "):  # what the venv holds (the test's skipif)
            assert installed(command.removeprefix("pip install "))
        elif command.endswith(" serve") or " serve " in command:
            served(shell, command)
        else:
            shell.run(line)
        if command.startswith("register init"):
            stand_in(shell.cwd, upstream(tmp_path / "upstream", revisions(shell.cwd)))


def served(shell: Shell, command: str) -> None:
    """`command` (`mkdocs serve`, ...) served (`serving`): the example register's page, then
    the page again once its title is edited in registers/example.yaml, without a restart."""
    example = shell.cwd / "registers" / "example.yaml"
    try:
        with serving(shell, command) as server:
            page = "registers/example/"
            assert "_meta on requests" in fetched(server, page, "EX-01")
            example.write_text(example.read_text().replace("title: Example", "title: Edited title"))
            assert "Edited title" in fetched(server, page, "Edited title")
    finally:
        example.write_text(example.read_text().replace("title: Edited title", "title: Example"))


def test_mkdocs_as_publishing_md_prints_it_serves_an_edit_and_builds(tmp_path: Path) -> None:
    mkdocs = sh_lines("docs/publishing.md", 0)
    start = [re.sub(r"\s+#.*$", "", line) for line in sh_lines("docs/start.md", 0)]
    assert "mkdocs serve" in start  # the same command as publishing.md's, served here
    shell = Shell(tmp_path)
    walk(shell, mkdocs, tmp_path)
    assert (shell.cwd / "site" / "registers" / "example" / "index.html").is_file()


@pytest.mark.skipif(not installed("properdocs"), reason="properdocs is not installed")
def test_properdocs_as_publishing_md_prints_it(tmp_path: Path) -> None:
    """ProperDocs' block, in a project the MkDocs block's first lines made (not served
    twice: its serve line is ProperDocs' own)."""
    mkdocs, properdocs = sh_lines("docs/publishing.md", 0), sh_lines("docs/publishing.md", 1)
    assert mkdocs[0].startswith("register init") and "mkdocs.yml" in properdocs[-1]
    shell = Shell(tmp_path)
    walk(shell, [line for line in mkdocs if "mkdocs" not in line], tmp_path)
    walk(shell, properdocs, tmp_path)  # mkdocs.yml, read by ProperDocs
    assert (shell.cwd / "site" / "registers" / "example" / "index.html").is_file()


@pytest.mark.skipif(not engines.installed("zensical"), reason="no zensical")
def test_zensical_as_publishing_md_prints_it(tmp_path: Path) -> None:
    zensical = sh_lines("docs/publishing.md", 2)
    assert zensical[0].startswith("register init --engine zensical")
    shell = Shell(tmp_path)
    walk(shell, zensical, tmp_path)
    page = shell.cwd / "site" / "registers" / "example" / "index.html"
    assert 'id="ex-01"' in page.read_text(encoding="utf-8")

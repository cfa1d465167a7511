"""A new user's first project, as docs/start.md and README.md print it: the installed
`register` and `mkdocs`, relative paths, from the project's root and from its `registers/`
and `docs/` folders; then every command of the README's table a register's life needs
(stamp, bump over three commits, fix, diff, coverage, matrix, export, cite, render), each
form read from the table and filled in visibly.

On the main of issue 34 this fails at its first `register sync` from the root (item 1:
git was handed a relative --git-dir with cwd= that same folder), and, past that, at the
first bump after the lock was turned CRLF (item 2: `citations.lock changed since it was
read`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gitrepo import GitRepo
from journey import (
    ROOT,
    SCHEMA,
    Shell,
    fill,
    installed,
    register_parts,
    revisions,
    sh_lines,
    stand_in,
    table_forms,
    upstream,
)

PROJECT = "my-registers"
"""The folder the docs' `register init my-registers` makes."""


def test_start_and_readme_from_the_root_and_each_subfolder(tmp_path: Path) -> None:
    start, readme = sh_lines("docs/start.md", 0), sh_lines("README.md", 1)
    shell = Shell(tmp_path)
    for line in start:
        if line.startswith(("python3 -m venv", "pip install /path/to/compat-register")):
            # The venv and the install: this venv is the one running the test, and it
            # holds this very checkout (pip's direct_url.json names it), so nothing to do.
            assert installed(str(ROOT)), "the venv does not hold this checkout"
        elif line.startswith("mkdocs serve"):
            continue  # test_journey_site.py serves the site (the slow tier)
        else:
            shell.run(line)
        if line.startswith("register init"):  # the source's public URL, stood in for
            project = tmp_path / PROJECT
            assert shell.cwd == project
            up = upstream(tmp_path / "upstream", revisions(project))
            stand_in(project, up)
    assert (project / ".register" / "cache" / "spec.git").is_dir()
    assert (project / "site" / "registers" / "example" / "index.html").is_file()

    assert readme[0].startswith(f"register init {PROJECT} && cd {PROJECT}")
    if readme[1] not in start:  # the README's line, if start.md's did not run it already
        shell.run(readme[1])
    for folder in ("registers", "docs"):
        for command in register_parts(readme[1]):
            done = shell.at(project / folder).run(command)
            if command == "register verify":
                assert done.stdout.startswith("4 citations: 4 ok, "), done.stdout
    life_of_a_register(project, up.commits)


def life_of_a_register(project: Path, commits: list[str]) -> None:
    """stamp, bump (three commits), fix, diff, coverage, matrix, export, cite and render,
    in the forms of the README's command table, from the three folders in turn."""
    forms = table_forms()
    root, registers, docs = (Shell(project), Shell(project / "registers"), Shell(project / "docs"))
    repo = GitRepo(project)  # the author keeps the project in git (register diff reads it)
    first = repo.commit("a new register project")

    stamped = docs.run(fill(forms["stamp"], ID="EX-01")).stdout  # `register stamp EX-01`
    assert stamped.startswith("stamped 2 citations of 1 entry;"), stamped
    assert "stamped 4 citations of 2 entries" in docs.run(fill(forms["stamp"])).stdout
    # Item 2 of issue 34: the lock turned CRLF as the issue did, each \n made \r\n (a lock
    # that stamp had written CRLF already, as it made every new one, then ended in \r\r\n).
    lock = project / "registers" / "citations.lock"
    lock.write_bytes(lock.read_bytes().replace(b"\n", b"\r\n"))

    for shell, commit, report in (
        (registers, commits[1], "0 carried over, 4 re-anchored, 0 changed, 0 gone"),
        (docs, commits[2], "4 carried over, 0 re-anchored, 0 changed, 0 gone"),
        (root, None, "0 carried over, 4 re-anchored, 0 changed, 0 gone"),  # the newest
    ):
        pin = {"COMMIT": commit} if commit else {}
        bumped = shell.run(fill(forms["bump"], ALIAS="spec", **pin)).stdout
        assert report in bumped, bumped
    assert lock.read_bytes().count(b"\n") == lock.read_bytes().count(b"\r\n")
    assert f"commit: {commits[-1]}" in (project / "registers" / "sources.yaml").read_text()

    example = project / "registers" / "example.yaml"
    text = example.read_text(encoding="utf-8")
    line = int(re.search(r"schema\.ts:(\d+) “progressToken", text)[1])  # type: ignore[index]
    moved_by_hand = text.replace(
        f"schema.ts:{line} “progressToken", f"schema.ts:{line - 1} “progressToken"
    )
    example.write_text(moved_by_hand, encoding="utf-8")
    assert "1 moved" in root.run(fill(forms["verify"]), expect=1).stdout
    fixed = registers.run(fill(forms["fix"])).stdout
    assert f"schema.ts:{line - 1} -> {SCHEMA}:{line}" in fixed, fixed
    for shell in (root, registers, docs):
        verified = shell.run(fill(forms["verify"]) + " --strict").stdout
        assert verified.startswith("4 citations: 4 ok, 0 moved") and "0 unstamped" in verified

    changed = docs.run(fill(forms["diff"])).stdout  # HEAD against the working tree
    assert "spec" in changed and commits[-1][:7] in changed, changed
    repo.commit("spec bumped to its newest commit")
    between = root.run(fill(forms["diff"], REV1=first, REV2="HEAD")).stdout
    assert between.splitlines()[1:] == changed.splitlines()[1:], (between, changed)

    revision = revisions(project)[0]
    covered = registers.run(fill(forms["coverage"], REVISION=revision)).stdout
    assert re.search(rf"^{revision}: [1-9][0-9]* statements", covered, re.MULTILINE), covered
    assert root.run(fill(forms["matrix"])).returncode == 0
    exported = json.loads(docs.run(fill(forms["export"])).stdout)
    assert exported["sources"]["spec"]["commit"] == commits[-1]
    cited = registers.run(fill(forms["cite"], ALIAS="spec", PATH=SCHEMA, LINE=str(line))).stdout
    assert cited.strip() == f"'{SCHEMA}:{line} “progressToken?: ProgressToken;”'", cited
    docs.run(fill(forms["render"], DIR="../rendered"))  # `register render --out ../rendered`
    assert (project / "rendered" / "registers" / "example.md").is_file()

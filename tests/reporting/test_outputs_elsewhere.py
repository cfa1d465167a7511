"""Outputs that land in other people's tools hold whatever a pull request writes.

`register diff --format markdown` is posted as a pull-request comment and `register matrix
--format markdown` pasted into a README: a title holding a blank line, a heading, an HTML
block or a mention must stay text there. Each output is read back by a CommonMark parser
with GFM tables (markdown-it-py), the way GitHub reads it, not by string guesses. And
`check` refuses a line break in a one-line field (a title), located.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import builder
from conftest import RunLine
from gitrepo import GitRepo
from registerfiles import REVISION_SOURCES, done_entry, register_head

HOSTILE = (
    "Fine\\n\\n# Pwned\\n<details open>\\n</details>\\n\\n- item\\n"
    "ask @octocat and @org/team ``` ` |x| &#64;admin"
)
"""A title as a YAML double-quoted scalar: blank lines, a heading, an HTML block that
opens and one that closes the comment's own, a list, mentions, backtick runs, a pipe."""
MENTION = re.compile(r"(?:^|[^\w`])@[A-Za-z0-9]")
"""What GitHub turns into a mention (and a notification) in a comment's text."""


def parsed(markdown: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(markdown)


def text_of(html: str) -> str:
    """The HTML's text outside code, with entities read (`&#64;` is an `@` again)."""
    import html as htmllib

    outside_code = re.sub(r"<code>.*?</code>", "", html, flags=re.DOTALL)
    return htmllib.unescape(re.sub(r"<[^>]+>", "", outside_code))


def project(tmp_path: Path) -> tuple[GitRepo, str, str]:
    repo = GitRepo(tmp_path)
    entry = done_entry("['internal/a.go:1']")
    builder.registers(tmp_path / "registers", REVISION_SOURCES, {"t.yaml": register_head() + entry})
    old = repo.commit("start")
    repo.write(
        "registers/t.yaml", register_head() + entry.replace("title: One", f'title: "{HOSTILE}"')
    )
    return repo, old, repo.commit("hostile title")


def test_a_hostile_title_stays_text_in_the_pull_request_comment(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, old, new = project(tmp_path)
    monkeypatch.chdir(tmp_path)
    done = run_line(["diff", "--format", "markdown", old, new])
    assert done.exit_code == 0, done.output
    html = parsed(done.stdout)
    # The tool's own heading (h3) and the register's (h4), one list item, nothing else.
    assert re.findall(r"<h(\d)>", html) == ["3", "4"], html
    assert html.count("<li>") == 1 and "<details" not in html and "</details" not in html
    assert html.count("<code>") == 2 + 2  # the two commits, and the title's old and new
    assert not MENTION.search(text_of(html)), text_of(html)
    assert "# Pwned" in html and "@\u200boctocat" in html  # shown, as text


def test_a_hostile_title_stays_on_its_line_in_the_text_diff(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Text output lands in CI logs, where a line of its own could be a workflow command."""
    _, old, new = project(tmp_path)
    monkeypatch.chdir(tmp_path)
    done = run_line(["diff", old, new])
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert len(lines) == 4, lines  # the sides, the entry, its title's change, the count
    assert lines[1].startswith("T-01 Fine\\n\\n# Pwned\\n<details open>") and "@octocat" in lines[1]


def test_a_hostile_concept_keeps_one_row_in_the_matrix(tmp_path: Path, run_line: RunLine) -> None:
    concepts = (
        f'concepts:\n  - id: "a|b\\n\\n# x"\n    title: "{HOSTILE}"\n  - id: c\n    title: C\n'
    )
    entry = done_entry("['internal/a.go:1']") + "    concept: c\n"
    files = {"concepts.yaml": concepts, "t.yaml": register_head() + entry}
    builder.registers(tmp_path, REVISION_SOURCES, files)
    done = run_line(["matrix", "--registers", str(tmp_path), "--format", "markdown"])
    html = parsed(done.stdout)
    rows = re.findall(r"<tr>(.*?)</tr>", html, flags=re.DOTALL)
    assert len(rows) == 1 + 2, html  # the header and one row per concept
    assert all(row.count("<td") == 3 for row in rows[1:]), rows  # concept, `up`, done
    assert "<h1>" not in html and "<details" not in html
    assert not MENTION.search(text_of(html))
    text = run_line(["matrix", "--registers", str(tmp_path)]).stdout.split("\n\n")[0]
    assert len(text.splitlines()) == 1 + 2, text  # the header and one line per concept


@pytest.mark.parametrize(
    "file, old, new, where",
    [
        ("t.yaml", "title: Test\n", 'title: "Test\\n# x"\n', "t.yaml:1:8: error: t: 'title'"),
        ("t.yaml", "title: One\n", 'title: "One\\r"\n', "t.yaml:11:12: error: T-01: 'title'"),
        (
            "sources.yaml",
            "title: Up,",
            'title: "Up\\u2028",',
            "sources.yaml:4:15: error: sources: 'sources.up.title'",
        ),
    ],
)
def test_a_line_break_in_a_title_is_refused_at_check(
    tmp_path: Path, run_line: RunLine, file: str, old: str, new: str, where: str
) -> None:
    builder.registers(
        tmp_path, REVISION_SOURCES, {"t.yaml": register_head() + done_entry("['internal/a.go:1']")}
    )
    path = tmp_path / file
    path.write_text(path.read_text("utf-8").replace(old, new, 1), "utf-8")
    done = run_line(["check", "--registers", str(tmp_path)])
    lines = done.stdout.replace(f"{tmp_path}/", "").splitlines()
    assert lines == [f"{where} holds a line break: write it on one line", "1 errors, 0 warnings"]

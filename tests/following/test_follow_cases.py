"""`follow` on real git histories, the rules a fixed case pins down: boilerplate found in
another file is no evidence of a move, a deletion in periodic code is the diff's guess,
and indentation in Python counts relative to a range's first line."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_follow import cite, run, where

import builder
from gitrepo import GitRepo

LICENCE = """// Copyright 2025 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by an MIT-style
// license that can be found in the LICENSE file.
"""


def functions(name: str) -> str:
    return "".join(f"func {name}{n}() {{ {name.lower()}({n}) }}\n" for n in range(30))


@pytest.mark.parametrize("deleted", [True, False], ids=["file-deleted", "header-deleted"])
def test_a_licence_header_other_files_held_is_flagged_not_followed(
    tmp_path: Path, deleted: bool
) -> None:
    """a.go's header goes (the file, or only its header) and a new c.go starts with the
    same header: b.go held that text before the step, so it is boilerplate, and its
    appearance in c.go says nothing about where a.go's lines went."""
    repo, old = builder.source(
        tmp_path / "up",
        {
            "a.go": f"{LICENCE}\npackage a\n\n{functions('A')}",
            "b.go": f"{LICENCE}\npackage a\n\nfunc B() {{}}\n",
        },
    )
    if deleted:
        repo.rm("a.go")
    else:
        repo.write("a.go", f"package a\n\n{functions('A')}")
    repo.write("c.go", f"{LICENCE}\npackage a\n\n{functions('C')}")
    new = repo.commit()
    found = run(repo, old, new, [cite("a.go", 1, 3), cite("a.go", 2)])
    assert [(where(f), f.flags) for f in found] == [
        (("gone", "a.go", None), ("ambiguous",)),
        (("gone", "a.go", None), ("ambiguous",)),
    ]
    assert [[c[:3] for c in f.candidates] for f in found] == [
        [("c.go", 1, 3)],
        [("c.go", 2, 2)],
    ]
    assert all("other files held it already" in f.note for f in found)


def test_a_header_only_the_deleted_file_held_is_followed(tmp_path: Path) -> None:
    """The boundary of the rule above: with no other file holding the header before the
    step, the lines (with the context that came with them) moved to c.go."""
    repo, old = builder.source(
        tmp_path / "up", {"a.go": f"{LICENCE}\npackage a\n\n{functions('A')}"}
    )
    repo.rm("a.go")
    repo.write("c.go", f"{LICENCE}\npackage a\n\n{functions('C')}")
    new = repo.commit()
    found = run(repo, old, new, [cite("a.go", 1, 3)])
    assert [(where(f), f.flags) for f in found] == [(("re-anchored", "c.go", (1, 3)), ())]


CHECK = "\terr = {0}(t)\n\tif err != nil {{\n\t\treturn nil, err\n\t}}\n"


def load(*steps: str) -> str:
    """A Go function of error checks, one `if err != nil { return nil, err }` per step."""
    checks = "".join(CHECK.format(step) for step in steps)
    return f"func load(t *T) (*T, error) {{\n\tvar err error\n{checks}\treturn t, nil\n}}\n"


SAVE = """package p

func save(t *T) (*T, error) {
\tout, err := encode(t)
\tif err != nil {
\t\treturn nil, err
\t}
\treturn out, nil
}
"""


@pytest.mark.parametrize("twin", [False, True], ids=["alone", "twin-in-another-file"])
@pytest.mark.parametrize("cited", [(10, 11), (10, 12), (11, 11)])
def test_a_deleted_copy_in_periodic_code_is_flagged_where_its_text_stays(
    tmp_path: Path, twin: bool, cited: tuple[int, int]
) -> None:
    """Deleting `parse`'s check: the diff deletes old lines 9-12, but `if err != nil {` /
    `return nil, err` / `}` read the same in every check, so which copy went is the diff's
    guess. A citation of `parse`'s check is `changed` and flagged where the same text
    stays (a slider), never `gone` silently, never moved onto a copy added elsewhere
    (save.go's check, with as much context as a move needs)."""
    repo, old = builder.source(
        tmp_path / "up", {"a.go": "package p\n\n" + load("open", "parse", "check")}
    )
    repo.write("a.go", "package p\n\n" + load("open", "check"))
    if twin:
        repo.write("save.go", SAVE)
    new = repo.commit()
    diff = repo.git("diff", "--unified=0", old, new, "--", "a.go")
    assert "@@ -9,4 +8,0 @@" in diff  # the slider: the cited lines are among those deleted
    [found] = run(repo, old, new, [cite("a.go", *cited)])
    assert (where(found), found.flags) == (("changed", "a.go", cited), ("ambiguous",))
    assert "lines of the same text stay where they were" in found.note
    first, last = cited
    assert [c[:3] for c in found.candidates] == [
        ("a.go", first, last),  # the kept copy after the gap (`check`'s)
        ("a.go", first - 4, last - 4),  # the kept copy before it (`open`'s)
    ]


ORIGINAL = """import os

def handle(request):
    if request.ok:
        send(request)
    log(request)
    return None
"""

LOGGED_IF_OK = ORIGINAL.replace("\n    log(request)", "\n        log(request)")


@pytest.mark.parametrize("into", [True, False], ids=["into-its-if", "out-of-its-if"])
@pytest.mark.parametrize("suffix", [".py", ".go"])
def test_indentation_counts_in_python_relative_to_a_ranges_first_line(
    tmp_path: Path, suffix: str, into: bool
) -> None:
    """`log(request)` moved into `if request.ok:`, or out of it (re-indented, nothing else).
    In a .py file a range holding it and a line it did not move with changed; the line
    cited alone is its own reference, so it reads the same and is re-anchored
    (docs/pins.md, "What counts as changed, by file kind"). In a .go file leading
    indentation never counts."""
    repo = GitRepo(tmp_path / "up")
    path = "handler" + suffix
    before, after = (ORIGINAL, LOGGED_IF_OK) if into else (LOGGED_IF_OK, ORIGINAL)
    repo.write(path, before)
    old = repo.commit()
    repo.write(path, after)
    new = repo.commit()
    cited = [cite(path, 5, 6), cite(path, 6, 7), cite(path, 4, 6), cite(path, 6)]
    found = run(repo, old, new, cited)
    two_lines = "changed" if suffix == ".py" else "re-anchored"
    assert [where(f) for f in found] == [
        (two_lines, path, (5, 6)),  # `send` and `log`
        (two_lines, path, (6, 7)),  # `log` and `return`
        (two_lines, path, (4, 6)),  # the `if` and what it holds, or held
        ("re-anchored", path, (6, 6)),  # `log` alone: nothing to measure it against
    ]
    assert all(f.flags == () for f in found)

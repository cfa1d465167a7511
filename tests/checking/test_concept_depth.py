"""Concept parents are walked on a stack, each concept once: a chain 5,000 deep is one
located error of check, and the matrix and the site still finish, one row per concept.

Before, a 1,000-deep chain passed check and `register matrix` and the build died with
RecursionError, and a 2,000-deep one took check 36 s (each concept walked its whole chain).
Each command runs in a process of its own; its `timeout` only turns a hang into a failure.
"""

from __future__ import annotations

from pathlib import Path

import builder
from commands import register
from compat_register.model.concepts import MAX_DEPTH, Concept, Concepts
from compat_register.model.positions import Where
from registerfiles import REVISION_SOURCES, register_head, revision_entry

DEEP = 5_000


def chain_project(root: Path) -> None:
    items = ["concepts:\n  - id: c0\n    title: C0\n"]
    items += [f"  - id: c{n}\n    title: C{n}\n    parent: c{n - 1}\n" for n in range(1, DEEP)]
    entry = revision_entry(1, concept=f"c{DEEP - 1}")
    files = {"concepts.yaml": "".join(items), "t.yaml": register_head() + entry}
    builder.registers(root / "registers", REVISION_SOURCES, files)


def test_a_chain_5000_deep_is_one_located_error_and_every_output_finishes(
    tmp_path: Path,
) -> None:
    chain_project(tmp_path)
    deep = MAX_DEPTH + 1
    said = (
        f"registers/concepts.yaml:{3 * deep + 3}:13: error: c{deep}: concept sits under "
        f"{deep} parents, over the {MAX_DEPTH} a concept may: group the concepts in fewer levels"
    )
    done = register(tmp_path, "check", "--registers", "registers")
    assert (done.returncode, done.stdout.splitlines()) == (1, [said, "1 errors, 0 warnings"])
    for fmt in ("text", "markdown", "json"):
        shown = register(tmp_path, "matrix", "--registers", "registers", "--format", fmt)
        assert shown.returncode == 1 and shown.stderr.splitlines() == [said], shown.stderr
        if fmt != "json":  # one row per concept, each indented at most MAX_DEPTH deep
            table = shown.stdout.split("\n\n")[0].splitlines()
            rows = [line for line in table if line.startswith("| ") or fmt == "text"]
            assert len(rows) == DEEP + 1  # and the header
            assert max(len(line) for line in rows) < 200
    rendered = register(tmp_path, "render", "--registers", "registers", "--out", "site")
    assert rendered.returncode == 1 and said in rendered.stdout + rendered.stderr


def concepts(*pairs: tuple[str, str | None]) -> Concepts:
    where = Where("concepts.yaml", 1, 1)
    return Concepts("concepts.yaml", tuple(Concept(i, i, p, (), (), where) for i, p in pairs))


def test_depths_and_cycles_are_found_in_one_walk() -> None:
    depth, cycles = concepts(
        ("leaf", "mid"),
        ("mid", "root"),
        ("root", None),
        ("a", "b"),
        ("b", "c"),
        ("c", "a"),
        ("under-a", "a"),
        ("self", "self"),
        ("lost", "nowhere"),
    ).depths()
    assert depth == {
        "leaf": 2,
        "mid": 1,
        "root": 0,
        "a": 0,
        "b": 0,
        "c": 0,
        "under-a": 1,
        "self": 0,
        "lost": 0,
    }
    assert cycles == [["a", "b", "c"], ["self"]]

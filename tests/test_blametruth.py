"""bench/blametruth.py, the ground truth bench/truth.py scores `register bump` against, on a
small real repository: `git blame -w -M -C` alone says where each old line went, or that
it changed, across a move within a file, a rename, a split and an edit."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from gitrepo import GitRepo


def bench_module(name: str):  # type: ignore[no-untyped-def]
    """A module of bench/ loaded from its file: bench/ is not put on sys.path, where its
    modules (`coverage`, `history`, `build`) would shadow packages and tests of those names."""
    spec = importlib.util.spec_from_file_location(
        name, Path(__file__).parent.parent / "bench" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


blametruth = bench_module("blametruth")
Truth, build = blametruth.Truth, blametruth.build


def function(name: str, body: str) -> str:
    return f'func {name}(s *Server) error {{\n\ts.{body}\n\treturn s.done("{name}")\n}}\n'


ALPHA, BETA = function("alpha", 'open("a")'), function("beta", 'close("b")')
OLD = {
    # a.go: 1 package, 3-6 alpha, 8-11 beta, 13-16 gamma
    "a.go": "package a\n\n" + "\n".join([ALPHA, BETA, function("gamma", 'flush("c")')]),
    # b.go: renamed to c.go
    "b.go": 'package a\n\nvar limits = map[string]int{\n\t"first": 1,\n}\n',
    # d.go: 3-6 one, 8-11 two (split off into e.go)
    "d.go": "package a\n\n" + function("one", 'start("1")') + "\n" + function("two", 'start("2")'),
}


@pytest.fixture(scope="module")
def truth(tmp_path_factory: pytest.TempPathFactory) -> Truth:
    repo = GitRepo(tmp_path_factory.mktemp("blametruth") / "up")
    for path, text in OLD.items():
        repo.write(path, text)
    old = repo.commit()
    # alpha moved to the end; beta's call edited, its old text written again in a new
    # function (by the new commit: a twin, not where the line went)
    edited = BETA.replace('close("b")', 'close("b", now)')
    twin = 'func delta(s *Server) error {\n\ts.close("b")\n\treturn nil\n}\n'
    moved = [edited, function("gamma", 'flush("c")'), ALPHA, twin]
    repo.write("a.go", "package a\n\n" + "\n".join(moved))
    repo.mv("b.go", "c.go")
    repo.write("d.go", "package a\n\n" + function("one", 'start("1")'))
    repo.write("e.go", "package a\n\n" + function("two", 'start("2")'))
    new = repo.commit()
    return build(repo.root, old, new, {"a.go", "b.go", "d.go"}, (".go",))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("a.go", 3), ("a.go", 13)),  # alpha moved below gamma, line by line
        (("a.go", 4), ("a.go", 14)),
        (("a.go", 5), ("a.go", 15)),
        (("a.go", 16), ("a.go", 11)),  # gamma's `}`: every function has one, the
        (("a.go", 11), ("a.go", 6)),  # alignment of the file's lines tells them apart
    ],
    ids=str,
)
def test_a_line_moved_within_its_file_is_where_blame_puts_it(
    truth: Truth, old: tuple[str, int], new: tuple[str, int]
) -> None:
    assert truth.settle(old) == ("same", [new])


def test_a_renamed_files_lines_are_in_the_new_file(truth: Truth) -> None:
    """The old commit wrote a `}` in every file: the renamed file's partner (c.go, which
    holds all of b.go's lines) is what places b.go's."""
    assert [truth.settle(("b.go", n)) for n in (1, 3, 4, 5)] == [
        ("same", [("c.go", 1)]),
        ("same", [("c.go", 3)]),
        ("same", [("c.go", 4)]),
        ("same", [("c.go", 5)]),
    ]
    assert truth.partner["b.go"] == "c.go"


def test_a_split_files_lines_are_in_the_file_that_took_them(truth: Truth) -> None:
    assert [truth.settle(("d.go", n)) for n in (3, 4, 5, 8, 9, 10)] == [
        ("same", [("d.go", 3)]),
        ("same", [("d.go", 4)]),
        ("same", [("d.go", 5)]),
        ("same", [("e.go", 3)]),
        ("same", [("e.go", 4)]),
        ("same", [("e.go", 5)]),
    ]


def test_an_edited_line_is_changed_though_its_old_text_was_written_elsewhere(
    truth: Truth,
) -> None:
    """`s.close("b")` was edited in place; delta's line of the same text was written by the
    new commit, so it is another line, not the old one moved."""
    assert truth.settle(("a.go", 9)) == ("changed", [])
    assert truth.text(("a.go", 19)) == '\ts.close("b")'


def test_lines_blame_cannot_tell_apart_are_ambiguous(truth: Truth) -> None:
    """alpha's `}` moved with it, but the old commit wrote a `}` in every function: of those
    the alignments left, blame cannot say which is alpha's."""
    verdict, places = truth.settle(("a.go", 6))
    assert verdict == "ambiguous"
    assert ("a.go", 16) in places and len(places) > 1

"""`moves`: where an edited or deleted range went in one step, pure (no git)."""

from __future__ import annotations

from compat_register.citations.compare import Kind, comparable
from compat_register.following.moves import (
    AddedIndex,
    Text,
    best_window,
    decide,
    elsewhere,
)
from compat_register.following.oneline import one_line_rule


def text(lines: list[str], kind: Kind = "code") -> Text:
    keyed: Kind = "markdown" if kind == "markdown" else "code"
    return Text(lines, [comparable(line, keyed) for line in lines], kind, keyed)


def added(path: str, lines: list[str], hunks: list[tuple[int, int, int, int]]) -> AddedIndex:
    return AddedIndex(path, text(lines), hunks)


OLD = ["package a", "", "func f() {", "\tvalue := compute(first, second)", "\treturn value", "}"]


def test_a_block_is_found_among_added_lines_only() -> None:
    new = ["package a", "", "func f() {", "\treturn value", "}", "", "func g() {",
           "\tvalue := compute(first, second)", "\treturn value", "}"]  # fmt: skip
    index = added("a.go", new, [(4, 1, 3, 0), (6, 0, 6, 5)])
    assert index.blocks(text(OLD).keys[4:5]) == [(9, 9)]  # line 4 was there before: not added
    assert index.blocks(text(OLD).keys[3:5]) == [(8, 9)]


def test_one_line_with_nothing_moved_beside_it_is_no_evidence() -> None:
    index = added("a.go", ["x", "\tvalue := compute(first, second)", "y"], [(0, 0, 2, 1)])
    assert not index.evidence(text(OLD).keys, 4, 4, (2, 2))
    whole = added("a.go", ["x", *OLD[2:]], [(0, 0, 2, 4)])
    assert whole.evidence(text(OLD).keys, 4, 4, (3, 3))  # its function moved with it


def test_short_lines_are_no_evidence_however_many() -> None:
    old = ["a", "\t}", "\treturn nil", "}", "b"]
    index = added("a.go", ["c", "\t}", "\treturn nil", "}"], [(0, 0, 2, 3)])
    assert not index.evidence(text(old).keys, 2, 4, (2, 4))  # 9 letters: git blame -M wants 20


def test_the_original_edited_in_place_wins_over_a_twin() -> None:
    old = text(["func a() {", '\tif sessionID != "" {', "\t\treturn x", "\t}", "}"])
    new_lines = ["func a() {", '\tif sessionID != "" && ok {', "\t\treturn x", "\t}", "}",
                 "func b() {", '\tif sessionID != "" {', "\t}", "}"]  # fmt: skip
    index = added("a.go", new_lines, [(2, 1, 2, 1), (5, 0, 6, 4)])
    decision = decide(old, index, 2, 2, (2, 2))
    assert (decision.kind, decision.lines, decision.flags) == ("changed", (2, 2), ())


def test_a_twin_without_evidence_is_flagged_with_its_place() -> None:
    old = text(["func a() {", '\tcase "text/event-stream":', "}"])
    index = added("a.go", ["func a() {", "}", "func b() {", '\tcase "text/event-stream":', "}"],
                  [(2, 1, 1, 0), (3, 0, 3, 3)])  # fmt: skip
    decision = decide(old, index, 2, 2, None)
    assert (decision.kind, decision.lines, decision.flags) == ("gone", None, ("ambiguous",))
    assert decision.candidates == (("a.go", 4, 4),)


def test_markdown_text_is_the_same_without_its_markup_code_is_not() -> None:
    kinds: list[tuple[Kind, str]] = [("markdown", "re-anchored"), ("code", "changed")]
    for kind, expected in kinds:
        old = text(["Servers **MUST** reply."], kind)
        new = text(["Servers MUST reply."], kind)
        decision = decide(old, AddedIndex("a", new, [(1, 1, 1, 1)]), 1, 1, (1, 1))
        assert decision.kind == expected


def test_best_window_holds_the_most_similar_lines_or_none() -> None:
    block = ["\ttimeout := time.Duration(cfg.Seconds) * time.Second"]
    new = ["// header", "\tlimit := 10", "\ttimeout := time.Duration(cfg.Secs) * time.Second", "}"]
    assert best_window(text(block).keys, text(new).keys, (1, 4)) == ((3, 3), best_window(
        text(block).keys, text(new).keys, (3, 3))[1])  # type: ignore[index]  # fmt: skip
    assert best_window(text(block).keys, text(["}", "// other"]).keys, (1, 2)) is None


def test_a_long_region_is_searched_around_its_most_alike_lines() -> None:
    region = [f"\tcall_{n}(argument_{n})" for n in range(300)]
    region[217] = "\tresult := process(input, options)  // edited"
    block = ["\tresult := process(input, options)"]
    found = best_window(text(block).keys, text(region).keys, (1, 300))
    assert found is not None and found[0][0] in (217, 218)


def test_a_split_files_lines_are_found_in_the_file_that_took_them() -> None:
    old = text(["package a", "", "func helper(name string) string {",
                "\treturn strings.ToUpper(name) + suffix", "}"])  # fmt: skip
    other = AddedIndex("b.go", text(list(old.lines)), [(0, 0, 1, 5)])
    found = elsewhere(old, 4, 4, [other])
    assert found is not None and (found.kind, found.path, found.lines) == (
        "re-anchored",
        "b.go",
        (4, 4),
    )
    twice = elsewhere(old, 3, 5, [other, AddedIndex("c.go", other.text, [(0, 0, 1, 5)])])
    assert twice is not None and twice.flags == ("ambiguous",) and twice.kind == "gone"


def test_no_two_citations_are_put_on_one_line() -> None:
    before = [(3, 3), (4, 4), (8, 8)]
    after: list[tuple[int, int] | None] = [(3, 3), (3, 3), (3, 3)]
    # 0 and 1 were placed by a best match (scores 0.9 and 0.7); 2 shared no line before
    losers = one_line_rule(before, after, [True, True, False], [0.9, 0.7, 3.0])
    assert losers == [0, 1]  # a placed one gives way to the one the diff put there
    assert one_line_rule([(3, 4), (4, 4)], [(3, 3), (3, 3)], [True, True], [1.0, 1.0]) == []


def test_placed_alike_on_one_line_both_give_way() -> None:
    """Two moves onto the same lines with the same score: nothing tells which went there."""
    assert one_line_rule([(3, 3), (9, 9)], [(20, 20), (20, 20)], [True, True], [2.0, 2.0]) == [
        0,
        1,
    ]


def test_moves_into_another_file_give_way_to_what_is_there_and_to_each_other() -> None:
    from compat_register.following.oneline import crossing_losers

    moves = [
        (("a.go", 4, 5), ("c.go", 5, 6)),  # two copies of one body, onto one place
        (("a.go", 9, 10), ("c.go", 5, 6)),
        (("b.go", 1, 2), ("d.go", 3, 4)),  # onto lines d.go's own citation holds
        (("b.go", 7, 7), ("d.go", 9, 9)),  # alone: placed
        (("e.go", 1, 3), ("f.go", 1, 3)),  # two citations that shared a line before
        (("e.go", 2, 2), ("f.go", 2, 2)),
    ]
    assert crossing_losers(moves, [("d.go", 4, 4), ("a.go", 5, 6)]) == {0, 1, 2}


def test_a_block_is_found_by_its_rarest_line_and_as_often_as_asked() -> None:
    lines = ["}", "x := 1", "}", "}", "x := 1", "}"]
    index = AddedIndex("a.go", text(lines), [(0, 0, 1, 6)])
    assert index.blocks(["x := 1", "}"]) == [(2, 3), (5, 6)]
    assert index.blocks(["}"], 2) == [(1, 1), (3, 3)]


def test_a_crowd_of_places_is_not_looked_into() -> None:
    from compat_register.following.moves import CROWD, NAMED

    old = text(["func f() error {", "\tcall()", "\treturn nil, err", "}"])
    added = ["func f() error {", "\tcall()", "}"]
    for n in range(CROWD + 1):
        added += [f"func g{n}() error {{", "\treturn nil, err", "}"]
    index = AddedIndex("a.go", text(added), [(0, 0, 4, len(added) - 3)])
    found = decide(old, index, 3, 3, None)
    assert (found.kind, found.flags) == ("gone", ("ambiguous",))
    assert len(found.candidates) == NAMED and f"more than {CROWD}" in found.note


def test_evidence_the_old_file_repeats_is_none() -> None:
    """Two lines with letters enough moved together, but the old file holds the same two
    lines elsewhere: they tell no copy from the other."""
    pair = ["if err != nil {", "return nil, err"]
    once = text(["a()", *pair, "b()", "c()"])
    twice = text(["a()", *pair, "b()", *pair])
    added = AddedIndex("a.go", text(["x()", *pair, "y()"]), [(0, 0, 2, 2)])
    assert added.evidence(once.keys, 2, 2, (2, 2))
    assert not added.evidence(twice.keys, 2, 2, (2, 2))

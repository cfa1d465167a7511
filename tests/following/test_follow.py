"""`follow` on real git histories: moves need evidence, renames stay in their revision
folder, changed lines hold the best match, and a range gives what its steps give."""

from __future__ import annotations

from pathlib import Path

import pytest

import builder
from compat_register.following.follow import Followed, follow
from compat_register.model.registers import Citation
from compat_register.sources.checkout import Checkout
from gitrepo import GitRepo

REVISIONS = ("2025-06-18", "2025-11-25", "draft")


def cite(path: str, start: int, end: int | None = None, entry: str = "T-01") -> Citation:
    end = end or start
    lines = f"{start}-{end}" if end != start else str(start)
    where = ("t.yaml", start, 1)  # file, line, col
    return Citation(
        f"{path}:{lines}", None, path, start, end, None, False, "t", entry, *where,
        ("x",), f"{path}:{lines}", source="up", repo_path=path,
    )  # fmt: skip


def run(repo: GitRepo, old: str, new: str, cited: list[Citation]) -> list[Followed]:
    with Checkout(repo.root) as checkout:
        return follow(checkout, old, new, cited, revisions=REVISIONS)


def where(f: Followed) -> tuple[str, str, tuple[int, int] | None]:
    return f.kind, f.path, f.lines


CLIENT = """package mcp

func (c *Client) send(sessionID string) error {
\tif sessionID != "" {
\t\tc.header.Set("Mcp-Session-Id", sessionID)
\t}
\treturn c.post()
}
"""

SERVER = """
func (s *Server) handle(req *Request) error {
\tsessionID := req.Header.Get("Mcp-Session-Id")
\tif sessionID != "" {
\t\treturn s.resume(sessionID)
\t}
\treturn nil
}
"""


def test_a_twin_elsewhere_does_not_take_a_line_edited_in_place(tmp_path: Path) -> None:
    repo, old = builder.source(tmp_path / "up", {"client.go": CLIENT})
    edited = CLIENT.replace('if sessionID != "" {', 'if sessionID != "" && c.resumable {')
    repo.write("client.go", edited + SERVER)  # the same line, unedited, in a new function
    new = repo.commit()
    [found] = run(repo, old, new, [cite("client.go", 4)])
    assert where(found) == ("changed", "client.go", (4, 4))
    assert "edited" in found.note
    assert found.flags == ()


def test_a_line_deleted_with_a_twin_added_elsewhere_is_flagged_not_moved(tmp_path: Path) -> None:
    repo, old = builder.source(tmp_path / "up", {"client.go": CLIENT})
    repo.write("client.go", CLIENT.replace(CLIENT.splitlines(True)[3], "") + SERVER)
    new = repo.commit()
    [found] = run(repo, old, new, [cite("client.go", 4)])
    assert found.kind in ("changed", "gone")
    assert found.flags == ("ambiguous",)
    assert [c[:3] for c in found.candidates] == [("client.go", 11, 11)]
    assert found.lines != (11, 11)


HELPER = """func helper(name string) string {
\treturn strings.ToUpper(name) + suffix
}
"""


def test_a_block_added_in_two_places_is_ambiguous(tmp_path: Path) -> None:
    repo, old = builder.source(tmp_path / "up", {"a.go": f"package a\n\n{HELPER}\nvar x = 1\n"})
    repo.write("a.go", "package a\n\nvar x = 1\n")
    repo.write("b.go", f"package a\n\n{HELPER}")
    repo.write("c.go", f"package a\n\n// A copy.\n{HELPER}")
    new = repo.commit()
    [found] = run(repo, old, new, [cite("a.go", 3, 5)])
    assert (found.kind, found.lines, found.flags) == ("gone", None, ("ambiguous",))
    assert sorted(c[:3] for c in found.candidates) == [("b.go", 3, 5), ("c.go", 4, 6)]
    assert "several places hold it" in found.note


def test_a_block_moved_whole_is_reanchored(tmp_path: Path) -> None:
    repo, old = builder.source(tmp_path / "up", {"a.go": f"package a\n\n{HELPER}\nvar x = 1\n"})
    repo.write("a.go", f"package a\n\nvar x = 1\n\n{HELPER}")
    new = repo.commit()
    found = run(repo, old, new, [cite("a.go", 3, 5), cite("a.go", 4)])
    assert [where(f) for f in found] == [
        ("re-anchored", "a.go", (5, 7)),
        ("re-anchored", "a.go", (6, 6)),
    ]


def test_two_citations_are_never_put_on_one_line(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "up")
    text = "package a\n\nvar total = compute(first,\n\tsecond)\n"
    repo.write("a.go", text)
    old = repo.commit()
    repo.write("a.go", "package a\n\nvar total = compute(first, second, third)\n")
    new = repo.commit()
    found = run(repo, old, new, [cite("a.go", 3), cite("a.go", 4, entry="T-02")])
    assert [f.kind for f in found] == ["changed", "changed"]
    placed = [f.lines for f in found if f.lines]
    assert placed == [(3, 3)]  # the better match keeps it; the other points at nothing
    loser = next(f for f in found if f.lines is None)
    assert loser.flags == ("not-found",) and "T-0" in loser.note


BODY = """func (s *Server) start(ctx context.Context) error {
\tlistener, err := net.Listen("tcp", s.address)
\tif err != nil {
\t\treturn fmt.Errorf("listen on %s: %w", s.address, err)
\t}
\treturn s.serve(ctx, listener)
}
"""


def test_a_reindented_moved_block_sends_each_line_to_its_own_place(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "up")
    inner = "".join(BODY.splitlines(True)[1:6])
    repo.write("a.go", f"package a\n\n{BODY}\nfunc other() {{}}\n")
    old = repo.commit()
    wrapped = "".join("\t" + line for line in inner.splitlines(True))
    new_body = "func (s *Server) start(ctx context.Context) error {\n\treturn nil\n}\n"
    repo.write("a.go", f"package a\n\n{new_body}\nfunc other() {{\n\tif ok {{\n{wrapped}\t}}\n}}\n")
    new = repo.commit()
    cited = [cite("a.go", 4), cite("a.go", 5), cite("a.go", 6)]
    found = run(repo, old, new, cited)
    lines = [f.lines for f in found]
    assert len(set(lines)) == 3, found
    with Checkout(repo.root) as checkout:
        text = checkout.read_text(new, "a.go") or []
    for f, wanted in zip(
        found, ("listener, err", "if err != nil", "return fmt.Errorf"), strict=True
    ):
        assert f.lines is not None and wanted in text[f.lines[0] - 1], f


def copy_in_revisions(repo: GitRepo, text: str) -> None:
    for revision in ("2025-06-18", "2025-11-25"):
        repo.write(f"docs/specification/{revision}/basic/index.md", text)


PAGE = "".join(f"Paragraph {n} says what servers MUST do in case {n}.\n\n" for n in range(1, 9))


def test_a_rename_into_a_sibling_revision_folder_is_not_followed_silently(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "up")
    copy_in_revisions(repo, PAGE)
    old = repo.commit()
    # the newer revision's copy gains a line; the older one is converted to .mdx untouched,
    # so git pairs the older page with ... whichever copy is closest
    repo.write("docs/specification/2025-11-25/basic/index.md", PAGE + "New in 2025-11-25.\n")
    repo.commit()
    repo.mv(
        "docs/specification/2025-06-18/basic/index.md",
        "docs/specification/2025-06-18/basic/index.mdx",
    )
    repo.mv(
        "docs/specification/2025-11-25/basic/index.md",
        "docs/specification/2025-11-25/basic/index.mdx",
    )
    new = repo.commit()
    found = run(repo, old, new, [cite("docs/specification/2025-06-18/basic/index.md", 5)])
    assert where(found[0]) == (
        "re-anchored", "docs/specification/2025-06-18/basic/index.mdx", (5, 5)
    )  # fmt: skip


def swap_conversion(repo: GitRepo) -> None:
    """Convert both revisions' pages to .mdx while swapping which copy holds which text,
    so that git's whole-commit pairing crosses the revision folders (as the spec's did)."""
    first = "docs/specification/2025-06-18/basic/index"
    second = "docs/specification/2025-11-25/basic/index"
    text_first = (repo.root / f"{first}.md").read_text()
    text_second = (repo.root / f"{second}.md").read_text()
    repo.rm(f"{first}.md")
    repo.rm(f"{second}.md")
    repo.write(f"{first}.mdx", text_second.replace("MUST", "**MUST**", 1))
    repo.write(f"{second}.mdx", text_first)


def test_md_to_mdx_with_copies_per_revision_stays_in_each_folder(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "up")
    copy_in_revisions(repo, PAGE)
    repo.write("docs/specification/2025-11-25/basic/index.md", PAGE + "Only in the newer one.\n")
    old = repo.commit()
    swap_conversion(repo)
    new = repo.commit()
    with Checkout(repo.root) as checkout:
        paired = checkout.run_git("diff", "-M", "--name-status", old, new)
    assert "2025-06-18/basic/index.md\tdocs/specification/2025-11-25" in paired  # git crosses
    cited = [
        cite("docs/specification/2025-06-18/basic/index.md", 3),
        cite("docs/specification/2025-11-25/basic/index.md", 5),
        cite("docs/specification/2025-11-25/basic/index.md", 17),  # its text went across
    ]
    found = run(repo, old, new, cited)
    assert [where(f) for f in found[:2]] == [
        ("re-anchored", "docs/specification/2025-06-18/basic/index.mdx", (3, 3)),
        ("re-anchored", "docs/specification/2025-11-25/basic/index.mdx", (5, 5)),
    ]
    assert all("same folder and name preferred" in f.note for f in found)
    assert (found[2].kind, found[2].lines) == ("gone", None)
    assert found[2].flags == ("left-revision",)
    assert [c[:3] for c in found[2].candidates] == [
        ("docs/specification/2025-06-18/basic/index.mdx", 17, 17)
    ]
    assert [r[:2] for r in found[0].renames] == [
        ("docs/specification/2025-06-18/basic/index.md",
         "docs/specification/2025-06-18/basic/index.mdx")
    ]  # fmt: skip


def test_a_file_renamed_out_of_its_revision_folder_is_flagged(tmp_path: Path) -> None:
    repo, old = builder.source(tmp_path / "up", {"docs/specification/draft/basic/index.md": PAGE})
    repo.mv("docs/specification/draft/basic/index.md", "docs/specification/2025-11-25/basic/x.md")
    new = repo.commit()
    [found] = run(repo, old, new, [cite("docs/specification/draft/basic/index.md", 5)])
    assert (found.kind, found.lines, found.flags) == ("gone", None, ("left-revision",))
    assert found.candidates == (("docs/specification/2025-11-25/basic/x.md", 5, 5, new),)
    assert "out of its revision folder docs/specification/draft/" in found.note


def history(repo: GitRepo) -> list[str]:
    """Five commits of moves, renames, edits and a split; returns every sha, oldest first."""
    shas = []
    repo.write("src/server.go", f"package a\n\n{BODY}\n{HELPER}\nvar x = 1\n")
    repo.write("src/notes.md", PAGE)
    shas.append(repo.commit("start"))
    repo.write("src/server.go", f"package a\n\n// header\n{BODY}\nvar x = 1\n\n{HELPER}")
    shas.append(repo.commit("helper moved"))
    repo.mv("src/notes.md", "src/guide.md")
    shas.append(repo.commit("renamed"))
    repo.write("src/server.go", f"package a\n\n// header\nvar x = 1\n\n{HELPER}")
    repo.write("src/start.go", f"package a\n\n{BODY}")
    shas.append(repo.commit("split"))
    text = (repo.root / "src/start.go").read_text().replace("s.address, err", "s.addr, err")
    repo.write("src/start.go", text)
    repo.write("src/guide.md", "# Guide\n\n" + (repo.root / "src/guide.md").read_text())
    shas.append(repo.commit("edited"))
    return shas


HISTORY_CITES = [
    ("src/server.go", 3, 9),
    ("src/server.go", 4, 4),
    ("src/server.go", 6, 6),
    ("src/server.go", 11, 13),
    ("src/notes.md", 5, 5),
    ("src/notes.md", 9, 11),
]


def test_one_bump_over_a_range_gives_what_step_by_step_bumps_give(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "up")
    shas = history(repo)
    cited = [cite(p, a, b) for p, a, b in HISTORY_CITES]
    at_once = run(repo, shas[0], shas[-1], cited)
    stepped = cited
    for old, new in zip(shas, shas[1:], strict=False):
        followed = run(repo, old, new, stepped)
        assert all(f.lines for f in followed), followed
        stepped = [cite(f.path, *f.lines) for f in followed if f.lines]  # type: ignore[misc]
    assert [(f.path, f.lines) for f in at_once] == [
        (c.repo_path, (c.start, c.end)) for c in stepped
    ]
    assert [f.kind for f in at_once] == [
        "changed", "re-anchored", "changed", "re-anchored", "re-anchored", "re-anchored"
    ]  # fmt: skip
    assert at_once[0].path == "src/start.go" and "moved to src/start.go" in at_once[0].note


def test_without_the_history_between_the_range_is_one_diff(tmp_path: Path) -> None:
    """A shallow clone holds the two pins and nothing between: one step, the same places for
    what one diff can tell (the split file's lines are found in the file that took them)."""
    repo = GitRepo(tmp_path / "up")
    shas = history(repo)
    shallow = GitRepo(tmp_path / "shallow")
    shallow.git("fetch", "--quiet", "--depth=1", repo.url, shas[0])
    shallow.git("fetch", "--quiet", "--depth=1", repo.url, shas[-1])
    cited = [cite(p, a, b) for p, a, b in HISTORY_CITES]
    with Checkout(shallow.root) as checkout:
        at_once = follow(checkout, shas[0], shas[-1], cited, revisions=REVISIONS)
    deep = run(repo, shas[0], shas[-1], cited)
    for one, walked in zip(at_once, deep, strict=True):
        # the same place, or not placed silently: one diff cannot see a split file's lines
        # that were edited after the split
        assert (one.path, one.lines) == (walked.path, walked.lines) or one.flags, one
    assert at_once[0].flags == ("not-found",)


@pytest.mark.parametrize("deleted", [True, False])
def test_a_split_file_keeps_its_citations(tmp_path: Path, deleted: bool) -> None:
    repo, old = builder.source(tmp_path / "up", {"src/server.go": f"package a\n\n{BODY}\n{HELPER}"})
    if deleted:
        repo.rm("src/server.go")
        repo.write("src/start.go", f"package a\n\n{BODY}")
    else:
        repo.write("src/server.go", f"package a\n\n{BODY}")
    repo.write("src/helper.go", f"package a\n\n// Helpers.\n\n{HELPER}")
    new = repo.commit()
    found = run(repo, old, new, [cite("src/server.go", 11, 13), cite("src/server.go", 12)])
    assert [where(f) for f in found] == [
        ("re-anchored", "src/helper.go", (5, 7)),
        ("re-anchored", "src/helper.go", (6, 6)),
    ]
    assert "moved to src/helper.go" in found[0].note


def test_lines_inserted_between_cited_lines_never_slide_it_onto_a_twin(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "up")
    text = "package p\n\nfunc a() error {\n\tif err != nil {\n\t\treturn err\n\t}\n"
    text += "\treturn nil, nil\n}\n"
    repo.write("a.go", text)
    old = repo.commit()
    repo.write("a.go", text.replace("\t}\n", "\t}\n\tadded_1()\n\tif ok {\n\t}\n", 1))
    new = repo.commit()
    [found] = run(repo, old, new, [cite("a.go", 6, 8)])
    assert where(found) == ("changed", "a.go", (6, 11))
    assert found.note == "lines were inserted between the cited lines"


def test_a_bare_brace_beside_a_deleted_twin_is_flagged_not_vouched_for(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "up")
    body = "func a() {\n\tif x {\n\t\ty()\n\t}\n\tif z {\n\t\tw()\n\t}\n}\n"
    repo.write("a.go", "package p\n\n" + body)
    old = repo.commit()
    repo.write("a.go", "package p\n\n" + body.replace("\tif z {\n\t\tw()\n\t}\n", ""))
    new = repo.commit()
    with Checkout(repo.root) as checkout:
        deleted = checkout.run_git("diff", "--unified=0", old, new)
    assert "-\t}" in deleted  # one of the two `\t}` went: the diff cannot say which
    for line in (6, 9):  # closes `if x`; closes `if z`
        [found] = run(repo, old, new, [cite("a.go", line)])
        assert found.kind in ("changed", "gone") and found.flags or found.kind == "gone", found
    [kept] = run(repo, old, new, [cite("a.go", 5)])  # `\t\ty()`: nothing to confuse it with
    assert where(kept) == ("carried", "a.go", (5, 5))


SAME_BODY = "\tresult := compute(first, second)\n\treturn finish(result)\n"
TWO_COPIES = (
    f"package a\n\nfunc One() error {{\n{SAME_BODY}}}\n\nfunc Two() error {{\n{SAME_BODY}}}\n"
    + "".join(f"var v{n} = {n}\n" for n in range(20))
)
SHARED = f"package a\n\n// Shared.\nfunc Shared() error {{\n{SAME_BODY}}}\n"


ONLY_ONE = TWO_COPIES.replace(f"func Two() error {{\n{SAME_BODY}}}\n", "")
ONLY_TWO = TWO_COPIES.replace(f"func One() error {{\n{SAME_BODY}}}\n\n", "")


@pytest.mark.parametrize("deleted", [True, False])
def test_two_copies_moved_into_one_new_file_are_not_put_on_one_line(
    tmp_path: Path, deleted: bool
) -> None:
    """Two files' equal function bodies, both cited; the step deletes both (with their
    files, or from them) and adds the body once in a new file: two citations cannot both
    be those lines and nothing tells which, so neither is placed; each is flagged with the
    place as a candidate. (The text other files held already says so first, `_own_text`;
    two moves onto one place, `oneline.crossing_losers`, would say it next.)"""
    repo, old = builder.source(
        tmp_path / "up", {"a.go": ONLY_ONE, "b.go": ONLY_TWO.replace("var v", "var w")}
    )
    for path, kept in (("a.go", "var v"), ("b.go", "var w")):
        if deleted:
            repo.rm(path)
        else:
            repo.write(path, "package a\n\n" + "".join(f"{kept}{n} = {n}\n" for n in range(20)))
    repo.write("c.go", SHARED)
    new = repo.commit()
    found = run(repo, old, new, [cite("a.go", 4, 5), cite("b.go", 4, 5, entry="T-02")])
    assert [(f.kind, f.lines) for f in found] == [("gone", None)] * 2, found
    for f in found:
        assert f.flags == ("ambiguous",) and ("c.go", 5, 6, new) in f.candidates


@pytest.mark.parametrize("copies", [2, 1])
def test_one_of_two_copies_moved_into_a_new_file_is_flagged(tmp_path: Path, copies: int) -> None:
    """The same step with one of the bodies cited: when the old file held the body twice,
    nothing tells which copy went there (flagged); a body it held once is followed there."""
    repo, old = builder.source(tmp_path / "up", {"a.go": TWO_COPIES if copies == 2 else ONLY_ONE})
    repo.rm("a.go")
    repo.write("c.go", SHARED)
    new = repo.commit()
    [found] = run(repo, old, new, [cite("a.go", 4, 5)])
    if copies == 2:
        assert (found.kind, found.flags) == ("gone", ("ambiguous",)), found
    else:
        assert (found.kind, found.path, found.lines) == ("re-anchored", "c.go", (5, 6)), found


def test_a_move_into_another_file_does_not_land_on_a_cited_line_there(tmp_path: Path) -> None:
    """A body deleted from one file, whose text the step wrote over another file's cited
    lines (edited into it): the citation of those lines keeps them, the moved one gives way."""
    repo = GitRepo(tmp_path / "up")
    repo.write("a.go", ONLY_ONE)
    before = "\tresult := compute(first)\n\treturn finish(result, nil)\n"
    repo.write("c.go", SHARED.replace(SAME_BODY, before))
    old = repo.commit()
    repo.write("a.go", "package a\n\n" + "".join(f"var v{n} = {n}\n" for n in range(20)))
    repo.write("c.go", SHARED)
    new = repo.commit()
    found = run(repo, old, new, [cite("a.go", 4, 5), cite("c.go", 5, 6, entry="T-02")])
    assert (found[1].kind, found[1].lines) == ("changed", (5, 6))
    assert (found[0].kind, found[0].flags) == ("gone", ("ambiguous",)), found[0]
    assert ("c.go", 5, 6, new) in found[0].candidates
    assert "where other cited lines went" in found[0].note


def test_crowded_text_is_flagged_not_sought_everywhere(tmp_path: Path) -> None:
    """A deleted `return nil, err` whose text the step added at more places than
    `moves.CROWD`: none of them is looked into, the citation is flagged with the first few
    as candidates."""
    from compat_register.following.moves import CROWD, NAMED

    repo, old = builder.source(
        tmp_path / "up", {"a.go": "package a\n\nfunc f() error {\n\tcall()\n\treturn nil, err\n}\n"}
    )
    repo.write("a.go", "package a\n\nfunc f() error {\n\tcall()\n}\n")
    blocks = "".join(f"func g{n}() error {{\n\treturn nil, err\n}}\n" for n in range(CROWD + 1))
    repo.write("b.go", f"package a\n\n{blocks}")
    new = repo.commit()
    [found] = run(repo, old, new, [cite("a.go", 5)])
    assert (found.kind, found.flags) == ("gone", ("ambiguous",)), found
    assert len(found.candidates) == NAMED and f"more than {CROWD} places" in found.note


def test_a_pair_the_old_file_repeats_is_no_evidence_of_a_move(tmp_path: Path) -> None:
    """`if err != nil {` and its `return nil, err` deleted, and the same pair added in
    another function: enough letters for a move, but the old file holds the pair again and
    again, so nothing says this copy went there. Flagged, never re-anchored."""
    check = "\tif err != nil {\n\t\treturn nil, err\n\t}\n"
    repo = GitRepo(tmp_path / "up")
    old_text = (
        f"package a\n\nfunc A() error {{\n\terr := a()\n{check}\terr = b()\n{check}"
        f"\treturn nil\n}}\n\nfunc B() error {{\n\terr := c()\n{check}\treturn nil\n}}\n"
    )
    repo.write("a.go", old_text)
    old = repo.commit()
    new_text = (
        f"package a\n\nfunc A() error {{\n\terr := a()\n{check}\terr = b()\n\treturn nil\n}}\n"
        f"\nfunc B() error {{\n\terr := c()\n{check}\terr = d()\n{check}\treturn nil\n}}\n"
    )
    repo.write("a.go", new_text)
    new = repo.commit()
    [found] = run(repo, old, new, [cite("a.go", 10, 11)])  # A's second check
    assert found.kind != "re-anchored" or found.flags, found
    assert found.kind in ("changed", "gone") and found.flags == ("ambiguous",), found

"""Property: `register bump` is never silently wrong (issue 18), against a truth it cannot see.

Random Go-like and Markdown files, random edits over a few commits of a real git
repository, citations at random lines; the generator (tests/worlds.py) knows where every
original line went. After a bump, every citation bump calls ok (carried or re-anchored) must
name the very lines it cited, each holding the old text by the file kind's rule; anything
else must be flagged. So: never ok on different text, never ok on a twin (a line of the
same text) while the original survives edited or is gone (bar a chain of diff sliders, one
per commit: twins where a minimal diff of each commit puts the cited lines, which content
cannot tell from the truth, `_slides_to`), never two citations merged onto one line, never
ok in another revision's folder. And one bump over the range agrees with one bump per
commit. `REGISTER_PROPERTY_EXAMPLES` sets how many examples each property draws in the
long tier (`pytest --long`); the default tier draws a tenth of them.
"""

from __future__ import annotations

import functools
import itertools
import os
import random
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, Phase, assume, example, given, settings
from hypothesis import strategies as st

import builder
import tiers
from compat_register import api
from gitrepo import GitRepo
from registerfiles import register_head
from worlds import EDITS, REVISIONS, Line, World, apply, counts, make_world, revision, same_text

OK = ("carried", "re-anchored")
EXAMPLES = int(os.environ.get("REGISTER_PROPERTY_EXAMPLES", "100"))
"""Examples per property in the long tier (docs/pins.md): 100, what CI runs (about a minute
for the seven on two cores; 200 catch no more of the rules switched off), unless the
variable says more."""
PROPERTY = settings(
    max_examples=tiers.examples(EXAMPLES),
    deadline=None,
    derandomize=True,  # the same examples on every run: a suite that is red is red for all
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a repository per try is slow
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Cited = tuple[str, int, int]


@dataclass(frozen=True)
class Outcome:
    kind: str
    path: str
    lines: tuple[int, int] | None
    flags: tuple[str, ...] = ()


@dataclass
class History:
    """A repository built from a world and its edits, and what the citations cite."""

    repo: GitRepo
    commits: list[str]
    worlds: list[World]
    cited: list[Cited]


def edits_of(kinds: Sequence[str]) -> st.SearchStrategy[list[list[tuple[str, int, int, int]]]]:
    """A few commits, each a few edits: (kind, which file, where, how many lines)."""
    edit = st.tuples(
        st.sampled_from(list(kinds)),
        st.integers(0, 50),
        st.integers(0, 400),
        st.integers(1, 4),
    )
    return st.lists(st.lists(edit, min_size=1, max_size=4), min_size=1, max_size=3)


def build(root: Path, world: World, commits: list[list[tuple[str, int, int, int]]]) -> History:
    repo = GitRepo(root / "up")
    worlds = [world.copy()]
    shas = [_commit(repo, world, {}, "first")]
    for number, edits in enumerate(commits):
        before = dict(world.files)
        for edit in edits:
            apply(world, *edit)
        shas.append(_commit(repo, world, before, f"edits {number}"))
        worlds.append(world.copy())
    return History(repo, shas, worlds, [])


def _commit(repo: GitRepo, world: World, before: dict[str, object], message: str) -> str:
    for path in before:
        if path not in world.files:
            repo.rm(path)
    for path in world.files:
        repo.write(path, world.text(path))
    return repo.commit(message)


def cite(world: World, rng: random.Random, count: int) -> list[Cited]:
    """`count` distinct ranges (mostly single lines) starting on a line that is not blank,
    a third of them on a line whose text occurs more than once in its file."""
    found: dict[Cited, None] = {}
    paths = sorted(p for p, lines in world.files.items() if any(x.text.strip() for x in lines))
    for _ in range(count * 3):
        path = rng.choice(paths)
        lines = world.files[path]
        texts = Counter(line.text for line in lines)
        filled = [n for n, line in enumerate(lines, 1) if line.text.strip()]
        twins = [n for n in filled if texts[lines[n - 1].text] > 1]
        start = rng.choice(twins if twins and rng.random() < 1 / 3 else filled)
        end = min(len(lines), start + rng.randint(1, 3)) if rng.random() < 0.25 else start
        found[(path, start, end)] = None
        if len(found) == count:
            break
    return list(found)


def registers(root: Path, history: History) -> Path:
    text = register_head()
    for number, first in enumerate(range(0, len(history.cited), 10), 1):
        text += (
            f"  - id: T-{number:02d}\n    title: E{number}\n    what: w.\n"
            "    status: {state: missing}\n    value: {level: low}\n    effort: {size: S}\n"
            "    risk: r.\n    sources:\n"
        )
        for path, start, end in history.cited[first : first + 10]:
            text += f"      - {path}:{start}" + (f"-{end}\n" if end > start else "\n")
    sources = builder.up_sources(history.commits[0], claims=["'**'"], revisions=REVISIONS)
    return builder.registers(root / "registers", sources, {"t.yaml": text})


def bump_through(root: Path, history: History, targets: list[str]) -> list[Outcome]:
    """Each citation's outcome after bumping to each target in turn (flagged if any step
    flagged it, with every step's flags), in the order cited."""
    folder = registers(root, history)
    environ = {"REGISTER_SOURCE_UP": str(history.repo.root)}
    state: dict[object, Outcome] = {}
    order: list[object] = []
    for target in targets:
        bumped = api.bump(folder, "up", target, settings=api.Settings.read(environ))
        result = bumped.bump
        assert result is not None, [str(d) for d in bumped.diagnostics]
        for followed in result.followed:
            key = (followed.citation.entry, followed.citation.field)
            if key not in state:
                order.append(key)
            was = state.get(key, Outcome("carried", "", None))
            kind = followed.kind if was.kind in OK else was.kind
            flags = tuple(dict.fromkeys(was.flags + followed.flags))
            state[key] = Outcome(kind, followed.path, followed.lines, flags)
    return [state[key] for key in order]


# --- the oracle ---------------------------------------------------------------------------


def wrong(history: History, outcomes: list[Outcome]) -> list[str]:
    """Every citation bump calls ok that is not at its own lines, holding their text: in
    its revision folder, the same text by the rule, and the same lines (identities) bar
    those with nothing the rule compares (blank lines, a Markdown fence), which the rule
    alone judges, and bar a chain of diff sliders (`_slides_to`); and no two citations put
    on one line that did not share one."""
    old, new = history.worlds[0], history.worlds[-1]
    where = new.where()
    problems = []
    for cited, outcome in zip(history.cited, outcomes, strict=True):
        if outcome.kind not in OK:
            continue
        assert outcome.lines is not None
        path, start, end = cited
        place = (outcome.path, *outcome.lines)
        said = f"{path}:{start}-{end} -> {outcome.kind} {outcome.path}:{outcome.lines}"
        lines, there = _lines(old, cited), _lines(new, place)
        texts = [line.text for line in lines], [line.text for line in there]
        if revision(path) != revision(outcome.path):
            problems.append(f"{said}: ok in another revision's folder")
        elif not same_text(path, *texts) or not same_text(outcome.path, *texts):
            problems.append(f"{said}: ok on other text: {texts[0]} -> {texts[1]}")
        elif _filled(path, lines) != _filled(outcome.path, there) and not _slides_to(
            history.worlds, cited, place
        ):
            now = [where.get(line.ident, "gone") for line in lines if counts(path, line.text)]
            problems.append(f"{said}: ok on a twin of {texts[0]}; its lines are at {now}")
    return problems + _merged(history.cited, outcomes)


def _merged(cited: list[Cited], outcomes: list[Outcome]) -> list[str]:
    """Two citations called ok on one line whose cited ranges did not share a line (a slider
    may put a citation on a twin, never two on one)."""
    ok = [(c, o) for c, o in zip(cited, outcomes, strict=True) if o.kind in OK and o.lines]
    return [
        f"{a} and {b}: both ok on {oa.path}:{oa.lines} and {ob.lines}"
        for i, (a, oa) in enumerate(ok)
        for b, ob in ok[i + 1 :]
        if oa.path == ob.path
        and _meet(oa.lines, ob.lines)  # type: ignore[arg-type]
        and not (a[0] == b[0] and _meet(a[1:], b[1:]))
    ]


def _meet(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _copies_trade_places(edits: list[tuple[str, int, int, int]]) -> bool:
    """Whether one commit syncs the two copies of each page (`to_mdx` with an even `at`:
    each page then holds the other folder's old text) and moves a page beside its copy
    (`to_sibling`): the moved page then holds the old text of the page it joins, so by
    content the lines stayed in their folder, where git pairs them and blame reads them
    from, while the generator's identities say they left. No reading of the content can
    tell the two apart (seeds 42 and 1661 of a 500-example hunt), so such a commit is not
    drawn."""
    swaps = any(kind == "to_mdx" and at % 2 == 0 for kind, _, at, _ in edits)
    return swaps and any(kind == "to_sibling" for kind, *_ in edits)


def _lines(world: World, place: Cited) -> list[Line]:
    path, start, end = place
    return world.files.get(path, [])[start - 1 : end]


def _slides_to(worlds: list[World], cited: Cited, place: Cited) -> bool:
    """Whether some chain of diff sliders, one per commit, takes the cited lines to `place`.

    bump follows a citation commit by commit, each commit read through its own diff, as
    git blame does. Within one diff, a slider cannot be told from the truth by content
    (`_slides`): in `if err != nil {` code deleting one copy reads as deleting any other.
    So at each commit, from each place the citation may be, it may go where that commit
    put its lines (their identities) or where a minimal diff of that commit keeps them.
    A twin that no such chain reaches is still wrong."""
    places = {cited}
    for before, after in itertools.pairwise(worlds):
        places = {found for here in places for found in _next_places(before, after, here)}
    path, last = place[0], worlds[-1]
    return any(
        here[0] == path and _filled(path, _lines(last, here)) == _filled(path, _lines(last, place))
        for here in places
    )


def _next_places(before: World, after: World, place: Cited) -> set[Cited]:
    """Where one commit may have put the lines at `place`: where their identities went (if
    into one file), and each slider of a minimal diff of their file to each of its
    successors (`_successors`)."""
    path, start, end = place
    lines = before.files[path]
    found = {
        (other, *slid)
        for other in _successors(before, after, path)
        for slid in _slides(_texts(lines), _texts(after.files[other]), start, end)
    }
    now = after.where()
    went = [now[line.ident] for line in lines[start - 1 : end] if line.ident in now]
    if went and len({file for file, _ in went}) == 1:
        found.add((went[0][0], min(n for _, n in went), max(n for _, n in went)))
    return found


def _successors(before: World, after: World, path: str) -> list[str]:
    """The files a commit may have made of `path`: itself, those holding some of its lines
    (renamed, split), and any holding its old text (`_texts`). Such a copy is the file by
    content, whatever the identities say (two copies of a page synced, then one moved
    beside the other): git pairs it as a rename and blame reads its lines from it."""
    idents = {line.ident for line in before.files[path]}
    text = _texts(before.files[path])
    return [
        other
        for other, lines in after.files.items()
        if other == path or any(line.ident in idents for line in lines) or _texts(lines) == text
    ]


def _texts(lines: list[Line]) -> tuple[str, ...]:
    """The lines as `git blame -w` compares them: whitespace aside (`\t}` is `\t\t}`)."""
    return tuple(" ".join(line.text.split()) for line in lines)


def _slides(a: tuple[str, ...], b: tuple[str, ...], start: int, end: int) -> list[tuple[int, int]]:
    """Every place in `b` where a minimal diff of `a` to `b` keeps lines `start`-`end` of
    `a`: the same lines that some longest common subsequence of the two matches line for
    line. A move across other lines costs matches: not a slider."""
    size = end - start + 1
    head, tail = _lcs_tables(a, b)
    return [
        (p, p + size - 1)
        for p in range(1, len(b) - size + 2)
        if b[p - 1 : p - 1 + size] == a[start - 1 : end]
        and head[start - 1][p - 1] + size + tail[end][p - 1 + size] == head[-1][-1]
    ]


@functools.lru_cache(maxsize=256)
def _lcs_tables(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[list[list[int]], ...]:
    """The lengths of longest common subsequences of the heads of `a` and `b`
    (`head[i][j]`: of a[:i] and b[:j]) and of their tails (`tail[i][j]`: of a[i:] and b[j:]).
    Kept per pair of texts: each commit's pair is asked once per place."""
    backwards = _lcs_heads(a[::-1], b[::-1])
    return _lcs_heads(a, b), [row[::-1] for row in backwards[::-1]]


def _lcs_heads(a: tuple[str, ...], b: tuple[str, ...]) -> list[list[int]]:
    table = [[0] * (len(b) + 1)]
    for x in a:
        above, row = table[-1], [0]
        for j, y in enumerate(b, 1):
            row.append(above[j - 1] + 1 if x == y else max(row[j - 1], above[j]))
        table.append(row)
    return table


def _filled(path: str, lines: list[Line]) -> list[int]:
    return [line.ident for line in lines if counts(path, line.text)]


def left_revision_is_told(history: History, outcomes: list[Outcome]) -> list[str]:
    """`left-revision` tells the truth. A citation whose lines all went into another
    revision's folder is flagged: `left-revision`, or whatever flagged it on the way (a
    move it could not decide before its file left); a line with nothing the rule compares
    (a Markdown fence) says nothing of where it went and is left out. One whose lines
    stayed in their file with their text, commit after commit, is not flagged
    `left-revision`: of a page renamed `.md` -> `.mdx` beside its copy's, git may pair it
    with the copy, and the same folder and name are preferred (docs/pins.md, Renames)."""
    lived = [_lived(world) for world in history.worlds]
    problems = []
    for cited, outcome in zip(history.cited, outcomes, strict=True):
        own, lines = revision(cited[0]), _lines(history.worlds[0], cited)
        steps = [[life.get(line.ident) for line in lines] for life in lived]
        counted = [
            p for line, p in zip(lines, steps[-1], strict=True) if counts(cited[0], line.text)
        ]
        if counted and {revision(p[0]) if p else None for p in counted}.isdisjoint({own, None}):
            if not outcome.flags:
                problems.append(f"{cited} went to {steps[-1]}: {outcome.kind}, not flagged")
        elif own and "left-revision" in outcome.flags and _stayed(cited[0], lines, steps):
            problems.append(f"{cited} stayed in {own} as it was: {outcome.kind} {outcome.flags}")
    return problems


def _stayed(path: str, lines: list[Line], steps: list[list[tuple[str, str] | None]]) -> bool:
    """Whether `lines` were in `path` (or `path` renamed `.md` -> `.mdx`) with their text
    at every commit."""
    texts = [line.text for line in lines]
    stem = path.rpartition(".")[0]
    return all(
        all(place is not None and place[0].rpartition(".")[0] == stem for place in step)
        and same_text(path, texts, [place[1] for place in step if place is not None])
        for step in steps
    )


def _lived(world: World) -> dict[int, tuple[str, str]]:
    """Identity -> (path, text) of every line."""
    return {line.ident: (path, line.text) for path, lines in world.files.items() for line in lines}


def untouched_are_ok(history: History, outcomes: list[Outcome]) -> list[str]:
    """A citation of a file no commit changed is carried, so the property cannot pass by
    flagging everything."""
    first = history.worlds[0]
    return [
        f"{cited} in an unchanged file: {outcome.kind}"
        for cited, outcome in zip(history.cited, outcomes, strict=True)
        if all(w.files.get(cited[0]) == first.files[cited[0]] for w in history.worlds)
        and outcome.kind != "carried"
    ]


def check(
    seed: int,
    commits: list[list[tuple[str, int, int, int]]],
    shape: tuple[int, int, int],
    routes: bool = False,
) -> None:
    assume(not any(_copies_trade_places(edits) for edits in commits))
    rng = random.Random(seed)
    world = make_world(rng, *shape)
    with tempfile.TemporaryDirectory(prefix="never-wrong-") as tmp:
        root = Path(tmp)
        history = build(root, world, commits)
        history.cited = cite(history.worlds[0], rng, 40)
        (root / "range").mkdir()
        ranged = bump_through(root / "range", history, [history.commits[-1]])
        problems = wrong(history, ranged) + untouched_are_ok(history, ranged)
        problems += left_revision_is_told(history, ranged)
        if routes:
            (root / "steps").mkdir()
            stepped = bump_through(root / "steps", history, history.commits[1:])
            problems += [f"steps: {p}" for p in wrong(history, stepped)]
            problems += [f"steps: {p}" for p in left_revision_is_told(history, stepped)]
            problems += [
                f"{cited}: one bump {a}, step by step {b}"
                for cited, a, b in zip(history.cited, ranged, stepped, strict=True)
                if a.kind in OK and b.kind in OK and (a.path, a.lines) != (b.path, b.lines)
            ]
    assert not problems, "\n".join(problems[:8] + [f"({len(problems)} in all)"])


# --- the properties -----------------------------------------------------------------------

SEEDS = st.integers(0, 2**16)


@PROPERTY
@given(SEEDS, edits_of(["pointer", "underscore", "rewrite", "insert", "delete"]))
@example(4250, [[("delete", 23, 399, 4)]])  # a diff slider: a twin slides into the range
def test_code_edits_are_flagged_never_ok(seed: int, commits: list) -> None:
    check(seed, commits, (3, 0, 0))


@PROPERTY
@given(SEEDS, edits_of(["delete", "insert", "rewrite"]))
def test_deleted_or_edited_lines_never_land_on_a_twin(seed: int, commits: list) -> None:
    check(seed, commits, (3, 1, 0))


@PROPERTY
@given(SEEDS, edits_of(["move", "reindent", "delete", "insert", "rewrite"]))
# Sliders one commit at a time whose chain is no slider of the whole range: pkg/f0.go:25
# (`\treturn nil, nil`) slides in the last commit, pkg/f0.go:24 in the first and the last.
@example(4, [[("move", 30, 167, 4), ("move", 49, 321, 3), ("move", 3, 44, 1)]] * 3)
@example(
    159,
    [
        [("move", 18, 52, 2), ("insert", 12, 337, 3)],
        [("move", 32, 186, 2), ("rewrite", 8, 68, 3), ("insert", 35, 378, 2)]
        + [("move", 30, 229, 4)],
        [("reindent", 18, 141, 3), ("move", 30, 229, 4), ("rewrite", 12, 300, 1)],
    ],
)
# `if err != nil {` with its `return nil, err` added where a block moved: the pair the old
# file repeats is no evidence that this copy went there (moves.AddedIndex.evidence).
@example(7682, [[("delete", 35, 398, 2), ("move", 38, 340, 4)]])
def test_moved_and_reindented_blocks(seed: int, commits: list) -> None:
    check(seed, commits, (2, 2, 0))


@PROPERTY
@given(SEEDS, edits_of(["unmark", "underscore", "pointer", "rewrite", "insert", "delete"]))
def test_markdown_edits(seed: int, commits: list) -> None:
    check(seed, commits, (0, 3, 0))


@PROPERTY
@given(SEEDS, edits_of(["to_mdx", "to_sibling", "rewrite", "insert", "delete"]))
def test_renames_into_sibling_revision_folders(seed: int, commits: list) -> None:
    check(seed, commits, (0, 0, 3))


@PROPERTY
@given(SEEDS, edits_of(["split", "rename", "rewrite", "insert", "move"]))
@example(  # periodic Go: a deleted copy of `return nil, err` was moved onto a far twin
    332,
    [
        [("move", 18, 25, 3), ("insert", 12, 1, 2), ("rename", 24, 173, 3)]
        + [("rewrite", 25, 304, 4)],
        [("split", 8, 67, 3), ("rewrite", 6, 240, 4), ("split", 22, 253, 2)]
        + [("move", 2, 400, 3)],
    ],
)
def test_split_and_renamed_files(seed: int, commits: list) -> None:
    check(seed, commits, (2, 2, 0))


@PROPERTY
@given(SEEDS, edits_of(list(EDITS)))
def test_one_answer_whatever_the_route(seed: int, commits: list) -> None:
    check(seed, commits, (2, 1, 2), routes=True)


# --- a case the properties do not reach ---------------------------------------------------

SLIDER_OLD = [
    "package p",
    "",
    "func a() error {",
    "\tif err := f(); err != nil {",
    "\t\treturn err",
    "\t}",
    "\treturn nil",
    "}",
    "",
    "// b is gone.",
    "func b() string {",
    '\treturn "b"',
    "}",
]


def one_commit(
    root: Path, before: World, after: World, cited: list[Cited]
) -> tuple[list[str], list[Outcome]]:
    """What is wrong after bumping over one commit from `before` to `after`, and each
    citation's outcome."""
    repo = GitRepo(root / "up")
    first = _commit(repo, before, {}, "first")
    second = _commit(repo, after, dict(before.files), "second")
    history = History(repo, [first, second], [before, after], cited)
    outcomes = bump_through(root, history, [second])
    return wrong(history, outcomes), outcomes


def test_a_deleted_functions_brace_is_not_carried_onto_its_neighbour(tmp_path: Path) -> None:
    """The last function of a file deleted, the one above it edited: `git diff` deletes
    lines 7-12 and keeps line 13 as context, though line 8 (`}` too) is the one that stayed
    (either `}` would make the same diff: a slider, which the properties accept). The
    deleted function's brace must not be ok on its neighbour's: a bare `}` beside a run of
    deleted lines of the same text is flagged (docs/pins.md, Lines that say nothing on
    their own)."""
    world = World()
    world.files["a.go"] = old = [world.fresh(text) for text in SLIDER_OLD]
    later = world.copy()
    edited = [later.fresh("\tv, err := g()"), later.fresh("\tif err != nil {")]
    later.files["a.go"] = [
        *old[:3],
        *edited,
        old[4],
        old[5],
        later.fresh("\treturn use(v)"),
        old[7],
    ]
    problems, (brace, _) = one_commit(tmp_path, world, later, [("a.go", 13, 13), ("a.go", 8, 8)])
    assert not problems
    assert brace.kind not in OK and "ambiguous" in brace.flags, brace


REINDENTED = {
    "a.go": [
        "package p",
        "",
        "func a() error {",
        "\tif err != nil {",
        "\t\treturn nil, err",
        "\t}",
        "\tif err != nil {",
        "\t\treturn nil, err",
        "\t}",
        "}",
    ],
    "a.md": ["---", "title: P0", "---", "", "# P0", "", "Text here."],
}


def test_a_reindented_block_keeps_each_citation_on_its_own_twin(tmp_path: Path) -> None:
    """A block of repeated lines re-indented, nothing else: the same text by the rule,
    every line where it was; each citation stays on its own line, not on the first twin."""
    world = World()
    for path, texts in REINDENTED.items():
        world.files[path] = [world.fresh(text) for text in texts]
    later = world.copy()
    for path, (start, end, unit) in {"a.go": (3, 9, "\t"), "a.md": (0, 3, "  ")}.items():
        for i in range(start, end):
            line = later.files[path][i]
            later.files[path][i] = Line(line.ident, unit + line.text)
    cited = [("a.go", 8, 8), ("a.go", 5, 5), ("a.go", 7, 9), ("a.md", 3, 3), ("a.md", 1, 1)]
    assert not one_commit(tmp_path, world, later, cited)[0]

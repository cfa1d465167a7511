"""Benchmark: `register bump` on real history against a ground truth built by `git blame`.

    python bench/truth.py [--impl CLONE] [--spec CLONE] [--citations 1500] [--show 5]

CLONE is a local clone (`git clone URL DIR`) of github.com/modelcontextprotocol/go-sdk
(--impl, or $TRUTH_IMPL) and of github.com/modelcontextprotocol/modelcontextprotocol (--spec,
or $TRUTH_SPEC); a history whose clone is not given, or lacks the commits, is skipped.

- go-sdk, an implementation: September 2025, 90 first-parent commits (a617dce..49047ae);
  the cited lines are in `.go` files.
- the specification: 8 first-parent commits around the merge that moved the spec to
  Mintlify and turned every `.md` into `.mdx` (30760fc..e611c18); docs/specification holds
  a near-identical copy of each page per revision folder.

At the old commit, --citations lines are picked at random (fixed seed) over the files, a
third of them on short lines that occur twice or more in their file (`}`, `return nil,
err`, `---`), a fifth of them ranges of 2-4 lines; one register set cites them all. It is
bumped to the new commit in one bump (route `range`) and, on a second copy, one first-parent
commit at a time (route `steps`). Each citation's outcome is compared with the truth of
bench/blametruth.py:

- exact: bump said ok (carried or re-anchored) and put it where blame says its lines are;
- flagged: bump flagged it (changed, gone, ...) and blame says its lines changed;
- silently wrong: bump said ok, but at another place, or blame says its lines changed;
- false alarm: bump flagged it, but blame finds its lines unchanged;
- undecided: bump said ok at one of several places the truth cannot choose between.

Target: silently wrong 0. The figures are in docs/pins.md.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from blametruth import Truth, build, compared, git, read_lines, same_block  # noqa: E402

from compat_register import api  # noqa: E402

ENTRY_CITATIONS = 10
ENTRIES = 90  # per register
OK_KINDS = ("carried", "re-anchored")
Cited = tuple[str, int, int]
"""A path and its first and last line."""


@dataclass(frozen=True)
class History:
    name: str
    option: str
    env: str
    old: str
    new: str
    under: str
    suffixes: tuple[str, ...]
    revisions: str
    """sources.yaml's `revisions:`, the spec's revision folders (a citation must not leave
    its own without saying so)."""


HISTORIES = (
    History(
        "go-sdk",
        "impl",
        "TRUTH_IMPL",
        "a617dcea31a776b8f9c54791ee96e1ed48c39e39",
        "49047aebe8040dcd125341d2b9981524543c4fe9",
        "",
        (".go",),
        "[2026-01-01]",
    ),
    History(
        "spec",
        "spec",
        "TRUTH_SPEC",
        "30760fc315460b50448fd4ef022e6b0916cea6d0",
        "e611c1883c09a0f9297701dc4480d3de7994e7e6",
        "docs/specification/",
        (".md", ".mdx"),
        "[2024-11-05, 2025-03-26]",
    ),
)


# --- the citations ------------------------------------------------------------------------


def pick(clone: Path, history: History, count: int, rng: random.Random) -> list[Cited]:
    """`count` distinct cited ranges at the old commit, spread over the files."""
    tree = git(clone, "ls-tree", "-r", "--name-only", history.old, "--", history.under or ".")
    paths = [p for p in tree.splitlines() if p.endswith(history.suffixes) and _plain(p)]
    texts = {p: read_lines(clone, history.old, p) for p in paths}
    paths = [p for p in paths if any(compared(p, line) for line in texts[p])]
    picked: dict[Cited, None] = {}
    while len(picked) < count:
        path = rng.choice(paths)
        picked[_pick_in(texts[path], path, rng)] = None
    return list(picked)


def _plain(path: str) -> bool:
    return all(c.isalnum() or c in "_.-/" for c in path) and path[0] not in "-/"


def _pick_in(lines: list[str], path: str, rng: random.Random) -> Cited:
    counts = Counter(line.strip() for line in lines)
    filled = [n for n, line in enumerate(lines, 1) if compared(path, line)]
    twins = [n for n in filled if counts[lines[n - 1].strip()] > 1 and len(lines[n - 1]) < 40]
    start = rng.choice(twins if twins and rng.random() < 1 / 3 else filled)
    end = min(len(lines), start + rng.randint(1, 3)) if rng.random() < 0.2 else start
    return path, start, end


def write_registers(root: Path, history: History, cited: list[Cited]) -> Path:
    registers = root / "registers"
    registers.mkdir(parents=True)
    (registers / "sources.yaml").write_text(
        f"revisions: {history.revisions}\nsources:\n  up:\n    title: Upstream\n    repo: null\n"
        f"    commit: {history.old}\n    claims: ['**']\n",
        encoding="utf-8",
    )
    per_register = ENTRIES * ENTRY_CITATIONS
    for number, first in enumerate(range(0, len(cited), per_register), 1):
        chunk = cited[first : first + per_register]
        (registers / f"r{number}.yaml").write_text(_register(number, chunk), encoding="utf-8")
    return registers


def _register(number: int, cited: list[Cited]) -> str:
    prefix = f"R{number:03d}"
    lines = [
        f"title: Register {number}",
        f"prefix: {prefix}",
        "description: Citations of the truth benchmark.",
        "status: draft",
        "created: 2026-01-01",
        "last-updated: 2026-01-02",
        "increment: 1",
        "subject: up",
        "entries:",
    ]
    for entry, first in enumerate(range(0, len(cited), ENTRY_CITATIONS), 1):
        lines += [
            f"  - id: {prefix}-{entry:02d}",
            f"    title: Entry {entry}",
            "    what: w.",
            "    status: {state: missing}",
            "    value: {level: low}",
            "    effort: {size: S}",
            "    risk: r.",
            "    sources:",
        ]
        for path, start, end in cited[first : first + ENTRY_CITATIONS]:
            lines.append(f"      - {path}:{start}" + (f"-{end}" if end > start else ""))
    return "\n".join(lines) + "\n"


# --- the routes ---------------------------------------------------------------------------


@dataclass
class Outcome:
    """Where bump left one citation: ok or flagged, and at which lines."""

    cited: Cited
    ok: bool
    now: Cited
    kinds: list[str]


def walk(registers: Path, clone: Path, targets: list[str], cited: list[Cited]) -> list[Outcome]:
    """Bump `registers` to each target in turn; each citation's final outcome, in order."""
    environ = {**os.environ, "REGISTER_SOURCE_UP": str(clone)}
    state: dict[tuple[str, str, object], Outcome] = {}
    order: list[tuple[str, str, object]] = []
    for target in targets:
        bumped = api.bump(registers, "up", target, settings=api.Settings.read(environ))
        result = bumped.bump
        if result is None:
            problems = "\n".join(str(d) for d in bumped.diagnostics[:5])
            raise SystemExit(f"bump refused the register set:\n{problems}")
        for followed in result.followed:
            c = followed.citation
            key = (c.register, c.entry, c.field)
            if key not in state:
                order.append(key)
                state[key] = Outcome(
                    (followed.citation.repo_path or "", c.start, c.end), True, ("", 0, 0), []
                )
            outcome = state[key]
            lines = followed.lines or (c.start, c.end)
            outcome.now = (followed.path, *lines)
            outcome.ok = outcome.ok and followed.kind in OK_KINDS
            outcome.kinds.append(followed.kind)
    outcomes = [state[key] for key in order]
    assert [o.cited for o in outcomes] == cited, "each citation followed, in the order cited"
    return outcomes


# --- the verdicts -------------------------------------------------------------------------

VERDICTS = ("exact", "flagged", "silently wrong", "false alarm", "undecided")


Placed = tuple[str, tuple[int, ...]]
"""A path and the new lines that hold a range's counted lines, in order."""


def counted(lines: list[str], path: str, start: int, end: int) -> tuple[int, ...]:
    """The lines of a range judged by identity: those with text the rule compares (not
    blank lines, nor Markdown markup alone such as a fence; the rule judges those)."""
    numbers = range(start, end + 1)
    return tuple(n for n in numbers if 0 < n <= len(lines) and compared(path, lines[n - 1]))


def truth_of(truth: Truth, cited: Cited) -> tuple[str, list[Placed]]:
    """What is true of a cited range, from each counted line's truth (`Truth.settle`): its
    kind (the least certain of its lines') and the places it may be at, likeliest first;
    a place must also hold the range's text by the rule, blank lines between included."""
    path = cited[0]
    lines = counted(truth.old_lines[path], *cited)
    settled = [truth.settle((path, line)) for line in lines]
    candidates = []
    for new_path, first in settled[0][1]:
        chain = [first]
        for _, places in settled[1:]:
            step = _next(truth, new_path, chain[-1])
            if (new_path, step) not in places:
                break
            chain.append(step)
        old = truth.old_lines[path][lines[0] - 1 : lines[-1]]
        new = truth.new_lines[new_path][chain[0] - 1 : chain[-1]]
        if len(chain) == len(settled) and same_block(path, old, new):
            candidates.append((new_path, tuple(chain)))
    kinds = {kind for kind, _ in settled}
    if not candidates:
        return "changed", []
    kind = next(k for k in ("undecided", "ambiguous", "weak", "same") if k in kinds | {"same"})
    return kind, candidates


def _next(truth: Truth, path: str, line: int) -> int:
    """The next counted line after `line` at the new commit."""
    line += 1
    while truth.text((path, line)) != "\0" and not compared(path, truth.text((path, line))):
        line += 1
    return line


def verdict(truth: Truth, outcome: Outcome) -> str:
    """exact, flagged, silently wrong, false alarm, or undecided (the truth cannot tell)."""
    kind, places = truth_of(truth, outcome.cited)
    if not outcome.ok:
        return "false alarm" if kind == "same" else "flagged"
    path, start, end = outcome.now
    lines = truth.new_lines.get(path, [])
    now = (path, counted(lines, path, start, end)) if lines else (path, (-1,))
    cited = outcome.cited
    if now not in places or not same_block(
        cited[0], truth.old_lines[cited[0]][cited[1] - 1 : cited[2]], lines[start - 1 : end]
    ):
        return "silently wrong"
    if kind == "same" or (kind == "weak" and now == places[0]):
        return "exact"
    return "undecided"


def describe(truth: Truth, outcome: Outcome, clone: Path, new: str) -> str:
    """A silently wrong case, for --show: what was cited, where bump put it, what is true."""
    path, start, end = outcome.cited
    old = truth.old_lines[path][start - 1 : end]
    try:
        now = read_lines(clone, new, outcome.now[0])[outcome.now[1] - 1 : outcome.now[2]]
    except Exception:  # noqa: BLE001 - a path bump invented: nothing to read
        now = []
    kind, places = truth_of(truth, outcome.cited)
    return (
        f"  {path}:{start}-{end} {old!r}\n"
        f"    bump: {'/'.join(outcome.kinds[-3:])} -> {outcome.now[0]}:{outcome.now[1]}-"
        f"{outcome.now[2]} {now!r}\n    truth: {kind} {places}"
    )


# --- the run ------------------------------------------------------------------------------


def has_commit(clone: Path, sha: str) -> bool:
    try:
        return git(clone, "cat-file", "-t", sha).strip() == "commit"
    except subprocess.CalledProcessError:
        return False


def measure(history: History, clone: Path, count: int, show: int, seed: int) -> None:
    for sha in (history.old, history.new):
        if not has_commit(clone, sha):
            print(f"{history.name}: skipped ({clone} lacks {sha[:12]})")
            return
    cited = pick(clone, history, count, random.Random(seed))
    steps = git(clone, "rev-list", "--first-parent", "--reverse", f"{history.old}..{history.new}")
    truth = build(clone, history.old, history.new, {c[0] for c in cited}, history.suffixes)
    for route, targets in (("range", [history.new]), ("steps", steps.split())):
        with tempfile.TemporaryDirectory(prefix="truth-") as tmp:
            registers = write_registers(Path(tmp), history, cited)
            outcomes = walk(registers, clone, targets, cited)
        verdicts = [verdict(truth, o) for o in outcomes]
        counts = Counter(verdicts)
        figures = ", ".join(f"{counts[v]} {v}" for v in VERDICTS)
        bumps = f"{len(targets)} bump{'s' if len(targets) > 1 else ''}"
        print(f"{history.name} {route} ({bumps}, {len(cited)} citations): {figures}")
        wrong = [o for o, v in zip(outcomes, verdicts, strict=True) if v == "silently wrong"]
        for outcome in wrong[:show]:
            print(describe(truth, outcome, clone, history.new))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--impl", type=Path, default=os.environ.get("TRUTH_IMPL"))
    parser.add_argument("--spec", type=Path, default=os.environ.get("TRUTH_SPEC"))
    parser.add_argument("--citations", type=int, default=1500)
    parser.add_argument("--show", type=int, default=0, help="print N silently wrong cases")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    if shutil.which("git") is None:
        raise SystemExit("truth: git is not installed")
    for history, clone in zip(HISTORIES, (args.impl, args.spec), strict=True):
        if clone is None or not (Path(clone) / ".git").exists():
            print(f"{history.name}: skipped (pass --{history.option} CLONE or set ${history.env})")
            continue
        measure(history, Path(clone).resolve(), args.citations, args.show, args.seed)


if __name__ == "__main__":
    main()

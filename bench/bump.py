"""Benchmark: `register bump` across 500 commits against the floor of one `git diff`.

    python bench/bump.py [--registers 100] [--citations 20000] [--files 2000] [--commits 500]
    python bench/bump.py --history [--clone PATH] [--commits 100] [--citations 7000]
    python bench/bump.py --scaling

The synthetic register set (bench/synthetic.py) is pinned to the first commit of its
generated repository; 500 more commits each insert and edit lines in five files. Then, in
this one run, each as a child process (wall time best of --repeat, CPU time and peak RSS):

- the floor: `git diff -M --unified=0 PIN HEAD`, the one diff every bump has to read;
- `register check`: loading and validating the same YAML, which any command pays;
- `register bump code --dry-run`: follow every citation and make every new text;
- `register bump code` on a fresh copy of the registers each time: the same, and writing.

With --history, a real history instead (`histories.py`): the last --commits first-parent
commits of a local clone (--clone PATH, or REGISTER_BENCH_CLONE; a bare mirror will do), or
without one a generated history of the same shape (code and Markdown, edits, moved blocks,
renames), and --citations citations over the files at the start. Measured in one run:

- the floor: `git diff -M --unified=0 PIN HEAD` plus `git log --follow --first-parent` of
  each cited file over PIN..HEAD (what following each file's history costs git alone);
- `register bump --dry-run` over the range, as a ratio to that floor (target: at most 3x);
- a one-commit bump (HEAD~1 -> HEAD) beyond start-up against that commit's `git diff`
  (target: at most 10x): the diff, `register check` and the bump run in turn sixty times,
  each figure the median over the rounds; what the bump spends beyond start-up is timed
  inside sixty more rounds of two bumps of their own and the diff (from entering
  `api.bump` to the command's end, its git processes included, less the registers'
  loading and checking). Start-up is the interpreter, the command's code and the check
  every command runs; a second figure counts the loading of the modules only bump needs
  as the bump's work. Both are shown beside the median of the rounds' bump less check;
  then where it goes: importing the modules only bump needs, the git processes it runs,
  the rest of its work in process (timed in the benchmark's own process); and `follow`
  alone, in process.

Python's bytecode caches are written and read, as an installed package has them.

With --scaling, `follow` in process over one commit that edits every line of one file and
adds as many lines of other text, with 500 and then 2,000 of its lines cited; then over one
that deletes 500 and then 2,000 cited `}` lines and adds as many blocks ending in `}`: the
time grows with the citations and added lines (4x), not with their product (16x).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import (  # noqa: E402
    Run,
    best,
    best_call,
    median_difference,
    run_child,
    runs_in_turn,
    synthetic_parser,
)
from histories import cite_history, git_dir  # noqa: E402
from synthetic import add_history, commit_files, generate  # noqa: E402

from compat_register.following.follow import follow  # noqa: E402
from compat_register.model.registers import Citation  # noqa: E402
from compat_register.sources.checkout import Checkout  # noqa: E402


def pin_of(registers: Path) -> str:
    for line in (registers / "sources.yaml").read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("commit:"):
            return line.split(":", 1)[1].strip()
    raise SystemExit("no commit in sources.yaml")


def report(name: str, run: Run, floor: Run) -> None:
    print(
        f"{name:<44} {run[0]:6.3f} s wall, {run[2]:6.3f} s CPU, peak {run[1]:4.0f} MiB,"
        f" {run[0] / floor[0]:5.1f}x the floor"
    )


def main() -> None:
    parser = synthetic_parser(__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--history", action="store_true", help="bump over a real history")
    parser.add_argument("--clone", type=Path, default=os.environ.get("REGISTER_BENCH_CLONE"))
    parser.add_argument("--scaling", action="store_true", help="follow 500 vs 2,000 edits")
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
        if options.scaling:
            measure_scaling(root, options.repeat)
            return
        if options.history:
            measure_history(root, options)
            return
        registers = generate(root, options.registers, options.citations, options.files)
        started = time.perf_counter()
        head = add_history(root / "repo", options.commits, options.files)
        history = time.perf_counter() - started
        measure(root, registers, head, history, options)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def measure(
    root: Path, registers: Path, head: str, history: float, options: argparse.Namespace
) -> None:
    env = {**os.environ, "REGISTER_CACHE": str(root / "cache")}
    register = shutil.which("register") or "register"
    repo, copy = str(root / "repo"), root / "copy"
    diff = ["git", "-C", repo, "diff", "-M", "--unified=0", pin_of(registers), head]
    floor = best(diff, env, options.repeat)
    check = best([register, "check", "--registers", str(registers)], env, options.repeat)
    bump = [register, "bump", "code", head, "--registers"]
    changed = (0, 1)  # bump exits 1 when citations changed, which is expected here
    dry = best([*bump, str(registers), "--dry-run"], env, options.repeat, ok=changed)
    fresh = [sys.executable, "-c", _COPY, str(registers), str(copy)]
    real = best([*bump, str(copy)], env, options.repeat, before=fresh, ok=changed)
    sizes = f"{options.registers} registers, {options.citations} citations, {options.files} files"
    print(f"synthetic set: {sizes}; {options.commits} commits written in {history:.2f} s")
    print(f"{'floor (one git diff -M --unified=0 PIN HEAD)':<44} {floor[0]:6.3f} s wall")
    report("register check (load and validate only)", check, floor)
    report("register bump --dry-run", dry, floor)
    report(f"register bump (writes {options.registers + 1} files)", real, floor)


def measure_history(root: Path, options: argparse.Namespace) -> None:
    commits = options.commits if options.commits != 500 else 100
    citations = options.citations if options.citations != 20_000 else 7_000
    registers, pin, head, cited = cite_history(root, options.clone, commits, citations)
    repo = str(git_dir(root / "repo"))
    env = bytecode_cached({**os.environ, "REGISTER_CACHE": str(root / "cache")})
    register = shutil.which("register") or "register"
    git = ["git", "--git-dir", repo]
    diff = best([*git, "diff", "-M", "--unified=0", pin, head], env, options.repeat)
    logs = " ".join(f"'{p}'" for p in cited)
    follow_logs = [
        "sh", "-c", f"for f in {logs}; do {' '.join(git)} log --follow --first-parent"
        f" --format=%H {pin}..{head} -- \"$f\"; done",
    ]  # fmt: skip
    follows = best(follow_logs, env, options.repeat)
    floor = (diff[0] + follows[0], diff[2] + follows[2])
    bump = [register, "bump", "code", head, "--registers", str(registers), "--dry-run"]
    subprocess.run(bump, env=env, capture_output=True, check=False)  # the bytecode written
    ranged = best(bump, env, options.repeat, ok=(0, 1))
    where = options.clone or "a generated history"
    print(f"{where}: {commits} first-parent commits {pin[:10]}..{head[:10]},")
    print(f"  {citations} citations over {len(cited)} files (wall and CPU seconds; ratios of each)")
    timed("git diff -M --unified=0 PIN HEAD", diff)
    timed("git log --follow of each cited file", follows)
    timed("register bump --dry-run over the range", ranged, floor, "(diff + log --follow)")
    measure_one_commit(root, registers, pin, head, env, options.repeat)


def bytecode_cached(env: dict[str, str]) -> dict[str, str]:
    """`env` with Python's bytecode caches written and read, as an installed package has
    them: with PYTHONDONTWRITEBYTECODE set, an editable install compiles every module of
    compat-register on each run, a cost no user pays (the first of each command's runs
    writes the caches; `best` keeps the least of them)."""
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def measure_one_commit(
    root: Path, registers: Path, pin: str, head: str, env: dict[str, str], repeat: int
) -> None:
    """A bump of the last commit alone, beyond start-up, against that commit's `git diff`;
    and where its time goes: importing the modules only bump needs, the git processes it
    runs, the rest of its work in process; and `follow` alone.

    Each run is short and what is wanted is a difference of two of them (a bump less a
    `register check` of the same set, some 0.04 s of 0.5): the commands are run in turn,
    ONE_COMMIT_RUNS rounds at least, and each figure is the median over the rounds (of the
    round's difference, for a difference), so that neither a passing load nor one lucky
    run decides it."""
    repo, register = str(git_dir(root / "repo")), shutil.which("register") or "register"
    git = ["git", "--git-dir", repo]
    one = root / "one"
    shutil.copytree(registers, one)
    parent = subprocess.run([*git, "rev-parse", f"{head}~1"], capture_output=True, check=True)
    previous = parent.stdout.decode().strip()
    pinned = (one / "sources.yaml").read_text(encoding="utf-8").replace(pin, previous)
    (one / "sources.yaml").write_text(pinned, encoding="utf-8")
    rounds = max(repeat, ONE_COMMIT_RUNS)
    diffs, starts, singles = runs_in_turn(
        [
            [*git, "diff", "-M", "--unified=0", previous, head],
            [register, "check", "--registers", str(one)],
            [register, "bump", "code", head, "--registers", str(one), "--dry-run"],
        ],
        env,
        rounds,
        ok=(0, 1),
    )
    one_diff = _median(diffs)
    diff = (one_diff[0], one_diff[2])
    bump_args = [head, "--registers", str(one), "--dry-run"]
    one_diff_command = [*git, "diff", "-M", "--unified=0", previous, head]
    inside, loaded, paired = timed_inside(root, bump_args, one_diff_command, env, rounds)
    timed("one commit: git diff -M --unified=0", one_diff)
    timed("one commit: register check (start-up)", _median(starts))
    timed("one commit: register bump --dry-run", _median(singles))
    timed(" the diff, in the rounds of the timed bumps", (paired[0], 0.0, paired[1]))
    timed("one commit: bump beyond start-up", loaded, paired, "the diff")
    timed(" the same, its modules' loading counted", inside, paired, "the diff")
    timed(" the same, bump less check (whole processes)", median_difference(singles, starts))
    common = "import compat_register.cli, compat_register.api"
    base, more = runs_in_turn(
        [[sys.executable, "-c", common], [sys.executable, "-c", f"{common}, {_BUMP_MODULES}"]],
        env,
        rounds,
    )
    imports = median_difference(more, base)[2]
    own, children = in_process_bump(one, head, rounds)
    cpu_only(" of which importing bump's own modules", imports, diff[1])
    cpu_only(" of which the git processes bump runs", children, diff[1])
    cpu_only(" of which the rest, in process", own, diff[1])
    with Checkout(Path(repo)) as checkout:
        alone = in_process_follow(checkout, one, previous, head, repeat)
    cpu_only("one commit: follow() alone, in process", alone, diff[1])


def timed_inside(
    root: Path, args: list[str], diff: list[str], env: dict[str, str], rounds: int
) -> tuple[Run, Run, tuple[float, float]]:
    """What a cold `register bump code ARGS` spends beyond its start-up, timed inside its
    own process (`_TIMED_BUMP`): from entering `api.bump` to the end of the command, its
    git processes' CPU included, less the `check` it runs in between (the start-up
    `register check` also pays). Unlike the difference of two whole processes of some
    0.6 s each, whose rounds scatter by more than 0.1 s on a shared machine, this times
    the few hundredths themselves.

    Two such bumps and the `diff` are run in turn, `rounds` times: one bump loads the
    modules only it needs after the clock starts (its code's loading counted as its
    work), the other before (start-up is then the interpreter, the command's code and the
    check every command runs). Returns their (wall, 0, CPU) medians and the diff's (wall,
    CPU) median over the same rounds."""
    counted, loaded = root / "timed-counted", root / "timed-loaded"
    diffs: list[Run] = []
    for _ in range(rounds):
        for out, preload in ((counted, ""), (loaded, _BUMP_MODULES)):
            command = [sys.executable, "-c", _TIMED_BUMP, str(out), preload, *args]
            run_child(command, env, ok=(0, 1))  # 1: some citation changed or is gone
        diffs.append(run_child(diff, env))
    diff_run = _median(diffs)
    return _timed_runs(counted), _timed_runs(loaded), (diff_run[0], diff_run[2])


def _timed_runs(out: Path) -> Run:
    runs = [tuple(map(float, line.split())) for line in out.read_text().splitlines()]
    return statistics.median(r[0] for r in runs), 0.0, statistics.median(r[1] for r in runs)


_TIMED_BUMP = """
import contextlib, io, resource, sys, time
from compat_register import api, cli
from compat_register.api import rewriting

out, preload = sys.argv[1:3]
if preload:  # the bump's own modules loaded before the clock starts: part of start-up
    __import__(preload)

def cpu():
    me, kids = (resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

marks, check, bump = {}, rewriting.check, api.bump
def timed_check(*args, **kwargs):
    wall, spent = time.perf_counter(), cpu()
    try:
        return check(*args, **kwargs)
    finally:
        marks["check"] = (time.perf_counter() - wall, cpu() - spent)
def timed_bump(*args, **kwargs):
    marks["enter"] = (time.perf_counter(), cpu())
    return bump(*args, **kwargs)
rewriting.check, api.bump = timed_check, timed_bump
sys.argv[1:] = ["bump", "code", *sys.argv[3:]]
def record():
    wall = time.perf_counter() - marks["enter"][0] - marks["check"][0]
    spent = cpu() - marks["enter"][1] - marks["check"][1]
    with open(out, "a") as file:
        print(wall, spent, file=file)
with contextlib.redirect_stdout(io.StringIO()):
    try:
        cli.run()  # the console script itself, to its end
    finally:
        record()
"""
"""A `register bump` that writes what it spent beyond its start-up (see `timed_inside`)."""


def _median(runs: list[Run]) -> Run:
    return tuple(statistics.median(r[i] for r in runs) for i in range(3))  # type: ignore[return-value]


def cpu_only(name: str, cpu: float, floor: float) -> None:
    print(f"{name:<44} {'':>13} {cpu:6.3f} s CPU, {'':>8}{cpu / max(floor, 1e-6):5.1f}x the diff")


def timed(name: str, run: Run, floor: tuple[float, float] | None = None, of: str = "") -> None:
    """One line: wall and CPU seconds, and their ratios to `floor` (wall, CPU) if given."""
    line = f"{name:<44} {run[0]:6.3f} s wall, {run[2]:6.3f} s CPU"
    if floor is not None:
        line += f", {run[0] / floor[0]:5.1f}x / {run[2] / max(floor[1], 1e-6):5.1f}x {of}"
    print(line)


def in_process_follow(
    checkout: Checkout, registers: Path, old: str, new: str, repeat: int
) -> float:
    """The least CPU time of `follow` alone over the register set's citations."""
    from compat_register import api  # noqa: PLC0415 - the bench's own process

    loaded = api.check(registers, api.Settings.read())
    citations = [c for c in loaded.registers.citations() if c.repo_path]
    return min(_cpu(lambda: follow(checkout, old, new, citations))[0] for _ in range(repeat))


def in_process_bump(registers: Path, head: str, repeat: int) -> tuple[float, float]:
    """(CPU of what a dry-run `register bump` does in its process beyond `register check`'s
    part, CPU of the git processes it runs), each the median of `repeat` runs, the modules
    loaded: the writer lock, the lock file read, the bump and its report, as `api.bump`
    and the command run them after `check` (timed directly: a difference of two runs of
    half a second each would swing by more than what is measured)."""
    from compat_register import api  # noqa: PLC0415 - the bench's own process
    from compat_register.api import loading  # noqa: PLC0415
    from compat_register.reading import folder  # noqa: PLC0415
    from compat_register.reporting.report import bump_report  # noqa: PLC0415
    from compat_register.rewriting import bump as bumping  # noqa: PLC0415  # noqa: PLC0415

    settings = api.Settings.read()
    paths = loading.project_paths(registers, settings)
    checked = loading.check(paths, settings)

    def bump() -> object:
        with loading.writer(paths, "register bump code", settings):
            lock = folder.read_lock(paths)
            result = bumping.bump(
                checked.registers, checked.documents, paths, lock, "code", head,
                dry_run=True, settings=settings,
            )  # fmt: skip
        return bump_report(result, True, "text")

    bump()  # the checkout's first reads made
    runs = [_cpu(bump) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def _cpu(action: Callable[[], object]) -> tuple[float, float]:
    """(this process's CPU seconds, its children's) spent in `action`, the collector off
    as the console script has it (cli.run)."""
    gc.collect()
    gc.disable()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.process_time()
    action()
    own = time.process_time() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    gc.enable()
    spent = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    return own, spent


def measure_scaling(root: Path, repeat: int) -> None:
    cases = (
        ("edited citations", edit_every_line, 1),
        ("deleted `}` citations, as many `}` added", delete_every_brace, 3),
    )
    for name, make, stride in cases:
        times = {}
        for size in (500, 2000):
            repo = root / f"{make.__name__}{size}"
            first, second = make(repo, size)
            with Checkout(repo) as checkout:
                cited = [citation_of("a.go", stride * n) for n in range(1, size + 1)]
                run = lambda c=checkout, a=first, b=second, d=cited: follow(c, a, b, d)  # noqa: E731
                times[size] = best_call(run, repeat)
            print(f"follow, {size:>5} {name} and {2 * size} added lines: {times[size]:6.3f} s")
        print(f"  2,000 / 500: {times[2000] / times[500]:4.1f}x (linear: 4x; quadratic: 16x)")


def edit_every_line(repo: Path, size: int) -> tuple[str, str]:
    """A repository whose second commit edits each of `size` lines of a.go and adds as many
    lines of other code: every cited line is touched, none is found elsewhere."""
    old = "".join(f"\tvalue_{n} := compute(first_{n}, second_{n})\n" for n in range(size))
    new = old.replace(" := ", " = ") + "".join(f"\tother_{n}()\n" for n in range(size))
    return two_commits(repo, old, new)


def delete_every_brace(repo: Path, size: int) -> tuple[str, str]:
    """A repository whose second commit deletes each of `size` cited `}` lines of a.go and
    adds as many blocks ending in `}` elsewhere: each cited line's text is added at every
    one of them, and none is evidence of where it went (`moves.CROWD`)."""
    old = "".join(f"\tcall_{n}(x)\n\tdone_{n}()\n\t}}\n" for n in range(size))
    new = "".join(f"\tcall_{n}(x)\n\tdone_{n}()\n" for n in range(size))
    new += "".join(f"\tif c{n} {{\n\t}}\n" for n in range(size))
    return two_commits(repo, old, new)


def two_commits(repo: Path, old: str, new: str) -> tuple[str, str]:
    """(first, second): a new repository whose a.go holds `old`, then `new`."""
    first = commit_files(repo, [("a.go", old)])
    (repo / "a.go").write_text(new, encoding="utf-8")
    git = ["git", "-c", "user.name=b", "-c", "user.email=b@example.com", "-C", str(repo)]
    subprocess.run([*git, "commit", "--quiet", "-am", "second"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, check=True)
    return first, head.stdout.decode().strip()


def citation_of(path: str, line: int) -> Citation:
    return Citation(
        f"{path}:{line}", None, path, line, line, None, False, "bench", "B-01",
        "bench.yaml", line, 1, ("x",), f"{path}:{line}", source="code", repo_path=path,
    )  # fmt: skip


_BUMP_MODULES = "compat_register.rewriting.bump"

ONE_COMMIT_RUNS = 60
"""The least number of rounds of the one-commit commands (see `measure_one_commit`)."""

_COPY = "import shutil, sys; shutil.rmtree(sys.argv[2], True); shutil.copytree(*sys.argv[1:])"


if __name__ == "__main__":
    main()

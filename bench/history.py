"""Benchmark: reading the registers' git history for the Changes page, cold and rebuilt.

    python bench/history.py [--registers 100] [--commits 500] [--repeat 3]

A project repository holds the synthetic register set (bench/synthetic.py) and --commits
more commits on top, each changing one register (an entry's state moves on, or an entry is
added). Measured in child processes, each timing only its own work (not Python's start):

- the floor: `git log --raw` of registers/, then each file version the log names read once
  through `git cat-file --batch` and loaded with PyYAML's C loader;
- cold: `api.history` with an empty cache (every commit's diff computed and cached);
- rebuild: `api.history` again after one more commit (the cache holds all but that one).

Targets: cold within 3x of the floor; the rebuild under 10% of the cold read.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from synthetic import generate  # noqa: E402

GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
STATES = ("missing", "partial", "done")
STATUS = re.compile(r"status: \{state: (\w+)")


def make_project(root: Path, registers: int, commits: int) -> Path:
    """The project repository: the register set committed, then `commits` changes."""
    generate(root, registers, registers * 200, 2_000)
    project = root / "project"
    shutil.copytree(root / "registers", project / "registers")
    sources = project / "registers" / "sources.yaml"
    sources.write_text(sources.read_text().replace("path: ../repo", "path: ../../repo"))
    env = {**os.environ, "GIT_AUTHOR_DATE": "1700000000 +0000"}
    env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"]
    subprocess.run([*GIT, "init", "--quiet", "--initial-branch=main"], cwd=project, check=True)
    subprocess.run([*GIT, "add", "--all"], cwd=project, check=True)
    subprocess.run([*GIT, "commit", "--quiet", "-m", "registers"], cwd=project, check=True, env=env)
    texts = {p.name: p.read_text() for p in sorted((project / "registers").glob("r*.yaml"))}
    rng = random.Random(20261201)
    stream = [b"reset refs/heads/main\nfrom refs/heads/main^0\n"]
    for number in range(commits):
        name = rng.choice(sorted(texts))
        texts[name] = _change(texts[name], rng, number)
        stream.append(_commit(number, f"registers/{name}", texts[name]))
    subprocess.run(
        [*GIT, "fast-import", "--quiet"], cwd=project, input=b"".join(stream), check=True
    )
    subprocess.run([*GIT, "reset", "--quiet", "--hard"], cwd=project, check=True)
    return project


def _change(text: str, rng: random.Random, number: int) -> str:
    """One entry's state moved on, or (one change in ten) a new entry at the end."""
    if number % 10 == 9:
        prefix = re.search(r"^prefix: (\w+)$", text, re.MULTILINE)
        assert prefix is not None
        return text + (
            f"  - id: {prefix[1]}-{100 + number}\n    title: Added in change {number}\n"
            "    what: New.\n    status: {state: missing}\n    value: {level: low}\n"
            "    effort: {size: S}\n    risk: None.\n    sources: [src/pkg00/module_0000.py:1]\n"
        )
    found = list(STATUS.finditer(text))
    match = found[rng.randrange(len(found))]
    state = STATES[(STATES.index(match[1]) + 1) % 3] if match[1] in STATES else "done"
    return text[: match.start(1)] + state + text[match.end(1) :]


def _commit(number: int, path: str, text: str) -> bytes:
    when = f"{1700000000 + 3600 * (number + 1)} +0000"
    message = f"change {number}".encode()
    raw = text.encode()
    return (
        f"commit refs/heads/main\ncommitter bench <bench@example.com> {when}\n".encode()
        + b"data %d\n%s\n" % (len(message), message)
        + f"M 100644 inline {path}\n".encode()
        + b"data %d\n%s\n" % (len(raw), raw)
    )


def floor(project: Path) -> float:
    """`git log --raw` of registers/, and each file version it names loaded once (C loader)."""
    import yaml  # noqa: PLC0415 - in the child only

    started = time.perf_counter()
    log = subprocess.run(
        [
            "git",
            "log",
            "--raw",
            "--no-abbrev",
            "--no-renames",
            "--format=%H %P %ct %s",
            "HEAD",
            "--",
            "registers",
        ],
        cwd=project,
        check=True,
        capture_output=True,
    ).stdout.decode()
    blobs = sorted({m[1] for m in re.finditer(r"^:\d+ \d+ [0-9a-f]{40} ([0-9a-f]{40})", log, re.M)})
    batch = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=project,
        check=True,
        capture_output=True,
        input="".join(f"{b}\n" for b in blobs).encode(),
    ).stdout
    position = 0
    for _ in blobs:
        end = batch.index(b"\n", position)
        size = int(batch[position:end].split()[2])
        yaml.load(batch[end + 1 : end + 1 + size].decode(), Loader=yaml.CSafeLoader)
        position = end + 1 + size + 1
    return time.perf_counter() - started


def read(project: Path) -> float:
    """`api.history` of the project's registers (the cache is under REGISTER_CACHE)."""
    from compat_register import api  # noqa: PLC0415 - in the child only

    started = time.perf_counter()
    history = api.history(project / "registers", api.Settings.read())
    assert history.commits and history.notice is None, history.notice
    return time.perf_counter() - started


def child(mode: str, project: Path, cache: Path, repeat: int) -> float:
    """The best of `repeat` runs of `mode` in a child process; `cold` empties the cache first."""
    runs = []
    for _ in range(repeat):
        if mode == "cold":
            shutil.rmtree(cache, ignore_errors=True)
        env = {**os.environ, "REGISTER_CACHE": str(cache)}
        command = [sys.executable, __file__, "--child", mode, str(project)]
        out = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
        runs.append(float(out.stdout))
    return min(runs)


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        mode, project = sys.argv[2], Path(sys.argv[3])
        print(floor(project) if mode == "floor" else read(project))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--registers", type=int, default=100)
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
        project = make_project(root, args.registers, args.commits)
        cache = root / "cache"
        base = child("floor", project, cache, args.repeat)
        cold = child("cold", project, cache, args.repeat)
        text = (project / "registers" / "r000.yaml").read_text()
        changed = text.replace("{state: partial", "{state: done", 1)
        (project / "registers" / "r000.yaml").write_text(changed)
        subprocess.run([*GIT, "commit", "--quiet", "-am", "one more"], cwd=project, check=True)
        rebuild = child("rebuild", project, cache, 1)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{args.registers} registers, {args.commits} commits of registers/ on top")
    print(f"floor (git log + each file version loaded once, C loader): {base:6.2f} s")
    print(f"cold history (empty cache):                               {cold:6.2f} s")
    print(f"rebuild after one new commit:                             {rebuild:6.2f} s")
    print(f"cold / floor: {cold / base:.2f}x (target: within 3x)")
    print(f"rebuild / cold: {rebuild / cold:.1%} (target: under 10%)")


if __name__ == "__main__":
    main()

"""Benchmark: `register bump` across 500 commits against the floor of one `git diff`.

    python bench/bump.py [--registers 100] [--citations 20000] [--files 2000] [--commits 500]

The synthetic register set (bench/synthetic.py) is pinned to the first commit of its
generated repository; 500 more commits each insert and edit lines in five files. Then, in
this one run, each as a child process (wall time best of --repeat, CPU time and peak RSS):

- the floor: `git diff -M --unified=0 PIN HEAD`, the one diff every bump has to read;
- `register check`: loading and validating the same YAML, which any command pays;
- `register bump code --dry-run`: follow every citation and make every new text;
- `register bump code` on a fresh copy of the registers each time: the same, and writing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import Run, best  # noqa: E402
from synthetic import add_history, generate  # noqa: E402


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registers", type=int, default=100)
    parser.add_argument("--citations", type=int, default=20_000)
    parser.add_argument("--files", type=int, default=2_000)
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
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


_COPY = "import shutil, sys; shutil.rmtree(sys.argv[2], True); shutil.copytree(*sys.argv[1:])"


if __name__ == "__main__":
    main()

"""Benchmark: `register verify` on the synthetic register set against its floor.

    python bench/verify.py [--registers 100] [--citations 20000] [--files 2000]

The floor is the least any verifier must do: parse the same YAML with PyYAML's C loader
and read every cited blob through one `git cat-file --batch`. Both run as child processes
in this one run, so the ratio compares like with like on this machine; each is timed
(wall, best of --repeat) and its peak memory (max RSS) read from the kernel.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import best  # noqa: E402
from synthetic import generate  # noqa: E402

FLOOR = r"""
import re, subprocess, sys, yaml
from pathlib import Path
registers, repo = Path(sys.argv[1]), sys.argv[2]
commit = None
paths = set()
for path in sorted(registers.glob("*.yaml")):
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    if path.name == "sources.yaml":
        commit = data["sources"]["code"]["commit"]
        continue
    for entry in data["entries"]:
        for citation in entry["sources"]:
            paths.add(re.match(r"([^:\s]+):", citation).group(1))
specs = "".join(f"{commit}:{p}\n" for p in sorted(paths)).encode()
out = subprocess.run(["git", "-C", repo, "cat-file", "--batch"], input=specs,
                     capture_output=True, check=True).stdout
assert out.count(b" blob ") == len(paths), "a blob is missing"
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registers", type=int, default=100)
    parser.add_argument("--citations", type=int, default=20_000)
    parser.add_argument("--files", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
        registers = generate(root, options.registers, options.citations, options.files)
        env = {**os.environ, "REGISTER_CACHE": str(root / "cache")}
        floor = best(
            [sys.executable, "-c", FLOOR, str(registers), str(root / "repo")], env, options.repeat
        )
        register = shutil.which("register") or "register"
        verify = best([register, "verify", "--registers", str(registers)], env, options.repeat)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    sizes = f"{options.registers} registers, {options.citations} citations, {options.files} files"
    print(f"synthetic set: {sizes}")
    print("floor: PyYAML C loader over the same files + one git cat-file --batch of the blobs")
    for name, (wall, peak, cpu) in (("floor", floor), ("register verify", verify)):
        print(f"{name:>16}: wall {wall:.3f} s, cpu {cpu:.3f} s, peak {peak:.0f} MiB")
    ratios = [
        f"{what} {verify[i] / floor[i]:.2f}x" for i, what in enumerate(("wall", "memory", "cpu"))
    ]
    print(f"ratio: {', '.join(ratios)} (target: wall time within 2x)")


if __name__ == "__main__":
    main()

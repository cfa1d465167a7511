"""Benchmark: `register verify` on a realistic synthetic register set against its floor.

    python bench/verify.py [--registers 100] [--citations 20000] [--files 500] [--repeat 3]
    python bench/verify.py --plain --files 2000   # the older set: 120-line files, no prose

The realistic set (bench/realistic.py): two sources with cited files of 100 to 3,000
lines, entries with long prose holding in-prose citations and references, and compact,
prefixed and mapping-form citations. The floor is the least any verifier must do: parse
the same YAML with PyYAML's C loader, find the cited paths (listed and in prose), and read
every cited blob through one `git cat-file --batch` per source. Both run as child
processes in this one run, in turn, so the ratio compares like with like on this machine;
each is timed (wall and CPU, best of --repeat) and its peak memory (max RSS) read from the
kernel.
Target: verify within 2.0x of the floor, wall and CPU.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import best_in_turn  # noqa: E402
from realistic import generate_realistic  # noqa: E402
from synthetic import generate  # noqa: E402

FLOOR = r"""
import re, subprocess, sys, yaml
from pathlib import Path
registers = Path(sys.argv[1])
CITED = re.compile(r"(?:\b([a-z][a-z0-9]*):)?((?:src|docs)/[\w./-]+\.\w+):\d")
PROSE = ("what", "where", "risk", "detail")
NOTES = ("status", "value", "effort")
sources = yaml.load((registers / "sources.yaml").read_text(encoding="utf-8"),
                    Loader=yaml.CSafeLoader)["sources"]
claims = {alias: s["claims"][0].rstrip("*") for alias, s in sources.items()}
paths = {alias: set() for alias in sources}

def owner(alias, path):
    return alias or next(a for a, prefix in claims.items() if path.startswith(prefix))

def scan(text):
    for match in CITED.finditer(text or ""):
        paths[owner(match[1], match[2])].add(match[2])

for path in sorted(registers.glob("*.yaml")):
    if path.name == "sources.yaml":
        continue
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    scan(data.get("summary"))
    for entry in data["entries"]:
        for name in PROSE:
            scan(entry.get(name))
        for name in NOTES:
            scan((entry.get(name) or {}).get("note"))
        for citation in entry["sources"]:
            if isinstance(citation, dict):
                paths[owner(citation.get("source"), citation["path"])].add(citation["path"])
            else:
                scan(citation)
for alias, wanted in paths.items():
    repo = (registers / sources[alias]["path"]).resolve()
    commit = sources[alias]["commit"]
    specs = "".join(f"{commit}:{p}\n" for p in sorted(wanted)).encode()
    out = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch"], input=specs,
                         capture_output=True, check=True).stdout
    assert out.count(b" blob ") == len(wanted), "a blob is missing"
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registers", type=int, default=100)
    parser.add_argument("--citations", type=int, default=20_000)
    parser.add_argument("--files", type=int, default=500, help="files per source")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--plain", action="store_true", help="the plain set (synthetic.py)")
    options = parser.parse_args()
    make = generate if options.plain else generate_realistic
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
        registers = make(root, options.registers, options.citations, options.files)
        # Bytecode caches are written as an installed package has them: with
        # PYTHONDONTWRITEBYTECODE set, an editable install would compile every module of
        # compat-register on every run (the floor's modules are all compiled already).
        env = {**os.environ, "REGISTER_CACHE": str(root / "cache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        register = shutil.which("register") or "register"
        floor, verify = best_in_turn(
            [
                [sys.executable, "-c", FLOOR, str(registers)],
                [register, "verify", "--registers", str(registers)],
            ],
            env,
            options.repeat,
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    sizes = f"{options.registers} registers, {options.citations} citations, {options.files} files"
    kind = "plain" if options.plain else "realistic"
    print(f"{kind} synthetic set: {sizes}")
    print("floor: PyYAML C loader over the same files + git cat-file --batch of the cited blobs")
    for name, (wall, peak, cpu) in (("floor", floor), ("register verify", verify)):
        print(f"{name:>16}: wall {wall:.3f} s, cpu {cpu:.3f} s, peak {peak:.0f} MiB")
    ratios = [
        f"{what} {verify[i] / floor[i]:.2f}x" for i, what in enumerate(("wall", "memory", "cpu"))
    ]
    print(f"ratio: {', '.join(ratios)} (target: wall and cpu within 2.0x)")


if __name__ == "__main__":
    main()

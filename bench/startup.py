"""Benchmark: a command's start-up, where most of a small project's run goes.

    python bench/startup.py [--against OTHER/src[:DEPS]] [--repeat 10]

Times `register check`, `register verify` and `register verify --offline` on a small
synthetic set (5 registers, 200 citations, 50 files), and the floor of any command: the
interpreter started and our package imported (`import compat_register.cli`). With
`--against`, the same commands run from another source tree (a checkout of main, say)
in the same run, in turn, so that the two compare like with like on this machine; the
figures are CPU seconds (user + system, steadier than wall time on a busy machine) and
wall seconds, best of --repeat.
Target: no command slower than the other tree's.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import Run, best  # noqa: E402
from synthetic import generate  # noqa: E402

HERE = Path(__file__).resolve().parent.parent / "src"
RUN = "from compat_register.cli import run; run()"


def commands(registers: Path) -> dict[str, list[str]]:
    """Each timed command, as arguments of the interpreter."""
    at = ["--registers", str(registers)]
    return {
        "import compat_register.cli": ["-c", "import compat_register.cli"],
        "register check": ["-c", RUN, "check", *at],
        "register verify --offline": ["-c", RUN, "verify", "--offline", *at],
        "register verify": ["-c", RUN, "verify", *at],
    }


def timed(tree: Path | str, args: list[str], repeat: int) -> Run:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return best([sys.executable, *args], env, repeat, ok=(0, 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--against", help="Another tree's src/ to compare with (a PYTHONPATH: DIR[:DIR...])."
    )
    parser.add_argument("--repeat", type=int, default=10)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        registers = generate(Path(tmp), registers=5, citations=200, files=50)
        print(f"{'command':<28} {'cpu s':>7} {'wall s':>7}", end="")
        print(f" {'other cpu':>10} {'other wall':>10} {'cpu ratio':>9}" if options.against else "")
        for name, args in commands(registers).items():
            wall, _, cpu = timed(HERE, args, options.repeat)
            line = f"{name:<28} {cpu:7.3f} {wall:7.3f}"
            if options.against:
                other_wall, _, other_cpu = timed(options.against, args, options.repeat)
                line += f" {other_cpu:10.3f} {other_wall:10.3f} {cpu / other_cpu:9.2f}"
            print(line)


if __name__ == "__main__":
    main()

"""Benchmark: finding code in long prose stays linear in the length of the text.

    python bench/prose.py [--repeat 5]

Times `code_ranges` on texts of many backtick runs and fences, each at two lengths, and
prints the time per character at both lengths: linear reading keeps the ratio near 1x,
quadratic reading would double it with each doubling. The floor is one pass of Python's
`re` over the same text for every backtick run, measured in the same run.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable

from compat_register.citations import nonprose as prose

PERIODS = {"runs of two": "``a ", "single backticks": "`a\n", "fences": "```\nx\n"}


def best(action: Callable[[str], object], text: str, repeat: int) -> float:
    """Best of `repeat` timings; each run reads a text of its own (results are cached by text)."""
    times = []
    for run in range(repeat):
        fresh = f"{text}{run}"
        started = time.perf_counter()
        action(fresh)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    for name, period in PERIODS.items():
        short, long = period * 20_000, period * 40_000
        t_short = best(prose.code_ranges, short, options.repeat)
        t_long = best(prose.code_ranges, long, options.repeat)
        floor = best(lambda text: list(re.finditer(r"`+", text)), long, options.repeat)
        growth = (t_long / len(long)) / (t_short / len(short))
        print(
            f"{name:>16}: {len(short):>7} chars {t_short * 1000:7.1f} ms, "
            f"{len(long):>7} chars {t_long * 1000:7.1f} ms; per-char growth {growth:.2f}x "
            f"(linear: ~1x); {t_long / floor:.1f}x the floor"
        )


if __name__ == "__main__":
    main()

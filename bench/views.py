"""Benchmark: the revision matrix, the revision pages and the priorities against the overview.

    python bench/views.py [--registers 100] [--citations 20000] [--repeat 3]

Loads a synthetic register set (bench/synthetic.py), gives its entries revisions over six
revisions of the specification, and times in this one process, best of --repeat:

- the views alone (`views.revisionmatrix.matrix` and `changes`, `views.priorities`), on the set
  and on the set twice over, as time per entry: linear keeps the ratio near 1x (the sort
  of the priorities is the only step above linear);
- the pages added with them (matrix, one page per revision, priorities) against the
  overview, the page that already shows every entry in one table.

Target: the views' time per entry within 1.3x when the set doubles; the new pages within
3x of the overview (the matrix has six more columns per row, and there are eight pages).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import best_call  # noqa: E402
from synthetic import generate  # noqa: E402

from compat_register import api  # noqa: E402
from compat_register.model.registers import RegisterSet, Revisions  # noqa: E402
from compat_register.model.vocabulary import STATES  # noqa: E402
from compat_register.site import renderer as render  # noqa: E402
from compat_register.views import priorities  # noqa: E402
from compat_register.views import revisionmatrix as revisions  # noqa: E402

NAMES = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"]


def spread(registers: RegisterSet) -> int:
    """Give every entry a state and revisions drawn from NAMES; returns how many entries."""
    rng = random.Random(20261201)
    registers.sources.revisions = list(NAMES)
    count = 0
    for entry in (e for r in registers.registers for e in r.entries):
        added = rng.randrange(len(NAMES) - 1)
        later = NAMES[added + 1 :]
        changed = sorted(rng.sample(later, rng.randrange(min(2, len(later)) + 1)), key=NAMES.index)
        removed = rng.choice([None, None, *later[len(changed) :]]) if later else None
        entry.revisions = Revisions(NAMES[added], changed, removed)
        entry.status.key = rng.choice(STATES)
        count += 1
    return count


def views(registers: RegisterSet) -> None:
    revisions.matrix(registers)
    revisions.changes(registers)
    priorities.grid(priorities.priorities(registers))


def new_pages(renderer: render.Renderer) -> None:
    renderer.matrix()
    for changes in revisions.changes(renderer.registers):
        renderer.revision(changes)
    renderer.priorities()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registers", type=int, default=100)
    parser.add_argument("--citations", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = generate(Path(tmp), args.registers, args.citations, files=200)
        checked = api.check(root)
    entries = spread(checked.registers)
    doubled = RegisterSet(checked.registers.sources, checked.registers.registers * 2)
    renderer = render.Renderer(checked.registers)
    once = best_call(lambda: views(checked.registers), args.repeat) / entries
    twice = best_call(lambda: views(doubled), args.repeat) / (2 * entries)
    overview = best_call(renderer.overview, args.repeat)
    pages = best_call(lambda: new_pages(renderer), args.repeat)
    print(f"{entries} entries in {args.registers} registers, {len(NAMES)} revisions")
    print(
        f"views     {once * 1e6:6.2f} us/entry, {twice * 1e6:6.2f} us/entry doubled   "
        f"{twice / once:4.2f}x (target 1.3x)"
    )
    print(
        f"new pages {pages * 1000:6.1f} ms   overview {overview * 1000:6.1f} ms   "
        f"{pages / overview:4.2f}x (target 3x)"
    )


if __name__ == "__main__":
    main()

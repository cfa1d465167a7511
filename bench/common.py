"""What the benchmarks share: timing a child process, the best of several runs, the
synthetic set's command-line sizes and the mkdocs.yml of a benchmark site."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path

Run = tuple[float, float, float]
"""Wall seconds, peak RSS in MiB, CPU seconds (user + system)."""


def run_child(
    args: Sequence[str],
    env: Mapping[str, str] | None = None,
    *,
    cwd: Path | None = None,
    ok: Collection[int] = (0,),
) -> Run:
    """Time one child process; exit with its error output when its exit code is not in `ok`.

    CPU time is measured beside wall time because it holds steady on a busy machine. The
    child's stderr goes to a temporary file, not a pipe: a pipe nobody reads while waiting
    fills up and stalls the child for ever.
    """
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        proc = subprocess.Popen(args, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        if proc.returncode not in ok:
            errors.seek(0)
            output = errors.read().decode(errors="replace")
            raise SystemExit(f"failed ({proc.returncode}): {' '.join(args)}\n{output}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def best(
    args: Sequence[str],
    env: Mapping[str, str] | None,
    repeat: int,
    *,
    before: Sequence[str] | None = None,
    cwd: Path | None = None,
    ok: Collection[int] = (0,),
) -> Run:
    """The best of `repeat` runs: least wall and CPU time, most memory. `before` is a
    command run (untimed) ahead of each run."""
    runs = []
    for _ in range(repeat):
        if before:
            subprocess.run(before, check=True)
        runs.append(run_child(args, env, cwd=cwd, ok=ok))
    return best_of(runs)


def best_of(runs: Sequence[Run]) -> Run:
    """The best of some runs of one command: least wall and CPU time, most memory."""
    return min(r[0] for r in runs), max(r[1] for r in runs), min(r[2] for r in runs)


def best_call(
    action: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """The least time of `repeat` calls of `action` in this process, in seconds: wall time,
    or with `clock=time.process_time` this process's CPU time (steadier on a busy machine)."""
    times = []
    for _ in range(repeat):
        started = clock()
        action()
        times.append(clock() - started)
    return min(times)


def runs_in_turn(
    commands: Sequence[Sequence[str]],
    env: Mapping[str, str] | None,
    repeat: int,
    *,
    ok: Collection[int] = (0,),
) -> list[list[Run]]:
    """Every run of each command, `repeat` rounds of the commands run in turn: on a shared
    machine a load that comes and goes then weighs on the floor and on what is measured
    against it alike, instead of on whichever ran while it lasted."""
    runs: list[list[Run]] = [[] for _ in commands]
    for _ in range(repeat):
        for command, times in zip(commands, runs, strict=True):
            times.append(run_child(command, env, ok=ok))
    return runs


def best_in_turn(
    commands: Sequence[Sequence[str]],
    env: Mapping[str, str] | None,
    repeat: int,
    *,
    ok: Collection[int] = (0,),
) -> list[Run]:
    """Each command's best run (least wall and CPU time, most memory) of `runs_in_turn`."""
    return [best_of(times) for times in runs_in_turn(commands, env, repeat, ok=ok)]


def median_difference(runs: Sequence[Run], baseline: Sequence[Run]) -> Run:
    """The median, round by round, of how much longer each run took than the baseline's
    run of the same round (wall, peak, CPU; `runs_in_turn`): what a command costs beyond
    another one, steady where the difference of two best runs is not (each best is the
    luckiest of its own runs, and the difference of two lucky draws of half a second
    swings by more than the few hundredths measured)."""
    pairs = list(zip(runs, baseline, strict=True))
    return tuple(  # type: ignore[return-value]
        statistics.median(run[i] - base[i] for run, base in pairs) for i in range(3)
    )


def synthetic_parser(description: str, *, repeat: int = 3) -> argparse.ArgumentParser:
    """A parser with the synthetic set's sizes (`synthetic.generate`: --registers,
    --citations, --files) and --repeat; a script adds its own options after them."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--registers", type=int, default=100)
    parser.add_argument("--citations", type=int, default=20_000)
    parser.add_argument("--files", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=repeat)
    return parser


SITE_CONFIG = """\
site_name: {name}
docs_dir: {docs}
theme: {{name: material}}
plugins:
  - search:
      separator: '{separator}'
{plugins}{plugin}
{extensions}{extra}
"""


def site_config(name: str, docs: str, plugin: str, extra: str = "", plugins: str = "") -> str:
    """A benchmark site's mkdocs.yml: material, search as the register pages want it,
    `plugins` (whole lines) and `plugin` (the register plugin's line, or none) after it,
    the pages' Markdown extensions, then `extra`."""
    from compat_register.site.extensions import SEARCH_SEPARATOR, mkdocs_yaml

    return SITE_CONFIG.format(
        name=name,
        docs=docs,
        separator=SEARCH_SEPARATOR.replace("'", "''"),
        plugins=plugins,
        plugin=plugin,
        extensions=mkdocs_yaml(),
        extra=extra,
    )

"""`register` run in a process of its own, as a user's shell runs it, for tests of input
that once hung or crashed a command: a hang fails at a generous bound, a traceback at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HANG_GUARD = 300
"""Seconds before a command counts as hung: far over any run on a loaded two-core machine,
under a hang's hours. A bound for a hang, not a speed check (speed lives in bench/)."""


def command(*args: str) -> list[str]:
    """The `register` console script's command line, run by this Python."""
    return [sys.executable, "-c", "from compat_register.cli import run; run()", *args]


def register(
    cwd: Path, *args: str, timeout: float = HANG_GUARD
) -> subprocess.CompletedProcess[str]:
    """`register ARGS` in `cwd`, its output kept; no traceback or internal error allowed."""
    done = subprocess.run(
        command(*args), cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return done

"""The `register` command: a thin click shell over `api`. Prints, never decides.

One module per group of commands (`checking`: check, verify, fix, export; `conformance`:
conformance import; `coverage`; `matrix`; `pincommands`: sync, bump, stamp, cite;
`projectcommands`: init, import, diff; `render`), each imported by the group in `group`
when its command runs, over the options, printing and error handling they share (`shell`).
The console script is `run`.
"""

from __future__ import annotations

import contextlib
import sys

from .group import main
from .shell import quiet_stdout

__all__ = ["main", "run"]


def run() -> None:
    """The console script: `main`, its output flushed here, so that a reader that left early
    (`register export | head`) ends the run with exit 1 and no traceback."""
    try:
        main()
        code: int | str | None = 0
    except SystemExit as done:
        code = done.code
    except BrokenPipeError:  # raised outside a command (say, by --help | head)
        quiet_stdout()
        code = 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left before the last of the output
        quiet_stdout()
        code = code or 1
    with contextlib.suppress(OSError):
        sys.stderr.flush()
    sys.exit(code)

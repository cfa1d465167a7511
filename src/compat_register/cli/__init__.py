"""The `register` command: a thin click shell over `api`. Prints, never decides.

One module per group of commands (`checking`: check, verify, fix, export; `conformance`:
conformance import; `coverage`; `pins`: sync,
bump, stamp, cite; `project`: init, import, diff; `render`), each adding its commands to
the group in `group`, over the options, printing and error handling they share (`shell`).
The console script is `run`.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys

from . import checking, conformance, coverage, matrix, pincommands, projectcommands, render  # noqa: F401 - each adds
from .group import main
from .shell import echo, quiet_stdout

__all__ = ["main", "run"]


def run() -> None:
    """The console script: one command in a process of its own.

    The cyclic garbage collector is off for the command: a run builds hundreds of
    thousands of small objects and no garbage cycles, and the collector's repeated full
    passes over them took a sixth of `register verify`'s CPU. The process ends with the
    command, so the setting outlives nothing; `api` and the MkDocs plugin (which runs for
    hours inside `mkdocs serve`) leave the collector alone, and so do tests, which call
    `main` through click's runner.

    For the same reason the process ends with `os._exit` once its output is flushed, and
    the finished command's frames are kept until then: freeing every object of a large run
    one by one, then tearing the interpreter down, took a tenth of `register verify`'s
    time, for memory the kernel takes back at once. Nothing waits for the interpreter's
    end: the commands write and close their files themselves, and a `git cat-file` still
    running ends when its input closes with this process.
    """
    gc.disable()
    ended: list[SystemExit] = []  # its traceback holds the command's frames: kept, unfreed
    try:
        main()
        code = 0
    except SystemExit as done:
        ended.append(done)
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if isinstance(done.code, str):
            echo(done.code, err=True)
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
    os._exit(code)

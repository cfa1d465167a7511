"""The `register` command: a thin click shell over `api`. Prints, never decides.

One module per group of commands, each imported when its command runs (click's lazy
subcommands), over what they share (`shell`). The console script is `run`.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from pathlib import Path

import click

from .shell import quiet_stdout, registers_option

COMMANDS = {
    "bump": "checking.bump",
    "check": "checking.check",
    "cite": "checking.cite",
    "conformance": "measuring.conformance",
    "coverage": "measuring.coverage",
    "diff": "projectcommands.diff_command",
    "export": "checking.export_command",
    "fix": "checking.fix",
    "import": "projectcommands.import_command",
    "init": "projectcommands.init",
    "matrix": "measuring.matrix",
    "render": "projectcommands.render_command",
    "stamp": "checking.stamp",
    "sync": "checking.sync",
    "verify": "checking.verify",
}
"""Each command's name and where it is defined (module of `cli`, then the command)."""


class LazyGroup(click.Group):
    """A group whose commands are imported when asked for (click's "Lazily Loading
    Subcommands"), so that a command loads only the stages it needs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, name = COMMANDS[cmd_name].split(".")
        command: click.Command = getattr(importlib.import_module(f".{module}", __package__), name)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="compat-register")
@registers_option()
def main(registers_dir: Path | None) -> None:
    """Compatibility registers as checked data.

    Reads the project's registers folder, sources.yaml and one YAML file per register:
    --registers DIR (before or after the command), else $REGISTER_DIR, else registers/ in
    the nearest folder at or above this one holding registers/sources.yaml or a mkdocs.yml
    naming the register plugin, as git finds its repository.
    Exit codes: 0 clean, 1 problems found, 2 usage error.
    """


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

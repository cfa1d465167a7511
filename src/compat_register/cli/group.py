"""The `register` group: each command is imported from its module of `cli` when it is run
or listed, so that a command loads only the stages it needs (click's lazy subcommands)."""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from .shell import REGISTERS_HELP

COMMANDS = {
    "bump": "pincommands.bump",
    "check": "checking.check",
    "cite": "pincommands.cite",
    "conformance": "conformance.conformance",
    "coverage": "coverage.coverage",
    "diff": "projectcommands.diff_command",
    "export": "checking.export_command",
    "fix": "checking.fix",
    "import": "projectcommands.import_command",
    "init": "projectcommands.init",
    "matrix": "matrix.matrix",
    "render": "render.render_command",
    "stamp": "pincommands.stamp",
    "sync": "pincommands.sync",
    "verify": "checking.verify",
}
"""Each command's name and where it is defined (module of `cli`, then the command)."""


class LazyGroup(click.Group):
    """A group whose commands are imported when asked for, as in click's documentation
    ("Lazily Loading Subcommands")."""

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
@click.option(
    "--registers",
    "registers_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=REGISTERS_HELP,
)
def main(registers_dir: Path | None) -> None:
    """Compatibility registers as checked data.

    Reads the project's registers folder, sources.yaml and one YAML file per register:
    --registers DIR (before or after the command), else $REGISTER_DIR, else registers/ in
    the nearest folder at or above this one holding registers/sources.yaml or a mkdocs.yml
    naming the register plugin, as git finds its repository.
    Exit codes: 0 clean, 1 problems found, 2 usage error.
    """

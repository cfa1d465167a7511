"""The `register` group; each module of `cli` adds its commands to it."""

from __future__ import annotations

from pathlib import Path

import click

from .shell import REGISTERS_HELP


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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

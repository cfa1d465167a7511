"""`register coverage`: the specification's normative statements per revision, cited,
excluded or uncovered."""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path

import click

from .. import api
from ..reporting import coveragereport as covering
from ..reporting import report as reporter
from .shell import echo, formats_option, no_traceback, registers_option, require_dir, settings


@click.command()
@registers_option
@click.argument("revisions", nargs=-1, metavar="[REVISION]...")
@formats_option(("text", "json"), "text: counts per revision and file, then the uncovered")
@click.option("--new", "new_only", is_flag=True, help="Only what each revision added or changed.")
@click.option(
    "--min",
    "minimum",
    type=click.FloatRange(0, 100),
    metavar="PERCENT",
    help="Fail (exit 1) for a revision less covered than this (cited + excluded).",
)
@no_traceback
def coverage(
    registers_dir: Path, revisions: tuple[str, ...], fmt: str, new_only: bool, minimum: float | None
) -> None:
    """The spec's normative statements per revision: cited, excluded, uncovered."""
    require_dir(registers_dir)
    result = api.coverage(registers_dir, revisions, minimum=minimum, settings=settings())
    shown = result.measured.coverage
    if fmt == "json":
        data = covering.json_report(shown, result.revisions, new_only)
        data["diagnostics"] = [asdict(d) for d in result.diagnostics]
        echo(reporter.dumps(data))
    else:
        for diagnostic in reporter.collapse_runs(result.diagnostics):
            echo(diagnostic.as_text())
        if result.configured:  # else 0 statements would read as "100.0% covered"
            echo(covering.text_report(shown, result.revisions, result.registers.sources, new_only))
    sys.exit(reporter.exit_code(result.diagnostics, False))

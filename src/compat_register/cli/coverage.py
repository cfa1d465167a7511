"""`register coverage`: the specification's normative statements per revision, cited,
excluded or uncovered."""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path

import click

from .. import api
from ..reporting import coveragereport
from ..reporting import report as reporter
from .shell import command, echo, formats_option, settings


@command()
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
def coverage(
    registers_dir: Path, revisions: tuple[str, ...], fmt: str, new_only: bool, minimum: float | None
) -> None:
    """The spec's normative statements per revision: cited, excluded, uncovered."""
    result = api.coverage(registers_dir, revisions, minimum=minimum, settings=settings())
    shown = result.measured.coverage
    if fmt == "json":
        data = coveragereport.json_report(shown, result.revisions, new_only)
        data["diagnostics"] = [asdict(d) for d in result.diagnostics]
        echo(reporter.dumps(data))
    else:
        for diagnostic in reporter.collapse_runs(result.diagnostics):
            echo(diagnostic.as_text())
        if result.configured:  # else 0 statements would read as "100.0% covered"
            sources = result.registers.sources
            echo(coveragereport.text_report(shown, result.revisions, sources, new_only))
    sys.exit(reporter.exit_code(result.diagnostics, False))

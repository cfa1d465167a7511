"""`register matrix`: the concept x subject matrix, as a table, JSON or Markdown."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import api
from ..reporting import matrixreport
from ..reporting import report as reporter
from .shell import command, echo, formats_option, settings


@command()
@formats_option(("text", "json", "markdown"), "markdown: a table for a README")
@click.option(
    "--verify",
    "verify",
    is_flag=True,
    help="Verify every citation first (needs the checkouts): a cell on a stale one says so.",
)
@click.option(
    "--no-history",
    "no_history",
    is_flag=True,
    help="Leave the cells undated (by default each says since when, from the registers' "
    "git history).",
)
def matrix(registers_dir: Path, fmt: str, verify: bool, no_history: bool) -> None:
    """One row per concept (registers/concepts.yaml), one column per subject."""
    result = api.matrix(registers_dir, verify=verify, dated=not no_history, settings=settings())
    for diagnostic in reporter.collapse_runs(result.diagnostics):
        echo(diagnostic.as_text(), err=True)
    data = result.data
    if fmt == "json":
        echo(reporter.dumps(data))
    elif fmt == "markdown":
        echo(matrixreport.matrix_markdown(data), nl=False)
    else:
        echo(matrixreport.matrix_text(data))
    sys.exit(reporter.exit_code(result.diagnostics, False))

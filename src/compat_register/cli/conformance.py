"""`register conformance import`: the conformance suite's results recorded for a subject."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import api
from ..reporting import conformancereport
from ..reporting import report as reporter
from .shell import command, echo, formats_option, settings, waiting


@click.group()
def conformance() -> None:
    """The official MCP conformance suite's results, beside the registers."""


@command("import", group=conformance)
@click.option("--subject", required=True, metavar="ALIAS", help="The source the results measured.")
@click.option(
    "--commit",
    metavar="SHA",
    help="The subject's commit the suite ran against (default: its pin in sources.yaml).",
)
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The expected-failures YAML the run used (server: and client: scenario lists).",
)
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path))
@formats_option(("text", "json"), "text: a line per run; json: one object.")
def import_command(
    registers_dir: Path,
    subject: str,
    commit: str | None,
    baseline: Path | None,
    results: tuple[Path, ...],
    fmt: str,
) -> None:
    """Record RESULTS (results folders of a run, or checks.json files) for a subject.

    Writes registers/conformance/ALIAS.json, replacing the subject's previous record; of
    several runs of one scenario the latest is kept. Nothing is written while a file named
    is not what the suite writes (each problem located in it).
    """
    imported = api.import_results(
        registers_dir,
        subject,
        results,
        commit=commit,
        baseline=baseline,
        settings=settings(),
        on_wait=waiting,
    )
    for diagnostic in imported.diagnostics:
        echo(diagnostic.as_text(), err=fmt == "json")
    if imported.refused:
        echo(f"register: {imported.refused}", err=True)
    elif imported.record is not None:
        if fmt == "json":
            data = conformancereport.import_data(imported.record, imported.file, imported.older)
            echo(reporter.dumps(data))
        else:
            echo(conformancereport.import_text(imported.record, imported.file, imported.older))
    sys.exit(1 if imported.failed else 0)

"""`register coverage`, `matrix`, `conformance import` and `score`: what the registers
measure, the concept x subject matrix, the conformance suite's results recorded and scored."""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path

import click

from .. import api
from ..reporting import conformancereport, coveragereport, matrixreport
from ..reporting import report as reporter
from .shell import command, echo, formats_option, settings, waiting


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
@click.option(
    "--checks",
    is_flag=True,
    help="Text: also each statement's conformance checks, their status and every result.",
)
def coverage(
    registers_dir: Path,
    revisions: tuple[str, ...],
    fmt: str,
    new_only: bool,
    minimum: float | None,
    checks: bool,
) -> None:
    """The spec's normative statements per revision: cited, excluded, uncovered."""
    result = api.coverage(registers_dir, revisions, minimum=minimum, settings=settings())
    shown = result.measured.coverage
    if fmt == "json":
        data = coveragereport.json_report(shown, result.revisions, new_only, result.joined)
        data["diagnostics"] = [asdict(d) for d in result.diagnostics]
        echo(reporter.dumps(data))
    else:
        for diagnostic in reporter.collapse_runs(result.diagnostics):
            echo(diagnostic.as_text())
        if result.configured:  # else 0 statements would read as "100.0% covered"
            sources = result.registers.sources
            joined = result.joined if checks else None
            echo(coveragereport.text_report(shown, result.revisions, sources, new_only, joined))
    sys.exit(reporter.exit_code(result.diagnostics, False))


@command()
@formats_option(("text", "json", "markdown"), "markdown: a table for a README")
@click.option(
    "--verify",
    is_flag=True,
    help="Verify every citation first (needs the checkouts): a cell on a stale one says so.",
)
@click.option(
    "--no-history",
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
@click.option(
    "--revision",
    metavar="REVISION",
    help="The revision whose wire the run spoke (one of sources.yaml's revisions): its runs "
    "replace only that revision's.",
)
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path))
@formats_option(("text", "json"), "text: a line per run; json: one object.")
def import_command(
    registers_dir: Path,
    subject: str,
    commit: str | None,
    baseline: Path | None,
    revision: str | None,
    results: tuple[Path, ...],
    fmt: str,
) -> None:
    """Record RESULTS (results folders of a run, or checks.json files) for a subject.

    Writes registers/conformance/ALIAS.json, replacing the subject's previous record (with
    --revision, only its runs of that revision, when it measured the same commit); of
    several runs of one scenario the latest is kept. Nothing is written while a file named
    is not what the suite writes (each problem located in it).
    """
    imported = api.import_results(
        registers_dir,
        subject,
        results,
        commit=commit,
        baseline=baseline,
        revision=revision,
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


@command("score", group=conformance)
@click.option("--subject", metavar="ALIAS", help="Only this subject (default: every recorded one).")
@click.option("--revision", metavar="REVISION", help="Only this revision's requirement set.")
@formats_option(("text", "json", "markdown"), "markdown: a section per subject, for a README")
def score_command(registers_dir: Path, subject: str | None, revision: str | None, fmt: str) -> None:
    """Each subject's pass rate and tier per revision's requirement set (SEP-1730), with
    its SEPs' pass rates.

    Reads the suite's requirement files at the pin of the source naming them (requirements:
    in sources.yaml) and each subject's recorded results (register conformance import).
    """
    result = api.scores(registers_dir, subject=subject, revision=revision, settings=settings())
    for diagnostic in reporter.collapse_runs(result.diagnostics):
        echo(diagnostic.as_text(), err=True)
    data = conformancereport.score_data(result.scores, result.seps)
    if fmt == "json":
        data["diagnostics"] = [asdict(d) for d in result.diagnostics]
        echo(reporter.dumps(data))
    elif fmt == "markdown":
        echo(conformancereport.score_markdown(data, result.names), nl=False)
    else:
        echo(conformancereport.score_text(data))
    sys.exit(reporter.exit_code(result.diagnostics, False))

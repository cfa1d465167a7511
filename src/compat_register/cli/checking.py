"""`register check`, `verify`, `fix` and `export`: the register set checked, its citations
verified, moved ones re-pointed, the whole set as JSON."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from .. import api
from ..reporting import export
from ..reporting import report as reporter
from .shell import command, echo, report_options, settings, waiting


@command()
@report_options()
def check(registers_dir: Path, fmt: str, strict: bool, verbose: bool) -> None:
    """Load, validate and cross-link the registers (no source read, no network)."""
    result = api.check(registers_dir, settings())
    echo(reporter.format_report(result.diagnostics, fmt, verbose=verbose))
    sys.exit(reporter.exit_code(result.diagnostics, strict))


@command()
@report_options()
@click.option(
    "--skip",
    "skip",
    multiple=True,
    metavar="ALIAS",
    help="Leave this source's citations unverified on purpose (repeatable).",
)
@click.option("--offline", is_flag=True, help="Verify nothing: every citation stays unverified.")
@click.option(
    "--against",
    metavar="ALIAS=REV",
    callback=lambda _ctx, _param, value: _alias_rev(value),
    help="Judge ALIAS's citations as if its pin were moved to REV (a commit, branch, tag or "
    "HEAD of its checkout), as register bump would move them; report what would go stale.",
)
@click.option(
    "--conformance",
    is_flag=True,
    help="Also fail on a contradiction between a claim and the recorded conformance results "
    "(register conformance import): done while its check fails, missing while it passes.",
)
def verify(
    registers_dir: Path,
    fmt: str,
    strict: bool,
    verbose: bool,
    skip: tuple[str, ...],
    offline: bool,
    against: tuple[str, str] | None,
    conformance: bool,
) -> None:
    """Check, then verify every citation against its source's pinned commit."""
    if against and (offline or against[0] in skip):
        raise click.UsageError(f"--against {against[0]}=... needs that source's checkout")
    result = api.verify_citations(
        registers_dir, skip=skip, offline=offline, settings=settings(), against=against
    )
    if conformance:
        result = api.with_conformance(result, settings())
    extra: dict[str, Any] = {}
    if fmt == "json":
        extra["citations"] = [export.outcome_data(o) for o in result.outcomes]
        if result.preview:
            extra["against"] = export.preview_data(result.preview)
    echo(reporter.format_report(result.diagnostics, fmt, result.summary, extra, verbose))
    if result.preview and fmt != "json":
        echo(reporter.preview_text(result.preview))
    sys.exit(reporter.exit_code(result.diagnostics, strict))


def _alias_rev(value: str | None) -> tuple[str, str] | None:
    if value is None:
        return None
    alias, equals, rev = value.partition("=")
    if not equals or not alias or not rev:
        raise click.BadParameter(f"'{value}': expected ALIAS=REV, e.g. mcpx=HEAD")
    return alias, rev


@command()
@report_options(strict=False)
def fix(registers_dir: Path, fmt: str, verbose: bool) -> None:
    """Rewrite the line numbers of moved citations in place (nothing else changes)."""
    fixed = api.fix(registers_dir, settings(), on_wait=waiting)
    if fmt != "json":
        for change in fixed.changes:
            echo(change.as_text())
    extra: dict[str, object] = {"changes": [change._asdict() for change in fixed.changes]}
    echo(reporter.format_report(fixed.diagnostics, fmt, fixed.summary, extra, verbose))
    sys.exit(reporter.exit_code(fixed.diagnostics, strict=False))


@command(name="export")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the JSON here instead of standard output.",
)
def export_command(registers_dir: Path, output: Path | None) -> None:
    """Print the whole register set as JSON (backlinks and parsed citations included)."""
    result = api.check(registers_dir, settings())
    for diagnostic in result.diagnostics:
        echo(diagnostic.as_text(), err=True)
    text = reporter.dumps(export.export(result.registers))
    if output:
        api.write_files({output: text + "\n"})
    else:
        echo(text)
    sys.exit(reporter.exit_code(result.diagnostics, strict=False))

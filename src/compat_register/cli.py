"""The `register` command: a thin click shell over `api`. Prints, never decides."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from . import api, edit, export
from .diagnostics import Diagnostic, format_report

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = click.Choice(["text", "github", "json"])


def registers_option(func: F) -> F:
    """`--registers DIR`, default ./registers, shared by every command."""
    return click.option(
        "--registers",
        "registers_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("registers"),
        show_default=True,
        help="Directory holding sources.yaml and the register files.",
    )(func)


def format_option(func: F) -> F:
    return click.option(
        "--format",
        "fmt",
        type=FORMATS,
        default="text",
        show_default=True,
        help="text: FILE:LINE:COL lines; github: Actions annotations; json: one object.",
    )(func)


def strict_option(func: F) -> F:
    return click.option("--strict", is_flag=True, help="Fail on warnings too.")(func)


def no_traceback(func: F) -> F:
    """Turn an unexpected exception into one line and exit 1: users never see a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("register: interrupted", err=True)
            sys.exit(130)
        except Exception as err:  # noqa: BLE001 - the last line of defence
            click.echo(f"register: internal error: {type(err).__name__}: {err}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def _require_dir(registers_dir: Path) -> None:
    if not registers_dir.is_dir():
        raise click.UsageError(f"registers directory '{registers_dir}' does not exist")


def exit_code(diagnostics: list[Diagnostic], strict: bool) -> int:
    """0 clean, 1 problems (errors; warnings too under --strict)."""
    if any(d.severity == "error" for d in diagnostics):
        return 1
    if strict and diagnostics:
        return 1
    return 0


def report(
    diagnostics: list[Diagnostic],
    fmt: str,
    summary: dict[str, int] | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    click.echo(format_report(diagnostics, fmt, summary, extra))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="compat-register")
def main() -> None:
    """Compatibility registers as checked data.

    Reads ./registers (or --registers DIR): sources.yaml and one YAML file per register.
    Exit codes: 0 clean, 1 problems found, 2 usage error.
    """


@main.command()
@registers_option
@format_option
@strict_option
@no_traceback
def check(registers_dir: Path, fmt: str, strict: bool) -> None:
    """Load, validate and cross-link the registers (no git, no network)."""
    _require_dir(registers_dir)
    result = api.check(registers_dir)
    report(result.diagnostics, fmt)
    sys.exit(exit_code(result.diagnostics, strict))


@main.command()
@registers_option
@format_option
@strict_option
@click.option(
    "--skip",
    "skip",
    multiple=True,
    metavar="ALIAS",
    help="Leave this source's citations unverified on purpose (repeatable).",
)
@click.option("--offline", is_flag=True, help="Verify nothing: every citation stays unverified.")
@no_traceback
def verify(
    registers_dir: Path, fmt: str, strict: bool, skip: tuple[str, ...], offline: bool
) -> None:
    """Check, then verify every citation against its source's pinned commit."""
    _require_dir(registers_dir)
    result = api.verify_citations(registers_dir, skip=skip, offline=offline)
    extra = (
        {"citations": [export.outcome_data(o) for o in result.outcomes]} if fmt == "json" else {}
    )
    report(result.diagnostics, fmt, result.summary, extra)
    sys.exit(exit_code(result.diagnostics, strict))


@main.command()
@registers_option
@format_option
@no_traceback
def fix(registers_dir: Path, fmt: str) -> None:
    """Rewrite the line numbers of moved citations in place (nothing else changes)."""
    _require_dir(registers_dir)
    try:
        result, changes = api.fix(registers_dir)
    except edit.EditError as err:
        raise click.ClickException(str(err)) from None
    remaining = [d for d in result.diagnostics if d.code != "citation-moved"]
    if fmt != "json":
        for change in changes:
            click.echo(change.as_text())
    extra = {"changes": [change.__dict__ for change in changes]}
    summary = {**result.summary, "fixed": len(changes)}
    report(remaining, fmt, summary, extra)
    sys.exit(exit_code(remaining, strict=False))


@main.command()
@registers_option
@click.argument("aliases", nargs=-1, metavar="[ALIAS]...")
@no_traceback
def sync(registers_dir: Path, aliases: tuple[str, ...]) -> None:
    """Fetch each source's pinned commit into the cache (all sources with a repo by default)."""
    _require_dir(registers_dir)
    show = sys.stderr.isatty()

    def progress(alias: str, line: str) -> None:
        if show:
            click.echo(f"\r{alias}: {line[:100]:<100}", err=True, nl=False)

    synced, problems = api.sync(registers_dir, aliases, progress)
    if show:
        click.echo("", err=True)
    for alias, sha in synced:
        click.echo(f"{alias}: {sha}")
    for problem in problems:
        click.echo(problem.as_text())
    sys.exit(exit_code(problems, strict=False))


@main.command(name="export")
@registers_option
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the JSON here instead of standard output.",
)
@no_traceback
def export_command(registers_dir: Path, output: Path | None) -> None:
    """Print the whole register set as JSON (backlinks and parsed citations included)."""
    _require_dir(registers_dir)
    result = api.check(registers_dir)
    for diagnostic in result.diagnostics:
        click.echo(diagnostic.as_text(), err=True)
    text = json.dumps(export.export(result.registers), ensure_ascii=False, indent=2)
    if output:
        output.write_text(text + "\n", encoding="utf-8")
    else:
        click.echo(text)
    sys.exit(exit_code(result.diagnostics, strict=False))


@main.command(name="render")
@registers_option
@click.option(
    "--out",
    "out",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder to write the pages to (a docs dir: registers/*.md, assets/compat-register/).",
)
@click.option("--offline", is_flag=True, help="Read no checkout: every citation unverified.")
@click.option(
    "--templates",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Jinja2 templates overriding the packaged ones, file by file.",
)
@click.option("--legend", metavar="PAGE", help="A page in the docs dir to link as the legend.")
@no_traceback
def render_command(
    registers_dir: Path, out: Path, offline: bool, templates: Path | None, legend: str | None
) -> None:
    """Write the site's pages as Markdown, for engines that run no MkDocs plugins."""
    from . import render  # noqa: PLC0415 - only this command needs Jinja2 and Pygments

    _require_dir(registers_dir)
    result = api.verify_citations(registers_dir, offline=offline)
    for diagnostic in result.diagnostics:
        if render.site_level(diagnostic) != "info":
            click.echo(diagnostic.as_text(), err=True)
    layout = render.Layout(legend=legend)
    pages = render.render_site(
        result.registers, result.outcomes, layout=layout, templates=templates
    )
    for name in render.ASSETS:
        pages[f"assets/compat-register/{name}"] = render.asset(name, templates)
    for uri, text in pages.items():
        target = out / uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    click.echo(f"wrote {len(pages)} files to {out}")
    errors = [d for d in result.diagnostics if render.site_level(d) == "error"]
    sys.exit(1 if errors else 0)


def run() -> None:
    """The console script: run a command, then end the process without freeing its heap.

    Tearing down a large run's objects one by one took a tenth of `register verify`; the
    operating system reclaims them at once (mypy ends its runs the same way). Tests call
    `main` through click's runner instead, which exits normally.
    """
    try:
        main()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if isinstance(done.code, str):
            click.echo(done.code, err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)

"""The `register` command: a thin click shell over `api`. Prints, never decides."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from . import api, export
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

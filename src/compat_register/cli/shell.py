"""What every `register` command shares: its options, how it prints (every value shown,
never obeyed), and the one place our errors become click's."""

from __future__ import annotations

import contextlib
import os
import select
import sys
from collections.abc import Callable
from functools import partial, wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from .. import api
from ..reporting import report as reporter

F = TypeVar("F", bound=Callable[..., Any])


registers_option = partial(
    click.option,
    "--registers",
    "registers_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Directory holding sources.yaml and the register files (default: $REGISTER_DIR, else "
    "the registers/ of the nearest folder at or above this one holding registers/sources.yaml "
    "or a mkdocs.yml naming the register plugin).",
)
"""`--registers DIR`: the group's, and each command's (with the callback finding it)."""


def command(
    name: str | None = None, *, group: click.Group | None = None, needs_dir: bool = True
) -> Callable[[F], F]:
    """A command over the registers folder (of `group`, or of `COMMANDS`): `--registers`
    first, the folder checked before the body runs unless not `needs_dir`, no traceback."""

    def decorate(func: F) -> F:
        @wraps(func)
        def checked(**params: Any) -> Any:
            if needs_dir:
                require_dir(params["registers_dir"])
            return func(**params)

        make = group.command if group else click.command
        found = registers_option(callback=_find_registers)
        return make(name=name)(found(no_traceback(checked)))  # type: ignore[return-value]

    return decorate


def _find_registers(ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path:
    """This command's --registers, the group's, $REGISTER_DIR, the nearest project above,
    else ./registers (reported missing)."""
    given = value if value is not None else ctx.find_root().params.get("registers_dir")
    found = api.registers_folder(given, settings())
    return Path(api.DEFAULT_REGISTERS) if found is None else found


def settings() -> api.Settings:
    """This run's `REGISTER_*` settings, read once, kept on click's root context."""
    root = click.get_current_context().find_root()
    if root.obj is None:
        root.obj = api.Settings.read()
    return root.obj


def report_options(strict: bool = True) -> Callable[[F], F]:
    """`--format text|github|json`, `--strict` (unless not `strict`) and `--verbose`: the
    options of the commands that report diagnostics, in that order."""

    def decorate(func: F) -> F:
        verbose = (
            "List each warning of a run of one kind on one entry (by default one line counts them)."
        )
        func = click.option("--verbose", "-v", is_flag=True, help=verbose)(func)
        if strict:
            func = click.option("--strict", is_flag=True, help="Fail on warnings too.")(func)
        described = "text: FILE:LINE:COL lines; github: Actions annotations; json: one object."
        return formats_option(reporter.FORMATS, described)(func)

    return decorate


def formats_option(choices: tuple[str, ...] | list[str], described: str) -> Callable[[F], F]:
    """`--format` with these choices, `text` by default."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default="text",
        show_default=True,
        help=described,
    )


def no_traceback(func: F) -> F:
    """Turn an unexpected exception into one line and exit 1: users never see a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except api.RegisterError as err:  # ours, one line: a usage error exits 2, else 1
            message = reporter.shown(str(err))
            raise (click.UsageError if err.usage else click.ClickException)(message) from None
        except click.ClickException as err:  # its message may name a file, an alias, a quote
            setattr(err, "message", reporter.shown(err.message))  # noqa: B010 - typed final
            raise
        except (click.exceptions.Exit, click.Abort):  # RuntimeErrors click handles itself
            raise
        except KeyboardInterrupt:
            echo("register: interrupted", err=True)
            sys.exit(130)
        except Exception as err:  # noqa: BLE001 - the last line of defence
            if isinstance(err, BrokenPipeError) and stdout_gone():
                quiet_stdout()  # `register export | head`: the reader has all it wanted
            else:  # a broken pipe to a git that died included
                echo(f"register: internal error: {type(err).__name__}: {err}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Print `text` with every value shown, never obeyed (an escape as `\x1b`)."""
    click.echo(reporter.shown(text), err=err, nl=nl)


def waiting(line: str) -> None:
    """A writer waits for another: say for whom, once, on stderr."""
    echo(f"register: {line}", err=True)


def stdout_gone() -> bool:
    """Whether standard output is a pipe whose reader has gone (poll says POLLERR)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # no file descriptor (click's test runner)
        return True


def quiet_stdout() -> None:
    """Standard output to /dev/null once its reader has gone, so that the final flush
    does not fail again (the Python docs' advice for SIGPIPE)."""
    with contextlib.suppress(OSError, ValueError):  # no file descriptor: click's test runner
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def require_dir(registers_dir: Path) -> None:
    if registers_dir.is_dir():
        return
    searched = ""
    default = api.DEFAULT_REGISTERS
    if registers_dir == Path(default):  # none was found
        searched = (
            f" (nor does any {default}/sources.yaml above it: name the folder with "
            f"--registers DIR or {api.REGISTERS_VARIABLE})"
        )
    raise click.UsageError(f"registers directory '{registers_dir}' does not exist{searched}")


def progress_line(alias: str, line: str) -> None:
    """git's progress, over itself on one terminal line (its own CR kept, nothing else)."""
    click.echo(f"\r{reporter.shown_line(f'{alias}: {line[:100]:<100}')}", err=True, nl=False)

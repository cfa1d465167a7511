"""The `register` command: a thin click shell over `api`. Prints, never decides."""

from __future__ import annotations

import contextlib
import gc
import os
import select
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from . import api
from .following import edit
from .reporting import export
from .reporting import report as reporter

if TYPE_CHECKING:
    from .history.repository import History

F = TypeVar("F", bound=Callable[..., Any])


REGISTERS_HELP = (
    "Directory holding sources.yaml and the register files (default: $REGISTER_DIR, else "
    "the registers/ of the nearest folder at or above this one holding registers/sources.yaml "
    "or a mkdocs.yml naming the register plugin)."
)


def registers_option(func: F) -> F:
    """`--registers DIR`, shared by every command; found like git finds its repository
    when neither it nor `register --registers DIR` names it (`reading.project`)."""
    return click.option(
        "--registers",
        "registers_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        callback=_find_registers,
        help=REGISTERS_HELP,
    )(func)


def _find_registers(ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path:
    """The registers folder: this command's --registers, the group's, $REGISTER_DIR, or the
    nearest project above the working directory; ./registers (reported missing) when none."""
    given = value if value is not None else ctx.find_root().params.get("registers_dir")
    found = api.registers_folder(given)
    return Path(api.DEFAULT_REGISTERS) if found is None else found


def format_option(func: F) -> F:
    """`--format text|github|json`, for the commands that report diagnostics."""
    described = "text: FILE:LINE:COL lines; github: Actions annotations; json: one object."
    return formats_option(reporter.FORMATS, described)(func)


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


def strict_option(func: F) -> F:
    return click.option("--strict", is_flag=True, help="Fail on warnings too.")(func)


def no_traceback(func: F) -> F:
    """Turn an unexpected exception into one line and exit 1: users never see a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except api.RegisterError as err:  # ours, one line: a usage error exits 2, else 1
            raise click_error(err) from None
        except click.ClickException as err:  # its message may name a file, an alias, a quote
            setattr(err, "message", reporter.shown(err.message))  # noqa: B010 - typed final
            raise
        except (click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            echo("register: interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError as err:
            if not stdout_gone():  # a pipe to a git that died, not to our reader: say so
                echo(f"register: internal error: {type(err).__name__}: {err}", err=True)
                sys.exit(1)
            quiet_stdout()  # `register export | head`: the reader has all it wanted
            sys.exit(1)
        except Exception as err:  # noqa: BLE001 - the last line of defence
            echo(f"register: internal error: {type(err).__name__}: {err}", err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def click_error(err: api.RegisterError) -> click.ClickException:
    """Our error as click's: `Error: ...` and exit 1, or with the usage first and exit 2."""
    message = reporter.shown(str(err))
    return click.UsageError(message) if err.usage else click.ClickException(message)


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Print on the terminal: every value already in `text` shown, never obeyed (an escape
    sequence or a bidi control from a register file is written as `\x1b`, `\u202e`)."""
    click.echo(reporter.shown(text), err=err, nl=nl)


def waiting(line: str) -> None:
    """A writer waits for another (the project's lock): say for whom, once, on stderr."""
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
    """Point standard output at /dev/null once its reader has gone, so that the final
    flush does not fail a second time (what the Python docs advise for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor (click's test runner): nothing to do
        pass


def _require_dir(registers_dir: Path) -> None:
    if registers_dir.is_dir():
        return
    searched = ""
    default = api.DEFAULT_REGISTERS
    if registers_dir == Path(default):  # what _find_registers gives when it found none
        searched = (
            f" (nor does any {default}/sources.yaml above it: name the folder with "
            f"--registers DIR or {api.REGISTERS_VARIABLE})"
        )
    raise click.UsageError(f"registers directory '{registers_dir}' does not exist{searched}")


def report(
    diagnostics: list[api.Diagnostic],
    fmt: str,
    summary: dict[str, int] | None = None,
    extra: dict[str, Any] | None = None,
    verbose: bool = False,
) -> None:
    echo(reporter.format_report(diagnostics, fmt, summary, extra, verbose))


def verbose_option(func: F) -> F:
    return click.option(
        "--verbose",
        "-v",
        is_flag=True,
        help="List each warning of a run of one kind on one entry (by default one line "
        "counts them).",
    )(func)


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


@main.command()
@registers_option
@format_option
@strict_option
@verbose_option
@no_traceback
def check(registers_dir: Path, fmt: str, strict: bool, verbose: bool) -> None:
    """Load, validate and cross-link the registers (no git, no network)."""
    _require_dir(registers_dir)
    result = api.check(registers_dir)
    report(result.diagnostics, fmt, verbose=verbose)
    sys.exit(reporter.exit_code(result.diagnostics, strict))


@main.command()
@registers_option
@format_option
@strict_option
@verbose_option
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
@no_traceback
def verify(
    registers_dir: Path,
    fmt: str,
    strict: bool,
    verbose: bool,
    skip: tuple[str, ...],
    offline: bool,
    against: tuple[str, str] | None,
) -> None:
    """Check, then verify every citation against its source's pinned commit."""
    _require_dir(registers_dir)
    if against and (offline or against[0] in skip):
        raise click.UsageError(f"--against {against[0]}=... needs that source's checkout")
    result = api.verify_citations(registers_dir, skip=skip, offline=offline, against=against)
    extra: dict[str, Any] = {}
    if fmt == "json":
        extra["citations"] = [export.outcome_data(o) for o in result.outcomes]
        if result.preview:
            extra["against"] = export.preview_data(result.preview)
    report(result.diagnostics, fmt, result.summary, extra, verbose)
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


@main.command()
@registers_option
@format_option
@verbose_option
@no_traceback
def fix(registers_dir: Path, fmt: str, verbose: bool) -> None:
    """Rewrite the line numbers of moved citations in place (nothing else changes)."""
    _require_dir(registers_dir)
    fixed = api.fix(registers_dir, on_wait=waiting)
    if fmt != "json":
        for change in fixed.changes:
            echo(change.as_text())
    extra = {"changes": [change.__dict__ for change in fixed.changes]}
    report(fixed.diagnostics, fmt, fixed.summary, extra, verbose)
    sys.exit(reporter.exit_code(fixed.diagnostics, strict=False))


@main.command()
@registers_option
@click.argument("alias")
@click.argument("rev", required=False, metavar="[COMMIT]")
@click.option("--dry-run", is_flag=True, help="Print the report; write nothing.")
@formats_option(["text", "json"], "text: one line per citation that moved; json: one object.")
@no_traceback
def bump(registers_dir: Path, alias: str, rev: str | None, dry_run: bool, fmt: str) -> None:
    """Move ALIAS's pin to COMMIT and every citation of it along.

    COMMIT defaults to the newest commit: the HEAD of a local checkout, else the tip of the
    repository's default branch, fetched into the cache. Each cited range is followed
    through git's diff: carried over, re-anchored (new lines or a renamed file, rewritten in
    place), changed (the cited lines were edited: read them), or gone (deleted). Exit 1
    when a citation changed or is gone, even though the files were written.
    """
    _require_dir(registers_dir)
    bumped = api.bump(
        registers_dir, alias, rev, dry_run=dry_run, progress=_progress(alias), on_wait=waiting
    )
    if bumped.bump is None:
        report(bumped.diagnostics, "text")
        raise click.ClickException(str(bumped.refused))
    echo(reporter.bump_report(bumped.bump, dry_run, fmt))
    counts = bumped.bump.counts()
    sys.exit(1 if counts["changed"] or counts["gone"] else 0)


def _progress(alias: str) -> Callable[[str], None] | None:
    if not sys.stderr.isatty():
        return None
    return lambda line: progress_line(alias, line)


def progress_line(alias: str, line: str) -> None:
    """git's progress, over itself on one terminal line (its own CR kept, nothing else)."""
    click.echo(f"\r{reporter.shown_line(f'{alias}: {line[:100]:<100}')}", err=True, nl=False)


@main.command()
@registers_option
@click.argument("ids", nargs=-1, metavar="[ID]...")
@no_traceback
def stamp(registers_dir: Path, ids: tuple[str, ...]) -> None:
    """Record the cited lines of the given entries (all when none is named) as reviewed.

    Writes registers/citations.lock: one line per citation, the hash of its lines at the
    pinned commit in the form their file kind compares (docs/pins.md). Run it after reading
    the lines `register verify` reports as changed or unstamped. A citation whose lines do
    not read as cited is not stamped.
    """
    _require_dir(registers_dir)
    stamped = api.stamp(registers_dir, ids, on_wait=waiting)
    if stamped.refused is not None:
        report(stamped.diagnostics, "text", stamped.verified.summary)
        raise click.ClickException(stamped.refused)
    for outcome in stamped.unstampable:
        echo(reporter.refused_text(outcome))
    echo(reporter.stamped_text(stamped.stamped, stamped.written))
    sys.exit(1 if stamped.unstampable else 0)


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
            progress_line(alias, line)

    result = api.sync(registers_dir, aliases, progress, on_wait=waiting)
    if show:
        echo("", err=True)
    for done in result.synced:
        held = f" (the checkout at {done.checkout} holds it: nothing fetched)"
        echo(f"{done.alias}: {done.sha}{held if done.checkout else ''}")
    for problem in result.diagnostics:
        echo(problem.as_text())
    sys.exit(reporter.exit_code(result.diagnostics, strict=False))


@main.command(name="diff")
@registers_option
@click.argument("revs", nargs=-1, metavar="[REV1 [REV2]]")
@formats_option(
    ["text", "json", "markdown"],
    "text: one line per change; json: one object; markdown: a pull-request comment.",
)
@no_traceback
def diff_command(registers_dir: Path, revs: tuple[str, ...], fmt: str) -> None:
    """What changed in the registers between two commits of the repository holding them.

    No REV: HEAD against the working tree; one: REV1 against the working tree. Reports
    entries added, removed and changed (state, value and effort old -> new, prose edited,
    citations added, removed and moved), registers added or removed, and pins moved.
    Exit 1 when a register file does not load at one side (it is reported, located).
    """
    from .reporting import diffs  # noqa: PLC0415

    if len(revs) > 2:
        raise click.UsageError("at most two revisions: register diff [REV1 [REV2]]")
    _require_dir(registers_dir)
    compared = api.diff(registers_dir, *revs)
    if fmt == "json":
        echo(reporter.dumps(diffs.diff_json(compared)))
    elif fmt == "markdown":
        echo(diffs.diff_markdown(compared), nl=False)
    else:
        echo(diffs.diff_text(compared))
    sys.exit(1 if compared.problems else 0)


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
        echo(diagnostic.as_text(), err=True)
    text = reporter.dumps(export.export(result.registers))
    if output:
        api.write_files({output: text + "\n"})
    else:
        echo(text)
    sys.exit(reporter.exit_code(result.diagnostics, strict=False))


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
@click.option(
    "--no-history", is_flag=True, help="Leave out the Changes page (read no git history)."
)
@click.option(
    "--repo-url", metavar="URL", help="The project's repository, to link each commit shown."
)
@click.option(
    "--subject",
    metavar="NAME",
    help="The subject the priorities page lists first (default: the subject of most entries).",
)
@click.option(
    "--edit-url",
    metavar="URL",
    help="Where the registers folder's files are edited (e.g. https://github.com/o/r/edit/"
    "main/registers/): each entry gets a link to its line there.",
)
@click.option(
    "--plain",
    is_flag=True,
    help="Plain Markdown pages in the hand-written shape instead (DIR/<register>.md, no HTML), "
    "which register import reads back; reads no checkout and no history.",
)
@no_traceback
def render_command(
    registers_dir: Path,
    out: Path,
    offline: bool,
    templates: Path | None,
    legend: str | None,
    no_history: bool,
    repo_url: str | None,
    subject: str | None,
    edit_url: str | None,
    plain: bool,
) -> None:
    """Write the site's pages as Markdown, for engines that run no MkDocs plugins."""
    _require_dir(registers_dir)
    with api.writer(
        registers_dir, "register render", on_wait=waiting
    ):  # it writes the excerpt cache
        if plain:
            _render_plain(registers_dir, out, legend)
        links = (repo_url, subject, edit_url)
        _render(registers_dir, out, offline, templates, legend, no_history, links)


def _render(
    registers_dir: Path,
    out: Path,
    offline: bool,
    templates: Path | None,
    legend: str | None,
    no_history: bool,
    links: tuple[str | None, str | None, str | None],
) -> None:
    """`register render`; `links`: the repository's URL, the subject the priorities page
    lists first, and where the registers folder's files are edited."""
    repo_url, subject, edit_url = links
    from .site import excerpts, levels, render  # noqa: PLC0415 - needs Jinja2 and Pygments
    from .site.excerptstore import ExcerptStore  # noqa: PLC0415 - as above

    result = api.verify_citations(registers_dir, offline=offline)
    layout = render.Layout(legend=legend)
    result.diagnostics.extend(render.page_clashes(result.registers, layout))
    for diagnostic in result.diagnostics:
        if levels.site_level(diagnostic) != "info":
            echo(diagnostic.as_text(), err=True)
    history = None if no_history else _history(registers_dir)
    renderer = render.Renderer(
        result.registers,
        result.outcomes,
        layout=layout,
        templates=templates,
        history=history,
        repo_url=repo_url,
        subject=subject,
        edit_url=edit_url,
    )
    pages = renderer.pages()
    refuse_unsafe_pages(pages)
    pages.update(renderer.downloads())
    folder = api.excerpt_cache(registers_dir)
    highlighter = excerpts.Highlighter(store=lambda settings: ExcerptStore(folder, settings))
    pages.update(excerpts.documents(renderer.excerpts, highlighter))
    for problem in highlighter.problems:
        echo(problem, err=True)
    for name in render.ASSETS:
        pages[f"assets/compat-register/{name}"] = render.asset(name, templates)
    files = {out / uri: text for uri, text in pages.items()}
    try:
        for path in files:
            path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise click.ClickException(f"cannot write {err.filename}: {err.strerror or err}") from None
    write_atomically(files)
    echo(f"wrote {len(pages)} files to {out}")
    errors = [d for d in result.diagnostics if levels.site_level(d) == "error"]
    sys.exit(1 if errors else 0)


def _render_plain(registers_dir: Path, out: Path, legend: str | None) -> None:
    plain = api.render_plain(registers_dir, legend)
    pages = plain.pages
    for diagnostic in plain.diagnostics:
        echo(diagnostic.as_text(), err=True)
    try:
        out.mkdir(parents=True, exist_ok=True)
        edit.write_all([(out / name, text.encode("utf-8")) for name, text in pages.items()])
    except OSError as err:
        message = f"cannot write {err.filename or out}: {err.strerror or err}"
        raise click.ClickException(message) from None
    echo(f"wrote {reporter.counted(len(pages), 'file')} to {out}")
    sys.exit(1 if plain.failed else 0)


def refuse_unsafe_pages(pages: dict[str, str]) -> None:
    """Stop before writing when a page's HTML would hold anything the site's sanitizer
    removes: the pages go to a site that runs no plugin, so nothing would clean them."""
    from .site import sanitize  # noqa: PLC0415 - only `render` needs Markdown and nh3

    for uri, text in pages.items():
        found = sanitize.unexpected_in_page(text)
        if found:
            shown = ", ".join(sorted(set(found))[:5])
            raise click.ClickException(
                f"{uri}: the page would carry HTML that the sanitizer removes ({shown}); "
                "nothing written"
            )


def write_atomically(files: dict[Path, str]) -> None:
    """Write every file, all or none, each through a temporary file and a rename."""
    try:
        edit.write_all([(path, text.encode("utf-8")) for path, text in files.items()])
    except OSError as err:
        where = _written(err.filename, files) or ", ".join(str(path) for path in files)
        raise click.ClickException(f"cannot write {where}: {err.strerror or err}") from None


def _written(name: str | None, files: dict[Path, str]) -> Path | None:
    """The file being written when `name` (an error's file name) failed: the target, not
    the temporary file beside it (`.x.json.abc123.tmp` for x.json)."""
    if name is None:
        return None
    failed = Path(name)
    for path in files:
        if failed == path or (
            failed.parent == path.parent and failed.name.startswith(f".{path.name}.")
        ):
            return path
    return failed


@main.command()
@click.argument(
    "folder", required=False, default=".", type=click.Path(file_okay=False, path_type=Path)
)
@click.option("--name", help="The site's name (default: the folder's name).")
@no_traceback
def init(folder: Path, name: str | None) -> None:
    """Start a register project in FOLDER (default: here): mkdocs.yml, registers/ with
    sources.yaml and an example register, docs/, the JSON Schemas, a CI workflow and a
    pre-commit configuration. Refuses to overwrite any file."""
    written = api.init(folder, name).written
    for path in written:
        echo(f"wrote {folder / path}")
    echo(NEXT_STEPS.format(cd=f"cd {folder} && " if str(folder) != "." else ""))


@main.command(name="import")
@registers_option
@click.argument("pages", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--name", help="The register file's name (one page only); default: its title.")
@click.option("--force", is_flag=True, help="Overwrite a register file that exists.")
@click.option("--dry-run", is_flag=True, help="Read and check the pages; write nothing.")
@formats_option(["text", "json"], "text: the report in lines; json: one object.")
@no_traceback
def import_command(
    registers_dir: Path,
    pages: tuple[Path, ...],
    name: str | None,
    force: bool,
    dry_run: bool,
    fmt: str,
) -> None:
    """Read hand-written register pages (plain text or Markdown) into register files.

    Each PAGE becomes REGISTERS/<title-slug>.yaml (or --name). Nothing is written unless
    every page imports. An entry whose state the page does not say is written without
    one, and listed: register check reports it until its state is given.
    """
    _require_dir(registers_dir)
    if name is not None and len(pages) != 1:
        raise click.UsageError("--name names the file of one page: give one PAGE")
    result = api.import_pages(
        registers_dir, pages, name=name, force=force, dry_run=dry_run, on_wait=waiting
    )
    echo(reporter.import_report(result.planned, result.diagnostics, result.written, fmt))
    sys.exit(1 if result.failed else 0)


@main.command()
@registers_option
@click.argument("target", metavar="[ALIAS:]PATH:LINE[-END] | ALIAS")
@click.option(
    "--grep",
    "needle",
    metavar="TEXT",
    help="Cite every line holding TEXT instead (case-sensitive, literal text).",
)
@click.option("--ignore-case", "-i", is_flag=True, help="With --grep: TEXT matches in any case.")
@click.option("--path", "glob", metavar="GLOB", help="With --grep: only the files matching GLOB.")
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="With --grep: the most citations printed (all hits are counted).",
)
@formats_option(["text", "json"], "text: citations ready to paste into YAML; json: one object.")
@no_traceback
def cite(
    registers_dir: Path,
    target: str,
    needle: str | None,
    ignore_case: bool,
    glob: str | None,
    limit: int,
    fmt: str,
) -> None:
    """Print the citation of lines at their source's pin, ready to paste under `sources:`.

    `register cite mcpx:internal/a.go:12-14` (or, for a claimed path, `internal/a.go:12`)
    quotes the first cited line. `register cite mcpx --grep TEXT` cites every line holding
    TEXT in the files mcpx claims (exit 1 when there is none). Reads the source's checkout
    or the cache, never the network.
    """
    _require_dir(registers_dir)
    if needle is None and (glob is not None or limit != 20 or ignore_case):
        raise click.UsageError("--path, --limit and --ignore-case go with --grep")
    if needle is not None and ":" in target:
        raise click.UsageError("with --grep, name the source only: register cite ALIAS --grep TEXT")
    if needle is None:
        echo(reporter.cite_report(api.cite(registers_dir, target).cited, fmt))
        return
    hits = api.cite_grep(
        registers_dir, target, needle, glob=glob, limit=limit, ignore_case=ignore_case
    )
    echo(reporter.grep_report(hits, target, needle, fmt))
    sys.exit(0 if hits.total else 1)


NEXT_STEPS = """
Next: {cd}register check && register sync && register verify
      mkdocs serve     # the site on http://127.0.0.1:8000 (Ctrl-C stops it)"""


def _history(registers_dir: Path) -> History | None:
    """The registers' history for `render`'s Changes page; None, said on stderr, without."""
    from .history.repository import HistoryError  # noqa: PLC0415 - this command's alone

    try:
        history = api.history(registers_dir)
    except HistoryError as err:
        echo(f"no Changes page: {err}", err=True)
        return None
    for notice in history.diagnostics:
        echo(notice.message, err=True)
    return history


def run() -> None:
    """The console script: one command in a process of its own.

    The cyclic garbage collector is off for the command: a run builds hundreds of
    thousands of small objects and no garbage cycles, and the collector's repeated full
    passes over them took a sixth of `register verify`'s CPU. The process ends with the
    command, so the setting outlives nothing; `api` and the MkDocs plugin (which runs for
    hours inside `mkdocs serve`) leave the collector alone, and so do tests, which call
    `main` through click's runner.

    For the same reason the process ends with `os._exit` once its output is flushed, and
    the finished command's frames are kept until then: freeing every object of a large run
    one by one, then tearing the interpreter down, took a tenth of `register verify`'s
    time, for memory the kernel takes back at once. Nothing waits for the interpreter's
    end: the commands write and close their files themselves, and a `git cat-file` still
    running ends when its input closes with this process.
    """
    gc.disable()
    ended: list[SystemExit] = []  # its traceback holds the command's frames: kept, unfreed
    try:
        main()
        code = 0
    except SystemExit as done:
        ended.append(done)
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if isinstance(done.code, str):
            echo(done.code, err=True)
    except BrokenPipeError:  # raised outside a command (say, by --help | head)
        quiet_stdout()
        code = 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left before the last of the output
        quiet_stdout()
        code = code or 1
    with contextlib.suppress(OSError):
        sys.stderr.flush()
    os._exit(code)

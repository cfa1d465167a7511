"""`register check`, `verify`, `fix`, `export`, `sync`, `bump`, `stamp` and `cite`: the
register set checked, its citations verified against their pins (moved ones re-pointed,
cited lines stamped as reviewed), the pins fetched and moved, citations made at a pin, the
whole set as JSON."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import Any

import click

from .. import api
from ..reporting import export
from ..reporting import report as reporter
from .shell import command, echo, formats_option, progress_line, report_options, settings, waiting


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


@command()
@click.argument("alias")
@click.argument("rev", required=False, metavar="[COMMIT]")
@click.option("--dry-run", is_flag=True, help="Print the report; write nothing.")
@formats_option(["text", "json"], "text: one line per citation that moved; json: one object.")
def bump(registers_dir: Path, alias: str, rev: str | None, dry_run: bool, fmt: str) -> None:
    """Move ALIAS's pin to COMMIT and every citation of it along.

    COMMIT defaults to the newest commit: the HEAD of a local checkout, else the tip of the
    repository's default branch, fetched into the cache. Each cited range is followed
    through git's diff: carried over, re-anchored (new lines or a renamed file, rewritten in
    place), changed (the cited lines were edited: read them), or gone (deleted). Exit 1
    when a citation changed or is gone, even though the files were written.
    """
    bumped = api.bump(
        registers_dir,
        alias,
        rev,
        dry_run=dry_run,
        progress=partial(progress_line, alias) if sys.stderr.isatty() else None,
        settings=settings(),
        on_wait=waiting,
    )
    if bumped.bump is None:
        echo(reporter.format_report(bumped.diagnostics, "text"))
        raise click.ClickException(str(bumped.refused))
    echo(reporter.bump_report(bumped.bump, dry_run, fmt))
    counts = bumped.bump.counts()
    sys.exit(1 if counts["changed"] or counts["gone"] else 0)


@command()
@click.argument("ids", nargs=-1, metavar="[ID]...")
def stamp(registers_dir: Path, ids: tuple[str, ...]) -> None:
    """Record the cited lines of the given entries (all when none is named) as reviewed.

    Writes registers/citations.lock: one line per citation, the hash of its lines at the
    pinned commit in the form their file kind compares (docs/pins.md). Run it after reading
    the lines `register verify` reports as changed or unstamped. A citation whose lines do
    not read as cited is not stamped.
    """
    stamped = api.stamp(registers_dir, ids, settings(), on_wait=waiting)
    if stamped.refused is not None:
        echo(reporter.format_report(stamped.diagnostics, "text", stamped.verified.summary))
        raise click.ClickException(stamped.refused)
    for outcome in stamped.unstampable:
        echo(reporter.refused_text(outcome))
    echo(reporter.stamped_text(stamped.stamped, stamped.written))
    sys.exit(1 if stamped.unstampable else 0)


@command()
@click.argument("aliases", nargs=-1, metavar="[ALIAS]...")
def sync(registers_dir: Path, aliases: tuple[str, ...]) -> None:
    """Fetch each source's pinned commit into the cache (all sources with a repo by default)."""
    show = sys.stderr.isatty()
    progress = progress_line if show else None
    result = api.sync(registers_dir, aliases, progress, settings(), on_wait=waiting)
    if show:
        echo("", err=True)
    for done in result.synced:
        held = f" (the checkout at {done.checkout} holds it: nothing fetched)"
        echo(f"{done.alias}: {done.sha}{held if done.checkout else ''}")
    for problem in result.diagnostics:
        echo(problem.as_text())
    sys.exit(reporter.exit_code(result.diagnostics, strict=False))


@command()
@click.argument("target", metavar="[ALIAS:]PATH:LINE[-END] | ALIAS | PATH")
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
    TEXT in the files mcpx claims (exit 1 when there is none); `register cite
    internal/a.go --grep TEXT`, in that claimed file (or folder) alone. Reads the source's
    checkout or the cache, never the network.
    """
    if needle is None and (glob is not None or limit != 20 or ignore_case):
        raise click.UsageError("--path, --limit and --ignore-case go with --grep")
    if needle is not None and ":" in target:
        raise click.UsageError(
            "with --grep, name the source or a path it claims, without lines: register cite "
            "ALIAS --grep TEXT [--path GLOB], or register cite PATH --grep TEXT"
        )
    if needle is None:
        echo(reporter.cite_report(api.cite(registers_dir, target, settings()), fmt))
        return
    hits = api.cite_grep(
        registers_dir,
        target,
        needle,
        glob=glob,
        limit=limit,
        ignore_case=ignore_case,
        settings=settings(),
    )
    echo(reporter.grep_report(hits, hits.source, needle, fmt))
    sys.exit(0 if hits.total else 1)

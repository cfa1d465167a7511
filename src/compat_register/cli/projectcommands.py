"""`register init`, `import` and `diff`: a new project, hand-written pages moved in, what
changed in the registers between two commits."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .. import api
from ..reporting import diffreport
from ..reporting import report as reporter
from .shell import command, echo, formats_option, no_traceback, require_dir, settings, waiting


@command(name="diff", needs_dir=False)
@click.argument("revs", nargs=-1, metavar="[REV1 [REV2]]")
@formats_option(
    ["text", "json", "markdown"],
    "text: one line per change; json: one object; markdown: a pull-request comment.",
)
def diff_command(registers_dir: Path, revs: tuple[str, ...], fmt: str) -> None:
    """What changed in the registers between two commits of the repository holding them.

    No REV: HEAD against the working tree; one: REV1 against the working tree. Reports
    entries added, removed and changed (state, value and effort old -> new, prose edited,
    citations added, removed and moved), registers added or removed, and pins moved.
    Exit 1 when a register file does not load at one side (it is reported, located).
    """
    if len(revs) > 2:
        raise click.UsageError("at most two revisions: register diff [REV1 [REV2]]")
    require_dir(registers_dir)
    compared = api.diff(registers_dir, *revs)
    if fmt == "json":
        echo(reporter.dumps(diffreport.diff_json(compared)))
    elif fmt == "markdown":
        echo(diffreport.diff_markdown(compared), nl=False)
    else:
        echo(diffreport.diff_text(compared))
    sys.exit(1 if compared.problems else 0)


@click.command()
@click.argument(
    "folder", required=False, default=".", type=click.Path(file_okay=False, path_type=Path)
)
@click.option("--name", help="The site's name (default: the folder's name).")
@click.option(
    "--engine",
    type=click.Choice(["mkdocs", "zensical"]),
    default="mkdocs",
    show_default=True,
    help="The site's engine: MkDocs with the register plugin, or Zensical, which runs no "
    "plugin (register render writes the pages into docs/ first; docs/publishing.md).",
)
@no_traceback
def init(folder: Path, name: str | None, engine: str) -> None:
    """Start a register project in FOLDER (default: here): mkdocs.yml, registers/ with
    sources.yaml and an example register, docs/, the JSON Schemas, a CI workflow and a
    pre-commit configuration. Refuses to overwrite any file."""
    written = api.init(folder, name, engine=engine).written
    for path in written:
        echo(f"wrote {folder / path}")
    cd = f"cd {folder} && " if str(folder) != "." else ""
    echo(f"\nNext: {cd}register check && register sync && register verify\n      {SERVE[engine]}")


@command(name="import")
@click.argument("pages", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--name", help="The register file's name (one page only); default: its title.")
@click.option("--force", is_flag=True, help="Overwrite a register file that exists.")
@click.option("--dry-run", is_flag=True, help="Read and check the pages; write nothing.")
@formats_option(["text", "json"], "text: the report in lines; json: one object.")
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
    if name is not None and len(pages) != 1:
        raise click.UsageError("--name names the file of one page: give one PAGE")
    result = api.import_pages(
        registers_dir,
        pages,
        name=name,
        force=force,
        dry_run=dry_run,
        settings=settings(),
        on_wait=waiting,
    )
    echo(reporter.import_report(result.planned, result.diagnostics, result.written, fmt))
    sys.exit(1 if result.failed else 0)


SERVE = {
    "mkdocs": "mkdocs serve     # the site on http://127.0.0.1:8000 (Ctrl-C stops it)",
    "zensical": "register render --out docs && zensical serve   # the site on http://127.0.0.1:8000",
}
"""What `register init` says serves the new site, by engine, after the commands to run."""

"""`register init`, `import`, `diff` and `render`: a new project, hand-written pages moved
in, what changed in the registers between two commits, the site's pages written to a folder
for engines that run no MkDocs plugin (or plain pages in the hand-written shape)."""

from __future__ import annotations

import filecmp
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def _layout_option(name: str, what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        f"--{name}",
        f"layout_{name}",
        metavar="PATH",
        default=getattr(api.Layout(), name),
        show_default=True,
        help=f"{what}, relative to --out (the plugin's `{name}` option).",
    )


@command(name="render")
@click.option(
    "--out",
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
@_layout_option("pages", "Folder of the register pages")
@_layout_option("overview", "The overview page")
@_layout_option("health", "The citation-health page")
@_layout_option("revisions", "Folder of the revision pages")
@_layout_option("priorities", "The priorities page")
@_layout_option("changes", "The Changes page")
@click.option(
    "--plain",
    is_flag=True,
    help="Plain Markdown pages in the hand-written shape instead (DIR/<register>.md, no HTML), "
    "which register import reads back; reads no checkout and no history.",
)
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
    **layout: str,
) -> None:
    """Write the site's pages as Markdown, for engines that run no MkDocs plugins.

    The same pages the MkDocs plugin adds to a site (docs/publishing.md): each register's,
    the overview, the citation-health, revision, priorities and Changes pages, the excerpt
    files and the assets; a register file that does not load gets a page showing why.
    """
    with api.writer(registers_dir, "register render", settings(), on_wait=waiting):  # excerpts
        if plain:
            pages = api.render_plain(registers_dir, legend, settings())
            for diagnostic in pages.diagnostics:
                echo(diagnostic.as_text(), err=True)
            _write_out(out, pages.pages, pages.failed, {})  # exits
        places = {name.removeprefix("layout_"): path for name, path in layout.items()}
        out.parent.mkdir(parents=True, exist_ok=True)
        # excerpt files are written as they are made beside `out`, and moved in after the
        # site (never all held: 60 MB at 20,000 excerpts)
        with tempfile.TemporaryDirectory(prefix=".register-excerpts-", dir=out.parent) as folder:
            options = api.SiteOptions(
                layout=api.Layout(legend=legend, **places),
                templates=templates,
                verify=not offline,
                history=not no_history,
                repo_url=repo_url,
                edit_url=edit_url,
                subject=subject,
                raw=True,
                excerpt_folder=Path(folder),
            )
            _write_site(api.build_site(registers_dir, options, settings=settings()), out)


def _write_site(site: api.Site, out: Path) -> None:
    for level, diagnostic in site.levelled():
        if level != "info":
            echo(diagnostic.as_text(), err=True)
    for notice in site.notices:
        echo(reporter.shown_line(notice.message), err=True)
    if site.refused is not None:
        raise click.ClickException(f"{site.refused}; nothing written")
    _write_out(out, site.files(), site.failed, site.excerpt_paths)


def _write_out(out: Path, files: dict[str, str], failed: bool, made: dict[str, Path]) -> None:
    """Write `files` under `out`, move in the files `made` (but where `out` holds the same
    bytes), say how many, and exit 1 when the run `failed`."""
    api.refuse_links_under(out, [*files, *made])
    api.write_files({out / uri: text for uri, text in files.items()}, make_folders=True)
    for uri, path in made.items():
        target = out / uri
        if target.is_file() and filecmp.cmp(path, target, shallow=False):
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(path, target)
        except OSError as err:
            raise click.ClickException(f"cannot write {target}: {err.strerror or err}") from None
    echo(f"wrote {reporter.counted(len(files) + len(made), 'file')} to {out}")
    sys.exit(1 if failed else 0)

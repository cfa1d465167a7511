"""`register render`: the site's pages written to a folder, for engines that run no MkDocs
plugin (or plain pages in the hand-written shape)."""

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
from ..reporting import report as reporter
from .shell import command, echo, settings, waiting


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

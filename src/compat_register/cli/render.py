"""`register render`: the site's pages written to a folder, for engines that run no MkDocs
plugin (or plain pages in the hand-written shape)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .. import api
from ..reporting import report as reporter
from .group import main
from .shell import echo, no_traceback, registers_option, require_dir, waiting

if TYPE_CHECKING:
    from ..history.repository import History


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
    require_dir(registers_dir)
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
    from ..site import excerpts, levels, render  # noqa: PLC0415 - needs Jinja2 and Pygments
    from ..site.excerptstore import ExcerptStore  # noqa: PLC0415 - as above

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
        coverage=api.site_coverage(
            registers_dir, result.registers, None if offline else result.outcomes
        ),
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
    api.write_files({out / uri: text for uri, text in pages.items()}, make_folders=True)
    echo(f"wrote {len(pages)} files to {out}")
    errors = [d for d in result.diagnostics if levels.site_level(d) == "error"]
    sys.exit(1 if errors else 0)


def _render_plain(registers_dir: Path, out: Path, legend: str | None) -> None:
    plain = api.render_plain(registers_dir, legend)
    pages = plain.pages
    for diagnostic in plain.diagnostics:
        echo(diagnostic.as_text(), err=True)
    api.write_files({out / name: text for name, text in pages.items()}, make_folders=True)
    echo(f"wrote {reporter.counted(len(pages), 'file')} to {out}")
    sys.exit(1 if plain.failed else 0)


def refuse_unsafe_pages(pages: dict[str, str]) -> None:
    """Stop before writing when a page's HTML would hold anything the site's sanitizer
    removes: the pages go to a site that runs no plugin, so nothing would clean them."""
    from ..site import sanitize  # noqa: PLC0415 - only `render` needs Markdown and nh3

    for uri, text in pages.items():
        found = sanitize.unexpected_in_page(text)
        if found:
            shown = ", ".join(sorted(set(found))[:5])
            raise click.ClickException(
                f"{uri}: the page would carry HTML that the sanitizer removes ({shown}); "
                "nothing written"
            )


def _history(registers_dir: Path) -> History | None:
    """The registers' history for `render`'s Changes page; None, said on stderr, without."""
    from ..history.repository import HistoryError  # noqa: PLC0415 - this command's alone

    try:
        history = api.history(registers_dir)
    except HistoryError as err:
        echo(f"no Changes page: {err}", err=True)
        return None
    for notice in history.diagnostics:
        echo(notice.message, err=True)
    return history

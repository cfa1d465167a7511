"""The `register` MkDocs plugin: a thin shell that adds the rendered registers to a site.

    plugins:
      - search
      - register

Pages are generated in memory (`File.generated`), never written into docs/. Problems go to
the plugin's logger, so `mkdocs build --strict` fails on a dangling reference or a stale
citation; an unverified citation (no checkout present) and a reference to a pending register
are expected and logged at info level. The HTML of the generated pages is passed through
`sanitize.clean`. Under `mkdocs serve` the rendered pages are kept between rebuilds until a
register, a template or a checkout's pinned commit changes.
A register file that does not load keeps its page, its problems on top (`site.failures`).
"""

from __future__ import annotations

import html
import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from . import api
from .model import display
from .model.diagnostic import Diagnostic
from .model.registers import Sources

if TYPE_CHECKING:
    from .history.repository import History
from .site import editing, excerpts, extensions, failures, levels, rebuild, render, sanitize
from .site import problems as on_pages
from .site.excerptstore import ExcerptStore

log = get_plugin_logger(__name__)

ASSET_DIR = "assets/compat-register"


class RegisterConfig(base.Config):
    """Options of the `register` plugin in mkdocs.yml."""

    registers = c.Dir(exists=False, default="registers")
    """Folder holding sources.yaml and the register YAML files, relative to mkdocs.yml."""
    templates = c.Optional(c.Dir(exists=True))
    """A folder of Jinja2 templates overriding the packaged ones, file by file
    (`register.md.j2`, `overview.md.j2`, `health.md.j2`, `matrix.md.j2`, `revision.md.j2`,
    `priorities.md.j2`, `assets/register.css|js`)."""
    verify = c.Type(bool, default=True)
    """Read the sources' checkouts, when present, to verify citations and show excerpts.
    With `false` no git is touched and every citation is shown unverified."""
    pages = c.Type(str, default="registers")
    """Folder of the generated register pages, relative to the docs dir."""
    overview = c.Type(str, default="registers/index.md")
    """The overview page (every entry in one sortable, filterable table)."""
    health = c.Type(str, default="registers/health.md")
    """The citation-health page (every citation's outcome, grouped by outcome)."""
    revisions = c.Type(str, default="registers/revisions")
    """Folder of the revision pages: `index.md` the revision matrix, and one page per
    revision of sources.yaml ("What 2025-11-25 changed")."""
    priorities = c.Type(str, default="registers/priorities.md")
    """The priorities page (missing and partial entries by value, then effort)."""
    legend = c.Type(str, default="legend.md")
    """A docs page explaining the fields, linked from each register page when it exists."""
    history = c.Type(bool, default=True)
    """Make the Changes page from the git history of the registers folder (read through
    git, cached in `.register/cache/history.json`). Outside a git repository the page is
    left out with an info line; `false` never reads the history."""
    changes = c.Type(str, default="registers/changes.md")
    """The Changes page (every commit that changed the registers, newest first)."""
    subject = c.Optional(c.Type(str))
    """The subject the priorities page lists first (the project's own); by default the
    subject of the most entries."""
    nav_title = c.Type(str, default="Registers")
    """Title of the nav section appended when mkdocs.yml has a `nav`."""


@dataclass
class Built:
    """One load, verify and render of the registers, and what it depended on."""

    key: tuple[Any, ...]
    """The options, and the size and mtime of every file under registers/ and templates."""
    pins: tuple[tuple[str, str | None], ...] | None
    """(alias, the full sha its pin resolves to in its checkout, or None); None when the
    checkouts could not be asked (then the next build renders again)."""
    result: api.Checked
    pages: dict[str, str]
    excerpts: dict[str, render.ExcerptFile]
    """Excerpt file -> the excerpts it holds (`site.excerpts`), beside each register page."""
    failed: dict[str, list[Diagnostic]] = field(default_factory=dict)
    """slug -> problems, of each register file that did not load (its page shows them)."""


@dataclass
class Converted:
    """A generated page as MkDocs converted it: what a rebuild puts back when the page's
    Markdown and its surroundings (`conversion_context`) are the same."""

    markdown: str
    title: str
    """The page's first heading line: all MkDocs converts when the rest is reused, so that
    it finds the title where it always does."""
    html: str
    toc: Any
    anchors: set[str]
    links: Any
    context: tuple[Any, ...]

    @classmethod
    def of(cls, page: Page, html: str, title: str, context: tuple[Any, ...]) -> Converted:
        return cls(
            markdown=page.markdown or "",
            title=title,
            html=html,
            toc=page.toc,
            anchors=set(page.present_anchor_ids or ()),
            links=getattr(page, "links_to_anchors", None),
            context=context,
        )

    @staticmethod
    def title_of(markdown: str) -> str | None:
        """The first `# ` heading line of a page (after its front matter), or None."""
        found = re.search(r"^# .*$", markdown, re.MULTILINE)
        return found[0] + "\n" if found else None

    def restore(self, page: Page) -> str:
        """Put back on `page` what converting it gave last time; returns its HTML."""
        page.markdown = self.markdown
        page.toc = self.toc
        page.present_anchor_ids = set(self.anchors)
        if self.links is not None:
            page.links_to_anchors = self.links
        return self.html


class RegisterPlugin(BasePlugin[RegisterConfig]):
    """Adds one page per register, an overview and a citation-health page."""

    def __init__(self) -> None:
        super().__init__()
        self.built: Built | None = None
        self.generated: set[str] = set()
        """The pages (src URIs) this plugin generated in the current build."""
        self.rendered: dict[str, str] = {}
        """Each register page as last rendered from a file that loaded: what its page keeps
        showing, under its problems, while the file does not load (`mkdocs serve`); and
        the health page as last rendered."""
        self.rendered_excerpts: dict[str, render.ExcerptFile] = {}
        """Each register's excerpt file as last rendered, kept with its page."""
        self.rendered_inputs: dict[str, tuple[Any, ...]] = {}
        """What each page in `rendered` was rendered from (`rebuild.page_inputs`)."""
        self.converted: dict[str, Converted] = {}
        """Each generated page as MkDocs last converted it (`mkdocs serve` reuses it)."""
        self.reused: set[str] = set()
        """The generated pages of this build whose conversion is reused."""
        self.context: tuple[Any, ...] = ()
        """What a page's HTML depends on besides its Markdown (`conversion_context`)."""
        self.highlighter: excerpts.Highlighter | None = None
        """Highlights the excerpts; kept between rebuilds, so an edit highlights only what
        it changed."""

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance, and `self.built`, between rebuilds."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """Add the extensions the pages need (as mkdocs-autorefs adds its own) and the assets."""
        try:
            added = extensions.complete(config.markdown_extensions, config.mdx_configs)
        except extensions.ExtensionConflict as err:
            raise PluginError(f"register plugin: {err}") from None
        if added:
            log.debug("added Markdown extensions the register pages need: %s", ", ".join(added))
        config.extra_css.append(f"{ASSET_DIR}/register.css")
        config.extra_javascript.append(f"{ASSET_DIR}/register.js")  # type: ignore[arg-type]
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        root = Path(self.config.registers)
        if not root.is_dir():
            log.error("registers folder '%s' does not exist", root)
            return files
        legend = self.config.legend if files.get_file_from_path(self.config.legend) else None
        layout = render.Layout(
            pages=self.config.pages,
            overview=self.config.overview,
            health=self.config.health,
            legend=legend,
            changes=self.config.changes,
            revisions=self.config.revisions,
            priorities=self.config.priorities,
        )
        templates = Path(self.config.templates) if self.config.templates else None
        # The project's repository links each commit of the Changes page; a caller that
        # runs the event alone may give no config.
        repo_url = getattr(config, "repo_url", None)
        links = (repo_url, _edit_url(config, root))
        built = self._build(root, layout, templates, links)
        report(built.result)
        for uri, content in built.pages.items():
            _add(files, File.generated(config, uri, content=content))
        self.generated = set(built.pages)
        highlighter = self._highlighter(config, root)
        for uri, content in excerpts.documents(built.excerpts, highlighter).items():
            _add(files, File.generated(config, uri, content=content))
        for problem in highlighter.problems:  # a cache not written costs time, not the build
            log.info(problem)
        highlighter.problems.clear()
        for name in render.ASSETS:
            content = render.asset(name, templates)
            _add(files, File.generated(config, f"{ASSET_DIR}/{name}", content=content))
        self._extend_nav(config, layout, built.result)
        self.reused = set()
        self.context = conversion_context(config, files)
        self.converted = {uri: c for uri, c in self.converted.items() if uri in self.generated}
        return files

    def _build(
        self,
        root: Path,
        layout: render.Layout,
        templates: Path | None,
        links: tuple[str | None, str | None],
    ) -> Built:
        """The registers rendered, or the last rendering when nothing it read has changed.

        After an edit every register is loaded and verified again (a fraction of a build),
        but a register page is rendered again only when what it shows may have changed
        (`rebuild.page_inputs`); the overview, revision and priorities pages always are.
        """
        head = api.history_head(root) if self.config.history else None
        repo_url, edit_url = links  # the project's repository, where its registers are edited
        subject = self.config.subject
        settings = (root.resolve(), templates, self.config.verify, layout, links, head, subject)
        folders = (root, templates, render.PACKAGED_TEMPLATES)
        states = [tree_state(folder) for folder in folders]
        key = (settings, *states)
        last = self.built
        if (
            last is not None
            and last.key == key
            and last.pins is not None
            and last.pins == self._pins(root, last.result)
        ):
            return last
        try:
            result = self._load(root)
            pins = self._pins(root, result)
            shared = (settings, pins, *states[1:])
            inputs = rebuild.page_inputs(
                result.registers, getattr(result, "outcomes", ()), layout, root, states[0], shared
            )
            renderer = render.Renderer(
                result.registers,
                getattr(result, "outcomes", ()),
                layout=layout,
                templates=templates,
                history=self._history(root),
                repo_url=repo_url,
                subject=self.config.subject,
                edit_url=edit_url,
                coverage=api.site_coverage(
                    root, result.registers, getattr(result, "outcomes", None)
                ),
            )
            reused = self._unchanged(inputs)
            pages = renderer.pages(reuse=reused)
            pages.update(renderer.downloads())
            result.diagnostics.extend(render.page_clashes(result.registers, layout))
        except render.TemplateProblem as err:
            raise PluginError(f"register plugin: template {err}") from err
        except Exception as err:  # noqa: BLE001 - a traceback is no message for a site's author
            raise PluginError(f"register plugin: {type(err).__name__}: {err}") from err
        self._keep(pages, renderer.excerpts, inputs, reused, layout)
        failed = result.unloaded()
        pages.update(self._failure_pages(failed, layout, pages))
        pages.update(problem_pages(result, layout, pages))
        excerpt_files = {
            layout.excerpts_of(slug): self.rendered_excerpts[layout.excerpts_of(slug)]
            for slug in [r.slug for r in result.registers.registers] + list(failed)
            if layout.excerpts_of(slug) in self.rendered_excerpts
        }  # a page that does not load keeps its last rendering, and so its excerpts
        self.built = Built(key, pins, result, pages, excerpt_files, failed)
        return self.built

    def _unchanged(self, inputs: dict[str, tuple[Any, ...]]) -> dict[str, str]:
        """The register pages last rendered from the same inputs: reused as they are."""
        return {
            uri: self.rendered[uri]
            for uri, page_key in inputs.items()
            if self.rendered_inputs.get(uri) == page_key and uri in self.rendered
        }

    def _keep(
        self,
        pages: dict[str, str],
        excerpt_files: dict[str, render.ExcerptFile],
        inputs: dict[str, tuple[Any, ...]],
        reused: dict[str, str],
        layout: render.Layout,
    ) -> None:
        """Remember each page rendered (not `reused`), its excerpts and its inputs."""
        for uri, page_key in inputs.items():
            if uri in reused:
                continue
            self.rendered[uri] = pages[uri]
            self.rendered_inputs[uri] = page_key
            if uri == layout.health:
                continue
            slug = posixpath.splitext(posixpath.relpath(uri, layout.pages))[0]
            excerpt_uri = layout.excerpts_of(slug)
            if excerpt_uri in excerpt_files:
                self.rendered_excerpts[excerpt_uri] = excerpt_files[excerpt_uri]
            else:
                self.rendered_excerpts.pop(excerpt_uri, None)

    def _highlighter(self, config: MkDocsConfig, root: Path) -> excerpts.Highlighter:
        """The highlighter of the site's Markdown extensions (a new one when they change),
        keeping what it highlights in the excerpt cache."""
        configs = dict(config.mdx_configs or {})
        folder = api.excerpt_cache(root)
        settings = extensions.fingerprint(config.markdown_extensions, configs)
        last = self.highlighter
        if last is not None and (last.settings(), last.folder) == (settings, folder):
            return last  # asked before making a new one: its store reads package versions
        self.highlighter = excerpts.Highlighter(
            config.markdown_extensions,
            configs,
            store=lambda settings: ExcerptStore(folder, settings),
        )
        return self.highlighter

    def _failure_pages(
        self, failed: dict[str, list[Diagnostic]], layout: render.Layout, pages: dict[str, str]
    ) -> dict[str, str]:
        """The pages of registers that do not load, and the overview and health pages with
        a notice naming them."""
        if not failed:
            return {}
        built = {}
        for slug, problems in failed.items():
            uri = layout.page_of(slug)
            built[uri] = failures.failed_page(slug, problems, self.rendered.get(uri))
        for page in (layout.overview, layout.health):
            links = {slug: failures.link(layout.page_of(slug), page) for slug in failed}
            notice = failures.failures_notice(failed, links)
            built[page] = failures.after_heading(pages[page], notice)
        return built

    def _load(self, root: Path) -> api.Checked:
        if self.config.verify:
            return api.verify_citations(root)
        return api.check(root)

    def _history(self, root: Path) -> History | None:
        """The registers' history for the Changes page, or None (and an info line why)."""
        from .history.repository import HistoryError, NoRepository  # noqa: PLC0415 - with history

        if not self.config.history:
            return None
        try:
            history = api.history(root)
        except NoRepository as err:
            log.info("no Changes page: %s", err)
            return None
        except HistoryError as err:  # git failed: the site builds, and --strict says so
            log.warning("no Changes page: %s", err)
            return None
        for notice in history.diagnostics:
            log.info(notice.message)
        if history.shallow:
            log.info("a shallow clone: the Changes page shows the history it holds")
        return history

    def _pins(self, root: Path, result: api.Checked) -> tuple[tuple[str, str | None], ...] | None:
        if not self.config.verify:
            return ()
        try:
            return pinned_commits(root, result.registers.sources)
        except Exception:  # noqa: BLE001 - the build itself reports what is wrong
            return None

    @event_priority(-100)  # last: the Markdown every other plugin is done with
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """A generated page converted before from the same Markdown, with the same links
        around it, is not converted again: MkDocs is given only its title to convert, and
        `on_page_content` puts back the HTML, table of contents and anchors of last time."""
        uri = page.file.src_uri
        if uri not in self.generated:
            return markdown
        last = self.converted.get(uri)
        if last is None or last.markdown != markdown or last.context != self.context:
            return markdown
        self.reused.add(uri)
        return last.title

    @event_priority(100)  # first: clean what Markdown made, before other plugins add theirs
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """The generated pages' HTML, kept to an allowlist (see `sanitize`)."""
        uri = page.file.src_uri
        if uri not in self.generated:
            return html
        if uri in self.reused:
            return self.converted[uri].restore(page)
        html = sanitize.clean(html)
        title = Converted.title_of(page.markdown or "")
        if title is not None:
            self.converted[uri] = Converted.of(page, html, title, self.context)
        return html

    def _extend_nav(self, config: MkDocsConfig, layout: render.Layout, result: api.Checked) -> None:
        """Append a nav section with the generated pages, unless the nav already has them."""
        section: list[dict[str, Any]] = [{"Overview": layout.overview}]
        for register in result.registers.registers:
            # Escaped: themes print nav titles as they are (MkDocs' templates do not escape).
            section.append({html.escape(register.title): layout.page_of(register.slug)})
        failed = self.built.failed if self.built else {}
        section.extend(
            {f"{html.escape(slug)} (does not load)": layout.page_of(slug)} for slug in failed
        )
        revisions = [{"Revision matrix": layout.matrix}]
        for name in result.registers.sources.revisions:
            revisions.append({f"What {html.escape(name)} changed": layout.revision_page(name)})
        section.append({"Revisions": revisions})
        if layout.coverage_summary in self.generated:
            coverage = [{"Every revision": layout.coverage_summary}]
            for name in result.registers.sources.revisions:
                if (page := layout.coverage_page(name)) in self.generated:
                    coverage.append({f"Coverage of {html.escape(name)}": page})
            section.append({"Coverage": coverage})
        section.append({"Priorities": layout.priorities})
        section.append({"Citation health": layout.health})
        if layout.changes in self.generated:
            section.append({"Changes": layout.changes})
        uris = {layout.overview, layout.matrix, layout.priorities, layout.health, layout.changes}
        uris.update(layout.page_of(register.slug) for register in result.registers.registers)
        if config.nav is None or _mentions(config.nav, uris):
            return  # without a nav, MkDocs lists every page by folder anyway
        config.nav.append({self.config.nav_title: section})

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        """Rebuild when a register, sources.yaml or a template changes."""
        server.watch(str(Path(self.config.registers)))
        server.watch(str(Path(self.config.templates or render.PACKAGED_TEMPLATES)))
        return server


def _edit_url(config: MkDocsConfig, root: Path) -> str | None:
    """Where the registers folder's files are edited, from `repo_url` and `edit_uri`."""
    if config is None:  # a caller that runs the event alone
        return None
    top = Path(config.config_file_path or ".").resolve().parent
    try:
        docs = Path(config.docs_dir).resolve().relative_to(top).as_posix()
        registers = root.resolve().relative_to(top).as_posix()
    except ValueError:
        return None  # outside mkdocs.yml's folder: where it sits in the repository is unknown
    edit_uri = getattr(config, "edit_uri", None)
    return editing.edit_base(getattr(config, "repo_url", None), edit_uri, docs, registers)


def conversion_context(config: MkDocsConfig, files: Files) -> tuple[Any, ...]:
    """What the HTML of a page depends on besides its Markdown: the Markdown extensions and
    their options, the URL style, and every file of the site (links resolve against them)."""
    return (
        extensions.fingerprint(config.markdown_extensions, config.mdx_configs or {}),
        config.use_directory_urls,
        tuple(sorted(file.src_uri for file in files)),
    )


def tree_state(folder: Path | None) -> tuple[tuple[str, int, int], ...]:
    """(path, mtime in ns, size) of every file under `folder`: what a rebuild compares."""
    if folder is None:
        return ()
    state = []
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(top, name)
            try:
                stat = os.stat(path)
            except OSError:
                continue  # removed while walking: the next rebuild sees it gone
            state.append((path, stat.st_mtime_ns, stat.st_size))
    return tuple(state)


def pinned_commits(root: Path, sources: Sources) -> tuple[tuple[str, str | None], ...]:
    """(alias, the sha each source's pin resolves to in its checkout, or None), by alias.

    A checkout that gains the pinned commit (`register sync`), or loses it, changes this.
    """
    from .sources.pins import Checkouts  # noqa: PLC0415 - only with verify
    from .storage.layout import Paths  # noqa: PLC0415

    checkouts = Checkouts(Paths.of(root, os.environ), os.environ)
    try:
        return tuple(
            (alias, checkouts.pin(sources.sources[alias]).sha) for alias in sorted(sources.sources)
        )
    finally:
        checkouts.close()


def _add(files: Files, file: File) -> None:
    if files.get_file_from_path(file.src_uri) is not None:
        log.error("%s exists in docs/ and is also generated from the registers", file.src_uri)
        return
    files.append(file)


def _mentions(nav: Any, uris: set[str]) -> bool:
    """True when a nav (nested lists and dicts) already names one of `uris`."""
    if isinstance(nav, str):
        return nav in uris
    if isinstance(nav, dict):
        return any(_mentions(value, uris) for value in nav.values())
    if isinstance(nav, list):
        return any(_mentions(item, uris) for item in nav)
    return False


def problem_pages(
    result: api.Checked, layout: render.Layout, pages: dict[str, str]
) -> dict[str, str]:
    """The pages of registers that load but have errors or warnings, each shown at its
    entry (`site.problems`), and the overview saying how many pages have them."""
    shown = {}
    for register in result.registers.registers:
        found = on_pages.of_register(register, result.diagnostics)
        if found.count and layout.page_of(register.slug) in pages:
            shown[register.slug] = (register, found)
    if not shown:
        return {}
    built = {
        layout.page_of(slug): on_pages.with_problems(pages[layout.page_of(slug)], *pair)
        for slug, pair in shown.items()
    }
    links = {slug: failures.link(layout.page_of(slug), layout.overview) for slug in shown}
    counts = {slug: found.count for slug, (_, found) in shown.items()}
    notice = on_pages.overview_notice(counts, links)
    built[layout.overview] = failures.after_heading(pages[layout.overview], notice)
    return built


def report(result: api.Checked) -> None:
    """Log every problem; warnings and errors make `mkdocs build --strict` fail."""
    quiet = 0
    for diagnostic in result.diagnostics:
        level = levels.site_level(diagnostic)
        if level == "info":
            quiet += 1
        getattr(log, level)(_message(diagnostic))
    if quiet:
        log.info("%d expected notices (pending registers, sources without a checkout)", quiet)


def _message(d: Diagnostic) -> str:
    return display.line(f"{d.file}:{d.line}:{d.col}: {d.id}: {d.message}")

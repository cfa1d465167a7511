"""The `register` MkDocs plugin: an adapter from MkDocs' events to `api.build_site`.

    plugins:
      - search
      - register

MkDocs' events in, generated files and the nav out: `on_files` asks `api.build_site` for
the site (the same one `register render` writes) and adds its files to MkDocs' `Files`
in memory (`File.generated`), never into docs/; the site's nav section goes into a nav
that does not list the pages already, and the pages it leaves out (each register's own
health page) are `not_in_nav`, so that a nav MkDocs makes by folder leaves them out too;
each is drawn with the nav pruned to its top-level items (`prunednav`), not the whole nav.
Problems go to the plugin's logger, so `mkdocs build
--strict` fails on a dangling reference or a stale citation; an unverified citation (no
checkout present) and a reference to a pending register are expected and logged at info
level. The HTML of the generated pages is passed through the site's sanitizer.

Under `mkdocs serve` the last build's memory (`site.rebuild.Memory`, a value of the site)
is handed to the next build, which renders again only what an edit changed, and gives the
same pages as a cold build. What MkDocs made of a generated page is reused when its
Markdown and its surroundings are the same (`Conversions`); the anchors of the pages it
links to are those of this build's pages.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
import weakref
from pathlib import Path
from typing import Any, Literal

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from .. import api
from ..reporting import report
from .conversions import Conversions
from .kept import KeptFiles
from .prunednav import pruned_nav

log = get_plugin_logger(__name__)


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
    With `false` no checkout is read and every citation is shown unverified."""
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


class RegisterPlugin(BasePlugin[RegisterConfig]):
    """Adds the register pages, their excerpt files and assets, and their nav section."""

    def __init__(self) -> None:
        super().__init__()
        self.memory: api.SiteMemory | None = None
        """The last build's memory: the next build starts from it (`mkdocs serve`)."""
        self.generated: set[str] = set()
        """The pages (src URIs) this plugin generated in the current build."""
        self.conversions = Conversions()
        self.serving = False
        """Under `mkdocs serve`: the next build starts from this one's memory."""
        self.kept = KeptFiles()
        self.sources: dict[str, object] = {}
        """What each generated file was made from, by path (`KeptFiles`): the digest of
        its content, or (modification time, size) of the file it is copied from."""
        self.files: Files | None = None
        self.unlisted: frozenset[str] = frozenset()
        """The pages this plugin made `not_in_nav` (`Site.unlisted`), by src URI."""
        self.out_of_nav: frozenset[str] = frozenset()
        """Of those, the pages the nav does not name either: drawn with the pruned nav."""
        self.pruned: Navigation | None = None
        """This build's nav pruned to its top-level items (`prunednav`)."""
        self._folder: Path | None = None

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance, and its memory, between rebuilds;
        a build that is not served keeps none."""
        self.serving = command == "serve"

    def on_shutdown(self) -> None:
        self.kept.forget()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None

    def folder(self) -> Path:
        """Where the excerpt files are written as they are made: made once, removed when
        MkDocs is done (`on_shutdown`) or with the plugin."""
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="register-excerpts-"))
            weakref.finalize(self, shutil.rmtree, self._folder, True)
        return self._folder

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """Served: set aside what the last build wrote, before MkDocs cleans the site."""
        if self.serving:
            self.kept.before(config)

    def on_build_error(self, *, error: Exception) -> None:
        self.kept.forget()
        self.files = None
        self.pruned = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """Add the extensions the pages need (as mkdocs-autorefs adds its own) and the assets."""
        try:
            added = api.complete_extensions(config.markdown_extensions, config.mdx_configs)
        except api.ExtensionConflict as err:
            raise PluginError(f"register plugin: {err}") from None
        if added:
            log.debug("added Markdown extensions the register pages need: %s", ", ".join(added))
        css, js = f"{api.ASSET_DIR}/register.css", f"{api.ASSET_DIR}/register.js"
        if css not in config.extra_css:  # named already by a config Zensical reads too
            config.extra_css.append(css)
        if js not in [str(script) for script in config.extra_javascript]:
            config.extra_javascript.append(js)  # type: ignore[arg-type]
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        root = Path(self.config.registers)
        if not root.is_dir():
            log.error("registers folder '%s' does not exist", root)
            return files
        try:
            options = self.options(config, files)
            built = api.build_site(root, options, self.memory, api.Settings.read())
        except api.TemplateProblem as err:
            raise PluginError(f"register plugin: template {err}") from err
        except Exception as err:  # noqa: BLE001 - a traceback is no message for a site's author
            raise PluginError(f"register plugin: {type(err).__name__}: {err}") from err
        self.memory = built.memory if self.serving else None
        site = built.site
        log_problems(site)
        self.sources = {}
        unlisted = self.unlisted = site.unlisted
        for uri, content in site.files().items():
            inclusion = InclusionLevel.NOT_IN_NAV if uri in unlisted else InclusionLevel.UNDEFINED
            _add(files, File.generated(config, uri, content=content, inclusion=inclusion))
            self.sources[uri] = _digest(content)  # held to the next build: not the text
        for uri, path in site.excerpt_paths.items():
            _add(files, File.generated(config, uri, abs_src_path=str(path)))
            stat = path.stat()
            self.sources[uri] = (stat.st_mtime_ns, stat.st_size)
        self.generated = set(site.pages)
        if config is not None:  # a caller that runs the event alone may give no config
            config.nav = site.nav_for(config.nav, self.config.nav_title)
            self.conversions.start(config, files, self.generated, keep=self.serving)
        return files

    def options(self, config: MkDocsConfig | None, files: Files) -> api.SiteOptions:
        """The site options this plugin's options and mkdocs.yml give."""
        legend = self.config.legend if files.get_file_from_path(self.config.legend) else None
        layout = api.Layout(
            pages=self.config.pages,
            overview=self.config.overview,
            health=self.config.health,
            legend=legend,
            changes=self.config.changes,
            revisions=self.config.revisions,
            priorities=self.config.priorities,
        )
        templates = Path(self.config.templates) if self.config.templates else None
        return api.SiteOptions(
            layout=layout,
            templates=templates,
            verify=self.config.verify,
            history=self.config.history,
            repo_url=getattr(config, "repo_url", None),
            edit_url=_edit_url(config, Path(self.config.registers)),
            subject=self.config.subject,
            extensions=list(config.markdown_extensions) if config is not None else None,
            extension_configs=dict(config.mdx_configs or {}) if config is not None else None,
            excerpt_folder=self.folder(),
        )

    @event_priority(-100)  # last: the nav as every other plugin left it
    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        """Prune the nav for the pages this plugin left out of it that it does not name
        (a hand-written nav may name one: that page is drawn with the whole nav). Served:
        keep out of this build each generated page whose HTML cannot change (`KeptFiles`),
        and each generated file that is as it was."""
        self.files = files
        self.out_of_nav = self.unlisted - {page.file.src_uri for page in nav.pages}
        self.pruned = pruned_nav(nav) if self.out_of_nav else None
        if self.serving:
            self.kept.keep(config, files, nav, self.sources, self.conversions.context)
        return nav

    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        """The pages a template is given are the site's, the kept ones too. A page this
        plugin left out of the nav is given the pruned nav: on a page in no section the
        theme would draw every register's entry for nothing (`prunednav`)."""
        if self.kept.kept and self.files is not None:
            context["pages"] = self.kept.pages(self.files, served=True)
        if self.pruned is not None and page.file.src_uri in self.out_of_nav:
            context["nav"] = self.pruned
        return context

    def on_template_context(
        self, context: TemplateContext, /, *, template_name: str, config: MkDocsConfig
    ) -> TemplateContext:
        """The sitemap lists the kept pages too."""
        if self.kept.kept and self.files is not None:
            context["pages"] = self.kept.pages(self.files, served=False)
        return context

    @event_priority(-100)  # last: after the search plugin wrote its index
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Served: put back what was kept; remember what this build made."""
        if self.serving and self.files is not None:
            anchors = config.validation.links.anchors
            self.kept.after(config, self.files, self.sources, anchors)
        self.files = None  # every page of this build, with its HTML: not held into the next
        self.pruned = None  # its pages too

    @event_priority(-100)  # last: the Markdown every other plugin is done with
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """A generated page converted before from the same Markdown, with the same links
        around it, is not converted again: MkDocs is given only its title to convert, and
        `on_page_content` puts back its HTML, table of contents and anchors."""
        if page.file.src_uri not in self.generated:
            return markdown
        return self.conversions.markdown(page, markdown)

    @event_priority(100)  # first: clean what Markdown made, before other plugins add theirs
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """The generated pages' HTML, kept to an allowlist (`site.sanitize`)."""
        if page.file.src_uri not in self.generated:
            return html
        return self.conversions.content(page, html, files)

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        """Rebuild when a register, sources.yaml or a template changes."""
        root = Path(self.config.registers)
        templates = Path(self.config.templates) if self.config.templates else None
        for path in api.site_watched(root, api.SiteOptions(templates=templates)):
            server.watch(str(path))
        return server


def log_problems(site: api.Site) -> None:
    """Log every problem and notice; warnings and errors make `mkdocs build --strict` fail."""
    quiet = 0
    for level, diagnostic in site.levelled():
        quiet += level == "info"
        getattr(log, level)(report.log_line(diagnostic))
    if quiet:
        log.info("%d expected notices (pending registers, sources without a checkout)", quiet)
    for level, notice in site.levelled_notices():
        getattr(log, level)(notice.message)


def _edit_url(config: MkDocsConfig | None, root: Path) -> str | None:
    """Where the registers folder's files are edited, from `repo_url` and `edit_uri`."""
    if config is None:  # a caller that runs the event alone
        return None
    top = Path(config.config_file_path or ".").parent
    repo_url, edit_uri = getattr(config, "repo_url", None), getattr(config, "edit_uri", None)
    return api.site_edit_url(repo_url, edit_uri, top, Path(config.docs_dir), root)


def _digest(content: str | bytes) -> bytes:
    """A generated file's content as the next build compares it: equal digests, equal
    contents."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    return hashlib.sha256(data).digest()


def _add(files: Files, file: File) -> None:
    if files.get_file_from_path(file.src_uri) is not None:
        log.error("%s exists in docs/ and is also generated from the registers", file.src_uri)
        return
    files.append(file)

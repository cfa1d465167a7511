"""The `register` MkDocs plugin, an adapter: `on_config` adds the extensions and assets the
pages need, `on_files` the files and nav of `api.build_site`'s site, each written only when
its bytes change (so `mkdocs serve --dirty` builds again only what an edit changed)."""

from __future__ import annotations

import shutil
import tempfile
import weakref
from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Link, Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from .. import api

log = get_plugin_logger(__name__)

LAYOUT = ("pages", "overview", "health", "changes", "revisions", "priorities")
"""The options that say where each page goes (`api.Layout`)."""


class RegisterConfig(base.Config):
    """Options of the `register` plugin in mkdocs.yml (docs/site.md says what each does)."""

    registers = c.Dir(exists=False, default="registers")
    templates = c.Optional(c.Dir(exists=True))
    verify = c.Type(bool, default=True)
    pages = c.Type(str, default="registers")
    overview = c.Type(str, default="registers/index.md")
    health = c.Type(str, default="registers/health.md")
    revisions = c.Type(str, default="registers/revisions")
    priorities = c.Type(str, default="registers/priorities.md")
    legend = c.Type(str, default="legend.md")
    history = c.Type(bool, default=True)
    changes = c.Type(str, default="registers/changes.md")
    subject = c.Optional(c.Type(str))
    nav_title = c.Type(str, default="Registers")


class RegisterPlugin(BasePlugin[RegisterConfig]):
    """Adds the register pages, their excerpt files and assets, and their nav section."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="register-site-"))  # the site's files
        weakref.finalize(self, shutil.rmtree, self.folder, True)
        self.generated: frozenset[str] = frozenset()  # by src URI: their HTML is cleaned
        self.unlisted: frozenset[str] = frozenset()  # of those, in no nav: the pruned nav

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so that `mkdocs serve` keeps this instance, and its folder's file times;
        a server keeps register files' readings between builds, a build none."""
        api.keep_reads(command == "serve")

    def on_shutdown(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        """Add the extensions (as mkdocs-autorefs adds its own) and assets the pages need."""
        try:
            api.complete_extensions(config.markdown_extensions, config.mdx_configs)
        except api.ExtensionConflict as err:
            raise PluginError(f"register plugin: {err}") from None
        css, js = f"{api.ASSET_DIR}/register.css", f"{api.ASSET_DIR}/register.js"
        if css not in config.extra_css:  # named already by a config Zensical reads too
            config.extra_css.append(css)
        if js not in [str(script) for script in config.extra_javascript]:
            config.extra_javascript.append(js)  # type: ignore[arg-type]
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        """Add the site's files (each register's health page `not_in_nav`) and its nav."""
        root = Path(self.config.registers)
        if not root.is_dir():
            log.error("registers folder '%s' does not exist", root)
            return files
        try:
            site = api.build_site(root, self.options(config, files), api.Settings.read())
            written = api.write_site(site, self.folder)  # a file it cannot write: one line
        except api.TemplateProblem as err:
            raise PluginError(f"register plugin: template {err}") from err
        except Exception as err:  # noqa: BLE001 - a traceback is no message for a site's author
            raise PluginError(f"register plugin: {type(err).__name__}: {err}") from err
        for level, line in api.site_log(site):
            getattr(log, level)(line)
        self.generated, self.unlisted = frozenset(site.pages), site.unlisted
        for uri, path in written.items():
            if files.get_file_from_path(uri) is not None:
                log.error("%s exists in docs/ and is also generated from the registers", uri)
                continue
            shown = InclusionLevel.NOT_IN_NAV if uri in self.unlisted else InclusionLevel.UNDEFINED
            files.append(File.generated(config, uri, abs_src_path=str(path), inclusion=shown))
        config.nav = site.nav_for(config.nav, self.config.nav_title)
        return files

    def options(self, config: MkDocsConfig, files: Files) -> api.SiteOptions:
        """The site options this plugin's options and mkdocs.yml give."""
        legend = self.config.legend if files.get_file_from_path(self.config.legend) else None
        templates = Path(self.config.templates) if self.config.templates else None
        top = Path(config.config_file_path or ".").parent
        where = (top, Path(config.docs_dir), Path(self.config.registers))
        return api.SiteOptions(
            layout=api.Layout(legend=legend, **{name: self.config[name] for name in LAYOUT}),
            templates=templates,
            verify=self.config.verify,
            history=self.config.history,
            repo_url=config.repo_url,
            edit_url=api.site_edit_url(config.repo_url, config.edit_uri, *where),
            subject=self.config.subject,
            extension_configs=dict(config.mdx_configs or {}),
            excerpt_folder=self.folder,
        )

    @event_priority(-100)  # last: the nav as every other plugin left it
    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        """A hand-written nav may name a page this plugin left out: it keeps the whole nav."""
        self.unlisted = self.unlisted - {page.file.src_uri for page in nav.pages}
        return nav

    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        """A page in no nav is drawn with the nav pruned (`pruned_nav`)."""
        if page.file.src_uri in self.unlisted:
            context["nav"] = pruned_nav(nav)
        return context

    @event_priority(100)  # first: clean what Markdown made, before other plugins add theirs
    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """The generated pages' HTML, kept to an allowlist (`site.sanitize`)."""
        return api.clean_html(html) if page.file.src_uri in self.generated else html

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer:
        """Rebuild when a register, sources.yaml or a template changes."""
        templates = Path(self.config.templates) if self.config.templates else None
        for path in api.site_watched(Path(self.config.registers), templates):
            server.watch(str(path))
        return server


def pruned_nav(nav: Navigation) -> Navigation:
    """The nav a page in no nav (a register's health page) is drawn with, as
    `navigation.prune` draws one: the top-level items, each section a link to its first page
    (one leading nowhere left out), the pages kept; the whole nav there grew as the square of
    the registers (docs/site.md)."""
    items = []
    for item in nav.items:
        if not item.is_section:
            items.append(item)
        elif (url := first_url(item)) is not None:
            items.append(Link(item.title, url))
    return Navigation(items, nav.pages)


def first_url(section: Any) -> str | None:
    """The URL of the first page or link of a section, nested sections read in order."""
    for child in section.children:
        url = first_url(child) if child.is_section else child.url
        if url is not None:
            return url
    return None

"""The `register` MkDocs plugin: a thin shell that adds the rendered registers to a site.

    plugins:
      - search
      - register

Pages are generated in memory (`File.generated`), never written into docs/. Problems go to
the plugin's logger, so `mkdocs build --strict` fails on a dangling reference or a stale
citation; an unverified citation (no checkout present) and a reference to a pending register
are expected and logged at info level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.livereload import LiveReloadServer
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.structure.files import File, Files

from . import api, render
from .diagnostics import Diagnostic

log = get_plugin_logger(__name__)

ASSET_DIR = "assets/compat-register"


class RegisterConfig(base.Config):
    """Options of the `register` plugin in mkdocs.yml."""

    registers = c.Dir(exists=False, default="registers")
    """Folder holding sources.yaml and the register YAML files, relative to mkdocs.yml."""
    templates = c.Optional(c.Dir(exists=True))
    """A folder of Jinja2 templates overriding the packaged ones, file by file
    (`register.md.j2`, `overview.md.j2`, `health.md.j2`, `assets/register.css|js`)."""
    verify = c.Type(bool, default=True)
    """Read the sources' checkouts, when present, to verify citations and show excerpts.
    With `false` no git is touched and every citation is shown unverified."""
    pages = c.Type(str, default="registers")
    """Folder of the generated register pages, relative to the docs dir."""
    overview = c.Type(str, default="registers/index.md")
    """The overview page (every entry in one sortable, filterable table)."""
    health = c.Type(str, default="registers/health.md")
    """The citation-health page (every citation's outcome, grouped by outcome)."""
    legend = c.Type(str, default="legend.md")
    """A docs page explaining the fields, linked from each register page when it exists."""
    nav_title = c.Type(str, default="Registers")
    """Title of the nav section appended when mkdocs.yml has a `nav`."""


class RegisterPlugin(BasePlugin[RegisterConfig]):
    """Adds one page per register, an overview and a citation-health page."""

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        config.extra_css.append(f"{ASSET_DIR}/register.css")
        config.extra_javascript.append(f"{ASSET_DIR}/register.js")  # type: ignore[arg-type]
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files:
        root = Path(self.config.registers)
        if not root.is_dir():
            log.error("registers folder '%s' does not exist", root)
            return files
        result = self._load(root)
        report(result)
        legend = self.config.legend if files.get_file_from_path(self.config.legend) else None
        layout = render.Layout(self.config.pages, self.config.overview, self.config.health, legend)
        templates = Path(self.config.templates) if self.config.templates else None
        pages = render.Renderer(
            result.registers, getattr(result, "outcomes", ()), layout=layout, templates=templates
        ).pages()
        for uri, content in pages.items():
            _add(files, File.generated(config, uri, content=content))
        for name in render.ASSETS:
            content = render.asset(name, templates)
            _add(files, File.generated(config, f"{ASSET_DIR}/{name}", content=content))
        self._extend_nav(config, layout, result)
        return files

    def _load(self, root: Path) -> api.Checked:
        if self.config.verify:
            return api.verify_citations(root)
        return api.check(root)

    def _extend_nav(self, config: MkDocsConfig, layout: render.Layout, result: api.Checked) -> None:
        """Append a nav section with the generated pages, unless the nav already has them."""
        section = [{"Overview": layout.overview}]
        for register in result.registers.registers:
            section.append({register.title: layout.page_of(register.slug)})
        section.append({"Citation health": layout.health})
        uris = {uri for item in section for uri in item.values()}
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


def report(result: api.Checked) -> None:
    """Log every problem; warnings and errors make `mkdocs build --strict` fail."""
    quiet = 0
    for diagnostic in result.diagnostics:
        level = render.site_level(diagnostic)
        if level == "info":
            quiet += 1
        getattr(log, level)(_message(diagnostic))
    if quiet:
        log.info("%d expected notices (pending registers, sources without a checkout)", quiet)


def _message(d: Diagnostic) -> str:
    return f"{d.file}:{d.line}:{d.col}: {d.id}: {d.message}"

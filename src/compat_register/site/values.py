"""What a site build is asked for (`SiteOptions`) and gives (`Site`), and the level it logs
each diagnostic at. Light on purpose (no Jinja2, no Markdown): `api` imports it always."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model.codes import CODES, Level
from ..model.diagnostic import Diagnostic
from ..model.results import Result
from ..storage.errors import RegisterError
from .urls import Layout


@dataclass(frozen=True)
class SiteOptions:
    """How a site is built (the plugin's options, `register render`'s flags): `templates`
    override the packaged ones file by file, `verify` reads the checkouts (not `--offline`),
    `history` makes the Changes page, `repo_url` links its commits, `edit_url` gives each
    entry an edit link, `subject` leads the priorities page."""

    layout: Layout = field(default_factory=Layout)
    templates: Path | None = None
    verify: bool = True
    history: bool = True
    repo_url: str | None = None
    edit_url: str | None = None
    subject: str | None = None
    extension_configs: Mapping[str, Any] | None = None
    """The site's `mdx_configs`, to highlight excerpts as its pages are."""
    excerpt_folder: Path | None = None
    """Where excerpt files are written as they are made, not held (20,000 weigh some 60 MB)."""
    raw: bool = False
    """For an engine that cleans no HTML (`register render`): a page holding HTML the
    sanitizer removes refuses the site (`Site.refused`)."""


@dataclass
class Site(Result):
    """Every file of a built site, by path relative to the docs dir; its `diagnostics` are
    the register set's problems, then the build's `notices`."""

    pages: dict[str, str]
    excerpts: dict[str, str]
    """Each register's excerpt file (HTML); empty with `SiteOptions.excerpt_folder`."""
    downloads: dict[str, str]
    assets: dict[str, str]
    nav: list[dict[str, Any]]
    """The generated pages' nav section, as mkdocs.yml's `nav` would list them."""
    nav_pages: frozenset[str]
    """The pages a hand-written nav names when it lists the registers itself."""
    excerpt_paths: dict[str, Path] = field(default_factory=dict)
    """Each excerpt file written to `SiteOptions.excerpt_folder`, by its path in the site."""

    def files(self) -> dict[str, str]:
        """Every file of the site, pages first."""
        return {**self.pages, **self.downloads, **self.excerpts, **self.assets}

    @property
    def notices(self) -> list[Diagnostic]:
        """What the build says of the run as a whole (the catalogue's `run` codes)."""
        return [d for d in self.diagnostics if _run(d)]

    def levelled(self) -> list[tuple[str, Diagnostic]]:
        """Each problem of the register set (not the notices) with its site level."""
        return [(site_level(d), d) for d in self.diagnostics if not _run(d)]

    def levelled_notices(self) -> list[tuple[str, Diagnostic]]:
        return [(site_level(d), d) for d in self.notices]

    def nav_for(self, nav: list[Any] | None, title: str) -> list[Any] | None:
        """A site's nav with the section appended under `title`; as it is without a nav or
        with one that names a generated page already."""
        if nav is None or any(uri in self.nav_pages for uri in _listed(nav)):
            return nav
        return [*nav, {title: self.nav}]

    @property
    def unlisted(self) -> frozenset[str]:
        """The pages the nav section does not list (each register's health page), which the
        plugin makes `not_in_nav`, or material would link each on every page."""
        return frozenset(self.pages) - frozenset(_listed(self.nav))

    @property
    def failed(self) -> bool:
        """Whether a problem is an error at the site's level (`register render` exits 1)."""
        return any(site_level(d) == "error" for d in self.diagnostics)


def _listed(nav: Any) -> Iterator[str]:
    """Every page a nav (nested lists and dicts) names."""
    if isinstance(nav, str):
        yield nav
    elif isinstance(nav, (dict, list)):
        for item in nav.values() if isinstance(nav, dict) else nav:
            yield from _listed(item)


def _run(diagnostic: Diagnostic) -> bool:
    code = CODES.get(diagnostic.code)
    return code is not None and code.run


def site_level(diagnostic: Diagnostic) -> Level:
    """The catalogue's site level for a diagnostic's code, else its own severity: `register
    render` and a strict MkDocs build fail on the same problems."""
    code = CODES.get(diagnostic.code)
    return code.site if code is not None and code.site is not None else diagnostic.severity


class TemplateProblem(RegisterError):
    """A template that does not load or render, with the template line that failed."""

    def __init__(self, file: str, line: int | None, message: str):
        super().__init__(f"{file}:{line}: {message}" if line else f"{file}: {message}")
        self.file, self.line, self.message = file, line, message


class ExtensionConflict(RegisterError):
    """A site's mkdocs.yml sets an option of an extension the pages need to another value."""

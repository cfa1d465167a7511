"""The site's URLs: where each generated page and file goes (relative to the docs dir or
`register render --out DIR`), links between them, a register page that would be one of
the site's own (`page_clashes`), and where a register file is edited. Pure."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote, urljoin

from ..model.diagnostic import Diagnostic
from ..model.registers import Entry, Register, RegisterSet
from .markdown import escape_inline, link_destination, safe_url

ASSET_DIR = "assets/compat-register"
"""Where the pages' stylesheet and script go (`register.css`, `register.js`)."""


@dataclass(frozen=True)
class Layout:
    """Where the generated pages go, relative to the docs dir (or `--out DIR`); `legend`, a
    page explaining the fields; `download`, the JSON or None. A revision's, a concept's or a
    badge's file is named after it, never `index`."""

    pages: str = "registers"
    overview: str = "registers/index.md"
    health: str = "registers/health.md"
    legend: str | None = None
    changes: str = "registers/changes.md"
    revisions: str = "registers/revisions"
    priorities: str = "registers/priorities.md"
    download: str | None = "registers/registers.json"
    concept_matrix: str = "registers/matrix.md"
    scores: str = "registers/scores.md"
    coverage: str = "registers/coverage"
    concepts: str = "registers/concepts"
    badges: str = "registers/badges"

    def page_of(self, slug: str) -> str:
        return posixpath.join(self.pages, f"{slug}.md")

    def health_of(self, slug: str) -> str:
        """`registers/health/meta.md`."""
        return posixpath.join(posixpath.splitext(self.health)[0], f"{slug}.md")

    def excerpts_of(self, slug: str) -> str:
        """`registers/meta/excerpts.html`: in the folder of the page's directory URL."""
        return posixpath.join(self.pages, slug, "excerpts.html")

    @property
    def matrix(self) -> str:
        return posixpath.join(self.revisions, "index.md")

    def revision_page(self, name: str) -> str:
        return posixpath.join(self.revisions, _file_name(name, ".md"))

    @property
    def coverage_summary(self) -> str:
        return posixpath.join(self.coverage, "index.md")

    def coverage_page(self, name: str) -> str:
        return posixpath.join(self.coverage, _file_name(name, ".md"))

    def concept_page(self, concept_id: str) -> str:
        """`registers/concepts/mcp.meta.md`."""
        return posixpath.join(self.concepts, _file_name(concept_id, ".md"))

    def subject_badge(self, alias: str) -> str:
        """`registers/badges/mcpx.svg`."""
        return posixpath.join(self.badges, _file_name(alias, ".svg"))

    def concept_badge(self, concept_id: str) -> str:
        """`registers/badges/concept/mcp.meta.svg`."""
        return posixpath.join(self.badges, "concept", _file_name(concept_id, ".svg"))

    def coverage_file(self, revision: str, slug: str) -> str:
        """A statement file's Coverage page, under its revision's: `registers/coverage/
        2026-07-28/basic-index.md` (never `index.md`, which is the revision's own URL)."""
        folder = _file_name(revision, "")
        return posixpath.join(self.coverage, folder, _file_name(slug, ".md"))


def _file_name(name: str, suffix: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-.") or "revision"
    return f"{stem}-{suffix}" if stem == "index" else f"{stem}{suffix}"


@lru_cache(maxsize=4096)
def relative(target: str, page: str) -> str:
    """The relative link from `page` to `target` (both relative to the docs dir)."""
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def page_clashes(registers: RegisterSet, layout: Layout) -> list[Diagnostic]:
    """An error for each register whose page's URL is also one of the site's own pages
    (`registers/priorities.yaml`; `revisions.md` against `revisions/index.md`)."""
    own = {
        served_url(layout.overview): "overview",
        served_url(layout.health): "citation-health page",
        served_url(layout.changes): "Changes page",
        served_url(layout.matrix): "revision matrix",
        served_url(layout.priorities): "priorities page",
        served_url(layout.coverage_summary): "Coverage page",
        served_url(layout.concept_matrix): "Matrix page",
        served_url(layout.scores): "Scores page",
    }
    clashes = []
    for register in registers.registers:
        page = layout.page_of(register.slug)
        if (name := own.get(served_url(page))) is not None:
            message = f"this register's page {page} is also the site's {name}: rename the file"
            clashes.append(
                Diagnostic.at(register.where, id=register.slug, code="page-clash", message=message)
            )
    return clashes


def served_url(page: str) -> str:
    """Where MkDocs serves a page (directory URLs): `a/b.md` and `a/b/index.md` are `a/b/`."""
    stem = posixpath.splitext(page)[0]
    return stem[: -len("index")] if stem == "index" or stem.endswith("/index") else stem + "/"


def edit_base(repo_url: str | None, edit_uri: str | None, docs: str, registers: str) -> str | None:
    """The URL the registers folder's files are edited at, from mkdocs.yml's `repo_url` and
    `edit_uri` (where the docs folder's pages are); `docs` and `registers` are relative to
    mkdocs.yml. None when `edit_uri` does not end with the docs folder: it cannot be told."""
    if not edit_uri or not (repo_url or "://" in edit_uri):
        return None
    pages = urljoin((repo_url or "").rstrip("/") + "/", edit_uri)
    docs_path = posixpath.normpath(docs.replace("\\", "/")).strip("/")
    registers_path = posixpath.normpath(registers.replace("\\", "/")).strip("/")
    if docs_path.startswith("..") or registers_path.startswith(".."):
        return None  # a folder outside mkdocs.yml's: its place in the repository is unknown
    head = pages.rstrip("/")
    if docs_path not in ("", ".") and not head.endswith("/" + docs_path):
        return None
    root = head[: len(head) - len(docs_path)] if docs_path not in ("", ".") else head + "/"
    base = f"{root}{quote(registers_path)}/" if registers_path not in ("", ".") else root
    return base if safe_url(base) else None


def edit_link(edit_url: str | None, register: Register, entry: Entry) -> str:
    """`[Edit META-07 at meta.yaml:42](…/meta.yaml#L42){ .reg-edit }`, or ''."""
    if not edit_url:
        return ""
    name = posixpath.basename(register.file.replace("\\", "/"))
    url = f"{edit_url.rstrip('/')}/{quote(name)}#L{entry.where.line}"
    if not safe_url(url):
        return ""
    label = escape_inline(f"Edit {entry.id} at {name}:{entry.where.line}")
    return f"[{label}]({link_destination(url)}){{ .reg-edit }}"

"""The files of a new register project, as text (`register init`), for one of `ENGINES`.
The templates in `files/` have no leading dots, so package data globs ship them."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from ..citations.quoting import single_quoted
from ..site.extensions import SEARCH_SEPARATOR, mkdocs_yaml
from ..site.urls import ASSET_DIR, Layout
from . import install

ENGINES = ("mkdocs", "zensical")
"""The engines a new project can be set up for (docs/publishing.md)."""

FILES = Path(__file__).parent / "files"
SCHEMAS = Path(__file__).parent.parent / "schema"

TARGETS = {
    "registers/sources.yaml": "sources.yaml",
    "registers/example.yaml": "example.yaml",
    "docs/index.md": "index.md",
    ".github/workflows/registers.yml": "workflow.yml",
    ".pre-commit-config.yaml": "pre-commit-config.yaml",
    ".gitignore": "gitignore",
}
"""Path in the project -> template in files/."""

SCHEMA_DIR = "docs/schema"
"""Where the register files' modelines point and the site publishes the schemas."""

ZENSICAL_TEMPLATES = {".github/workflows/registers.yml": "workflow-zensical.yml"}
"""The templates a Zensical project takes instead of the MkDocs ones."""


def files(name: str, today: datetime.date, engine: str = "mkdocs") -> dict[str, str]:
    """Every file of a new project called `name` built with `engine`, by relative path."""
    zensical = engine == "zensical"
    config = zensical_config(name) if zensical else mkdocs_config(name)
    engine_line = "# the site's engine (docs/publishing.md)\nzensical\n" if zensical else ""
    texts = {"mkdocs.yml": config, "requirements.txt": install.requirement() + engine_line}
    for target, template in TARGETS.items():
        template = ZENSICAL_TEMPLATES.get(target, template) if zensical else template
        text = (FILES / template).read_text(encoding="utf-8")
        texts[target] = text.replace("{today}", today.isoformat()).replace("{site_name}", name)
    if zensical:
        texts[".gitignore"] += GENERATED
        texts["docs/index.md"] = texts["docs/index.md"].replace(
            "`mkdocs serve`", "`register render --out docs` then `zensical serve`"
        )
    for schema in sorted(SCHEMAS.glob("*.schema.json")):
        texts[f"{SCHEMA_DIR}/{schema.name}"] = schema.read_text(encoding="utf-8")
    return texts


def mkdocs_config(name: str) -> str:
    """mkdocs.yml: the material theme, the register plugin, the extensions its pages use;
    a nav of the home page, to which the plugin appends its section (the overview first,
    the registers, then the pages it makes)."""
    plugin = """  - register:
      registers: registers    # sources.yaml and the register files

nav:
  - Home: index.md          # your pages; the plugin appends its Registers section after them

# What the register pages are written for (the plugin adds any that are missing).
"""
    return _site_head(name) + plugin + mkdocs_yaml()


def zensical_config(name: str) -> str:
    """mkdocs.yml as Zensical reads it: no register plugin (it runs none), the pages' assets
    named, the extensions the pages use."""
    built = (
        "# Built with Zensical, which runs no MkDocs plugin: `register render --out docs`"
        " writes the\n# register pages, their excerpt files and assets into docs/ first"
        " (docs/publishing.md).\n"
    )
    assets = f"""
extra_css:
  - {ASSET_DIR}/register.css
extra_javascript:
  - {ASSET_DIR}/register.js

# What the register pages are written for.
"""
    return _site_head(name, built) + assets + mkdocs_yaml()


def _site_head(name: str, comment: str = "") -> str:
    """What both engines' mkdocs.yml begin with, `plugins:` ending with search (the name as a
    YAML double-quoted scalar: JSON's escapes are YAML's)."""
    return f"""site_name: {json.dumps(name, ensure_ascii=False)}
docs_dir: docs

{comment}theme:
  name: material
  font: false   # the system's fonts: viewing a page asks no other host for anything
  features:
    - navigation.sections
    - navigation.indexes
    - content.code.copy
  palette:
    - scheme: default
      toggle: {{icon: material/brightness-7, name: Switch to dark mode}}
    - scheme: slate
      toggle: {{icon: material/brightness-4, name: Switch to light mode}}

plugins:
  - search:
      # IDs, paths and file names found as typed (docs/site.md: Search).
      separator: {single_quoted(SEARCH_SEPARATOR)}
"""


GENERATED = f"""# what `register render --out docs` writes (the register pages are made, not kept)
/docs/{Layout().pages}/
/docs/{ASSET_DIR}/
"""

"""The files of a new register project, as text (`register init`); nothing here writes.

The templates are in `files/`, stored without leading dots so that package data globs
ship them; `TARGETS` says where each one goes in a project.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from ..site.extensions import SEARCH_SEPARATOR, mkdocs_yaml
from . import install

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
"""Where the modelines of the register files point (`../docs/schema/...`), and where the
site publishes the schemas."""


def files(name: str, today: datetime.date) -> dict[str, str]:
    """Every file of a new project called `name`, by path relative to its folder."""
    texts = {"mkdocs.yml": mkdocs_config(name), "requirements.txt": requirements()}
    for target, template in TARGETS.items():
        text = (FILES / template).read_text(encoding="utf-8")
        texts[target] = text.replace("{today}", today.isoformat()).replace("{site_name}", name)
    for schema in sorted(SCHEMAS.glob("*.schema.json")):
        texts[f"{SCHEMA_DIR}/{schema.name}"] = schema.read_text(encoding="utf-8")
    return texts


def mkdocs_config(name: str) -> str:
    """mkdocs.yml: the material theme, the register plugin, the extensions its pages use."""
    head = f"""site_name: {_yaml_string(name)}
docs_dir: docs

theme:
  name: material
  features:
    - navigation.sections
    - content.code.copy

plugins:
  - search:
      # IDs, paths and file names found as typed (docs/site.md: Search).
      separator: {_yaml_single(SEARCH_SEPARATOR)}
  - register:
      registers: registers    # sources.yaml and the register files

# What the register pages are written for (the plugin adds any that are missing).
"""
    return head + mkdocs_yaml()


def requirements() -> str:
    """requirements.txt for CI: compat-register (which brings MkDocs) from where this copy
    was installed (`install`)."""
    return install.requirement()


def _yaml_single(text: str) -> str:
    """`text` as a YAML single-quoted scalar (a regex keeps its backslashes as written)."""
    return "'" + text.replace("'", "''") + "'"


def _yaml_string(text: str) -> str:
    """`text` as a YAML double-quoted scalar (JSON's escapes are YAML's)."""
    return json.dumps(text, ensure_ascii=False)

"""The registers folder a command reads, as git finds its repository: `--registers`, else
`REGISTER_DIR`, else the nearest folder at or above holding `registers/sources.yaml` or a
mkdocs.yml naming the `register` plugin (its `registers` option)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from ..storage import regular
from ..storage.layout import SOURCES_FILE
from ..storage.settings import Settings

DEFAULT = "registers"
MKDOCS_FILES = ("mkdocs.yml", "mkdocs.yaml")


def registers_folder(
    given: Path | None, settings: Settings, start: Path | None = None
) -> Path | None:
    """The registers folder to read: `given`, else `$REGISTER_DIR`, else the nearest project
    at or above `start` (the working directory); None when there is none."""
    return given or settings.registers or find_above(start or Path.cwd())


def find_above(start: Path) -> Path | None:
    """The registers folder of the nearest project at or above `start`, relative to it, so
    messages name files as git does: from here."""
    here = start.absolute()
    for folder in (here, *here.parents):
        found = _project_at(folder)
        if found is not None:
            return Path(os.path.relpath(found, here))
    return None


def _project_at(folder: Path) -> Path | None:
    if (folder / DEFAULT / SOURCES_FILE).is_file():
        return folder / DEFAULT
    for name in MKDOCS_FILES:
        if (folder / name).is_file():
            named = _plugin_registers(folder / name)
            if named is not None:
                return folder / named
    return None


def _plugin_registers(mkdocs_yml: Path) -> str | None:
    """The `register` plugin's `registers` option in this mkdocs.yml (default `registers`);
    None when it names no such plugin or cannot be read (that is `mkdocs`'s to report)."""
    try:
        text = regular.read_bytes(mkdocs_yml, regular.MAX_BYTES).decode("utf-8")
        config = yaml.load(text, _AnyTagLoader)  # noqa: S506
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    plugins = config.get("plugins") if isinstance(config, dict) else None
    for name, options in _plugin_items(plugins):
        if name == "register":
            value = options.get("registers", DEFAULT) if isinstance(options, dict) else DEFAULT
            return value if isinstance(value, str) and value else DEFAULT
    return None


def _plugin_items(plugins: Any) -> list[tuple[Any, Any]]:
    """mkdocs.yml's `plugins`, a list of names and one-key mappings or a mapping, as pairs."""
    if isinstance(plugins, dict):
        return list(plugins.items())
    pairs: list[tuple[Any, Any]] = []
    for item in plugins if isinstance(plugins, list) else []:
        pairs.extend(item.items() if isinstance(item, dict) else [(item, None)])
    return pairs


class _AnyTagLoader(yaml.SafeLoader):
    """A safe loader that reads MkDocs' own tags (`!ENV`, `!!python/name:`) as nothing."""


_AnyTagLoader.add_multi_constructor("", lambda _loader, _suffix, _node: None)  # every tag

"""Where a source's repository is read: the environment variable naming a clone of it, the
`path:` of sources.yaml, the cache (where the cache is: `storage.layout.Paths`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from .sourcecache import SourceCache


def locate(
    alias: str, path_key: str | None, cache: SourceCache, environ: Mapping[str, str]
) -> Path | None:
    """Where a source's checkout is, in DESIGN order: env `source_variable(alias)`, then
    the sources.yaml `path:` key, then the cache dir if it exists; None if none. Relative
    paths are returned as given."""
    variable = source_variable(alias)
    if environ.get(variable):
        return Path(environ[variable])
    if path_key:
        return Path(path_key)
    cached = cache.repo_dir(alias)
    return cached if cached.is_dir() else None


def source_variable(alias: str) -> str:
    """The environment variable naming a local clone of source `alias`:
    `REGISTER_SOURCE_` and the alias upper-cased, other characters than A-Z and 0-9 `_`."""
    return "REGISTER_SOURCE_" + re.sub(r"[^A-Za-z0-9]", "_", alias).upper()

"""Where a source's repository is read: the environment variable naming a clone of it, the
`path:` of sources.yaml, the cache (where the cache is: `storage.layout.Paths`)."""

from __future__ import annotations

from pathlib import Path

from ..storage.settings import Settings
from .sourcecache import SourceCache


def locate(
    alias: str, path_key: str | None, cache: SourceCache, settings: Settings
) -> Path | None:
    """Where a source's checkout is, in DESIGN order: env `source_variable(alias)`, then
    the sources.yaml `path:` key, then the cache dir if it exists; None if none. Relative
    paths are returned as given."""
    clone = settings.clone(alias)
    if clone is not None:
        return clone
    if path_key:
        return Path(path_key)
    cached = cache.repo_dir(alias)
    return cached if cached.is_dir() else None


"""What made a cache: its format's version and each distribution's whose output it keeps.
Apart from `shape`: importlib.metadata (and the email package under it) loads only in the
commands that keep such a cache, not in `check` or `verify`."""

from __future__ import annotations

from importlib import metadata


def made_by(version: int, *distributions: str) -> str:
    """A cache's format `version` and that of each distribution whose output it keeps."""
    return " ".join([str(version), *(f"{name}={_version(name)}" for name in distributions)])


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "unknown"

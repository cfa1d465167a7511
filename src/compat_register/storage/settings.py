"""The `REGISTER_*` variables the tool honours, read once by a shell (`cli`, the plugin) into
one `Settings` value handed to the stages: no other module reads the environment.
docs/ci.md lists them."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .lock import DEFAULT_WAIT

REGISTERS_VARIABLE = "REGISTER_DIR"
"""The registers folder (as `--registers DIR` names it, which wins)."""
CACHE_VARIABLE = "REGISTER_CACHE"
"""Another cache folder than `.register/cache`."""
WAIT_VARIABLE = "REGISTER_LOCK_WAIT"
"""Seconds a writer waits for another."""
SOURCE_PREFIX = "REGISTER_SOURCE_"
"""With a source's alias (`source_variable`): a local clone of that source."""


@dataclass(frozen=True)
class Settings:
    """What the environment asked of this run; the defaults when it asked nothing."""

    registers: Path | None = None
    cache: Path | None = None
    lock_wait: float = DEFAULT_WAIT
    clones: Mapping[str, str] = field(default_factory=dict)
    """Each `REGISTER_SOURCE_*` variable set, by name, as written (messages quote it)."""

    @classmethod
    def read(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        """The settings `environ` (this process's environment) holds; an empty one is unset."""
        return cls(
            _path(environ.get(REGISTERS_VARIABLE)),
            _path(environ.get(CACHE_VARIABLE)),
            _seconds(environ.get(WAIT_VARIABLE)),
            {k: v for k, v in environ.items() if k.startswith(SOURCE_PREFIX) and v},
        )


def source_variable(alias: str) -> str:
    """The variable naming a local clone of source `alias`: `REGISTER_SOURCE_` and the
    alias upper-cased, other characters than A-Z and 0-9 `_`."""
    return SOURCE_PREFIX + re.sub(r"[^A-Za-z0-9]", "_", alias).upper()


def inherited() -> dict[str, str]:
    """This process's environment, as a child process (git) would inherit it."""
    return dict(os.environ)


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _seconds(value: str | None) -> float:
    try:
        return max(0.0, float(value)) if value else DEFAULT_WAIT
    except ValueError:
        return DEFAULT_WAIT


DEFAULTS = Settings()
"""The settings of an environment that sets none of the variables."""

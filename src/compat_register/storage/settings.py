"""The `REGISTER_*` variables (docs/ci.md), read once by a shell into one `Settings` value
handed to the stages: no other module reads the environment."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

REGISTERS_VARIABLE = "REGISTER_DIR"  # `--registers DIR` wins
CACHE_VARIABLE = "REGISTER_CACHE"
WAIT_VARIABLE = "REGISTER_LOCK_WAIT"
SOURCE_PREFIX = "REGISTER_SOURCE_"  # and a source's alias: a local clone of it
DEFAULT_WAIT = 30.0  # seconds a writer waits for another


@dataclass(frozen=True)
class Settings:
    """What the environment asked of this run; the defaults when it asked nothing."""

    registers: Path | None = None
    cache: Path | None = None
    lock_wait: float = DEFAULT_WAIT
    clones: Mapping[str, str] = field(default_factory=dict)
    """Each `REGISTER_SOURCE_*` variable set, as written (messages quote it)."""

    @classmethod
    def read(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        """The settings `environ` holds; an empty variable is unset."""
        return cls(
            _path(environ.get(REGISTERS_VARIABLE)),
            _path(environ.get(CACHE_VARIABLE)),
            _seconds(environ.get(WAIT_VARIABLE)),
            {k: v for k, v in environ.items() if k.startswith(SOURCE_PREFIX) and v},
        )


def source_variable(alias: str) -> str:
    """`REGISTER_SOURCE_` and the alias upper-cased, other characters than A-Z, 0-9 `_`."""
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

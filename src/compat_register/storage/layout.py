"""Where a project keeps what: the registers folder and, beside it, `.register/` (the
writers' lock, the journal, the cache). `Paths` is made once, by `api`. Pure.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

SOURCES_FILE = "sources.yaml"
EXCLUSIONS_FILE = "exclusions.yaml"
CONFORMANCE_SUFFIX = ".json"  # each subject's recorded results, `conformance/ALIAS.json`
CONCEPTS_FILE = "concepts.yaml"
REGISTER_SUFFIX = ".yaml"
NOT_REGISTERS = frozenset({SOURCES_FILE, EXCLUSIONS_FILE, CONCEPTS_FILE})
"""Files of the registers folder named like a register that are none."""

EXCERPT_CACHE = "excerpts"  # in the cache, beside history.json and statements.json


def is_register_file(name: str) -> bool:
    """Whether a file `name` of the registers folder is a register file: not hidden (an
    editor's lock `.#meta.yaml`), not `.yml` (`reading.folder` warns of those)."""
    return name.endswith(REGISTER_SUFFIX) and not name.startswith(".") and name not in NOT_REGISTERS


def register_file(slug: str) -> str:
    return slug + REGISTER_SUFFIX


def slug_of(name: str) -> str:
    """The slug of the register file `name` (a path's last part): `meta` of `meta.yaml`."""
    return name.rsplit("/", 1)[-1].removesuffix(REGISTER_SUFFIX)


def state_dir(registers: Path) -> Path:
    """`<registers>/../.register` (normpath, not .parent: the parent of "." is ".")."""
    return Path(os.path.normpath(registers / ".." / ".register"))


@dataclass(frozen=True)
class Paths:
    """Every path of one project, as the command was given its registers folder."""

    registers: Path
    """As given (`../../registers`): messages name files from here, as git does."""
    cache: Path
    """`$REGISTER_CACHE`, else `.register/cache` beside the registers."""
    refused: str | None = None
    """Why this run may not use `.register/` (`writers.refusal`): then no cache is used there."""

    @classmethod
    def of(cls, registers: Path, cache: Path | None = None) -> Paths:
        return cls(registers, cache or state_dir(registers) / "cache")

    @property
    def sources(self) -> Path:
        return self.registers / SOURCES_FILE

    @property
    def lock(self) -> Path:
        return self.registers / "citations.lock"  # the review stamps

    @property
    def exclusions(self) -> Path:
        return self.registers / EXCLUSIONS_FILE

    @property
    def conformance_dir(self) -> Path:
        return self.registers / "conformance"

    def conformance(self, alias: str) -> Path:
        return self.conformance_dir / (alias + CONFORMANCE_SUFFIX)

    @property
    def concepts(self) -> Path:
        return self.registers / CONCEPTS_FILE

    def register(self, slug: str) -> Path:
        return self.registers / register_file(slug)

    def written(self, path: str) -> Path:
        """A path written in sources.yaml, relative to the registers folder unless absolute."""
        return self.registers / path

    @property
    def inside(self) -> tuple[Path, Path]:
        """Where a linked file of the registers folder may lead: the registers folder or
        the project's folder beside `.register/`."""
        return self.registers, self.state.parent

    @property
    def own_cache(self) -> bool:
        """Whether the cache lies in `.register/` (not named by REGISTER_CACHE): then
        whatever refuses `.register/` refuses the cache too."""
        return self.cache.is_relative_to(self.state)

    @property
    def state(self) -> Path:
        return state_dir(self.registers)

    @property
    def writer_lock(self) -> Path:
        return self.state / "lock"

    @property
    def journal(self) -> Path:
        return self.state / "journal.json"

    @property
    def history_cache(self) -> Path | None:
        return None if self.refused else self.cache / "history.json"

    @property
    def statements_cache(self) -> Path | None:
        return None if self.refused else self.cache / "statements.json"

    @property
    def excerpt_cache(self) -> Path | None:
        return None if self.refused else self.cache / EXCERPT_CACHE

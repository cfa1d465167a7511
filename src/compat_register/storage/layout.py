"""Where a project keeps what: the registers folder and, beside it, `.register/` (the
writers' lock, the journal, the cache). `Paths` is made once, by `api`, and handed to every
stage. Pure: nothing here touches the file system.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

SOURCES_FILE = "sources.yaml"
"""The sources and their pins, in the registers folder."""
LOCK_FILE = "citations.lock"
"""The review stamps (`register stamp`), in the registers folder."""
EXCLUSIONS_FILE = "exclusions.yaml"
"""The statements of the specification deliberately not covered (`register coverage`)."""
CONFORMANCE_DIR = "conformance"
"""Each subject's recorded conformance results, `conformance/<ALIAS>.json`, in the
registers folder (`register conformance import` writes them; docs/conformance.md)."""
CONFORMANCE_SUFFIX = ".json"
CONCEPTS_FILE = "concepts.yaml"
"""The concepts entries of several registers name (the matrix page's rows)."""
REGISTER_SUFFIX = ".yaml"
"""What a register file's name ends in: the rest is its slug."""
NOT_REGISTERS = frozenset({SOURCES_FILE, EXCLUSIONS_FILE, CONCEPTS_FILE})
"""Files of the registers folder named like a register that are none."""

STATE_DIR = ".register"
"""The project's own state, beside the registers folder."""
WRITER_LOCK = "lock"
JOURNAL_FILE = "journal.json"
CACHE_DIR = "cache"
HISTORY_CACHE = "history.json"
STATEMENTS_CACHE = "statements.json"
"""Each statement file's statements by blob id (`register coverage`)."""
EXCERPT_CACHE = "excerpts"


def is_register_file(name: str) -> bool:
    """Whether a file `name` of the registers folder is a register file: not hidden (an
    editor's lock `.#meta.yaml`), not `.yml` (`reading.folder` warns of those)."""
    return name.endswith(REGISTER_SUFFIX) and not name.startswith(".") and name not in NOT_REGISTERS


def register_file(slug: str) -> str:
    """The file name of the register `slug`: `meta.yaml`."""
    return slug + REGISTER_SUFFIX


def slug_of(name: str) -> str:
    """The slug of the register file `name` (a path's last part): `meta` of `meta.yaml`."""
    return name.rsplit("/", 1)[-1].removesuffix(REGISTER_SUFFIX)


def state_dir(registers: Path) -> Path:
    """`<registers>/../.register` (normpath, not .parent: the parent of "." is ".")."""
    return Path(os.path.normpath(registers / ".." / STATE_DIR))


@dataclass(frozen=True)
class Paths:
    """Every path of one project, as the command was given its registers folder."""

    registers: Path
    """The registers folder, as given (`registers`, `../../registers`): messages name files
    from here, as git does."""
    cache: Path
    """The cache root: `$REGISTER_CACHE`, else `.register/cache` beside the registers."""
    refused: str | None = None
    """Why this run may not use `.register/` (a link, files git tracks: `state.refusal`),
    one line; None when it may. Then no cache file is read or written there."""

    @classmethod
    def of(cls, registers: Path, cache: Path | None = None) -> Paths:
        """The paths of the project at `registers`, its cache at `cache` if given."""
        return cls(registers, cache or state_dir(registers) / CACHE_DIR)

    @property
    def sources(self) -> Path:
        return self.registers / SOURCES_FILE

    @property
    def lock(self) -> Path:
        """The review stamps, `citations.lock`."""
        return self.registers / LOCK_FILE

    @property
    def exclusions(self) -> Path:
        """`exclusions.yaml`: statements not covered on purpose, each with a reason."""
        return self.registers / EXCLUSIONS_FILE

    @property
    def conformance_dir(self) -> Path:
        """`conformance/`: one recorded result file per subject."""
        return self.registers / CONFORMANCE_DIR

    def conformance(self, alias: str) -> Path:
        """The recorded conformance results of the subject `alias`: `conformance/ALIAS.json`."""
        return self.conformance_dir / (alias + CONFORMANCE_SUFFIX)

    @property
    def concepts(self) -> Path:
        """`concepts.yaml`: the concepts entries name, one matrix row each."""
        return self.registers / CONCEPTS_FILE

    def register(self, slug: str) -> Path:
        return self.registers / register_file(slug)

    def written(self, path: str) -> Path:
        """A path written in sources.yaml (`path:`, a local `repo:`), which is relative to
        the registers folder when it is not absolute."""
        return self.registers / path

    @property
    def inside(self) -> tuple[Path, Path]:
        """Where a file of the registers folder may lead, when it is a link: into the
        registers folder or the project's folder beside `.register/` (not out of them)."""
        return self.registers, self.state.parent

    @property
    def own_cache(self) -> bool:
        """Whether the cache lies in `.register/` (not elsewhere, named by REGISTER_CACHE):
        then whatever refuses `.register/` refuses the cache too."""
        return self.cache.is_relative_to(self.state)

    @property
    def state(self) -> Path:
        return state_dir(self.registers)

    @property
    def writer_lock(self) -> Path:
        return self.state / WRITER_LOCK

    @property
    def journal(self) -> Path:
        return self.state / JOURNAL_FILE

    @property
    def history_cache(self) -> Path | None:
        return None if self.refused else self.cache / HISTORY_CACHE

    @property
    def statements_cache(self) -> Path | None:
        return None if self.refused else self.cache / STATEMENTS_CACHE

    @property
    def excerpt_cache(self) -> Path | None:
        return None if self.refused else self.cache / EXCERPT_CACHE

"""The public API: one function per command, each returning data and diagnostics.

`cli.py` prints what these return and `plugin.py` renders it; neither holds logic.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import refs, registerset, validate
from .diagnostics import Diagnostic, sort_diagnostics
from .loader import Document
from .models import RegisterSet

# verify, pins and edit bring in GitPython: imported where used, so `register check` and
# `register export` never load git.
if TYPE_CHECKING:
    from . import edit, verify


@contextmanager
def bulk_allocation() -> Iterator[None]:
    """Pause the cyclic garbage collector while a run builds its objects.

    A run makes hundreds of thousands of small objects and no garbage cycles; with the
    collector on, its repeated full passes over them took a quarter of `register verify`.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class Checked:
    """A loaded, validated and cross-linked register set, and every problem found."""

    root: Path
    registers: RegisterSet
    documents: dict[str, Document]
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)


def check(root: Path) -> Checked:
    """`register check`: load, validate, resolve cross-references. Touches no git."""
    with bulk_allocation():
        return _check(root)


def _check(root: Path) -> Checked:
    loaded = registerset.load(root)
    diagnostics = list(loaded.diagnostics)
    diagnostics.extend(validate.check(loaded.registers, loaded.documents))
    diagnostics.extend(refs.resolve(loaded.registers, loaded.documents))
    return Checked(root, loaded.registers, loaded.documents, sort_diagnostics(diagnostics))


@dataclass
class Verified(Checked):
    """A checked register set with the outcome of every citation."""

    outcomes: list[verify.Outcome] = field(default_factory=list)

    @property
    def summary(self) -> dict[str, int]:
        from . import verify

        return verify.summary(self.outcomes)


def verify_citations(
    root: Path,
    *,
    skip: Iterable[str] = (),
    offline: bool = False,
    environ: Mapping[str, str] | None = None,
) -> Verified:
    """`register verify`: everything `check` does, plus every citation at its pinned commit."""
    from . import verify

    with bulk_allocation():
        checked = _check(root)
        outcomes, diagnostics = verify.verify(
            checked.registers,
            root,
            skip=skip,
            offline=offline,
            environ=os.environ if environ is None else environ,
        )
    all_diagnostics = sort_diagnostics([*checked.diagnostics, *diagnostics])
    return Verified(root, checked.registers, checked.documents, all_diagnostics, outcomes)


def fix(root: Path, environ: Mapping[str, str] | None = None) -> tuple[Verified, list[edit.Change]]:
    """`register fix`: rewrite the lines of every `moved` citation in place, atomically."""
    from . import edit

    verified = verify_citations(root, environ=environ)
    moves = [(o.citation, o.proposed) for o in verified.outcomes if o.proposed is not None]
    changes = edit.apply(verified.documents, moves)
    return verified, changes


def sync(
    root: Path,
    aliases: Iterable[str] = (),
    progress: Callable[[str, str], None] | None = None,
    environ: Mapping[str, str] | None = None,
) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
    """`register sync`: fetch each source's pinned commit into the cache.

    Returns (alias, full sha) for each source synced, and a diagnostic per failure.
    """
    from . import pins

    checked = check(root)
    environ = os.environ if environ is None else environ
    return pins.sync_all(checked.registers.sources, root, list(aliases), progress, environ)

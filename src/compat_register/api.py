"""The public API: one function per command, each returning data and diagnostics.

`cli.py` prints what these return and `plugin.py` renders it; neither holds logic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import refs, registerset, validate
from .diagnostics import Diagnostic, sort_diagnostics
from .loader import Document
from .models import RegisterSet


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
    loaded = registerset.load(root)
    diagnostics = list(loaded.diagnostics)
    diagnostics.extend(validate.check(loaded.registers, loaded.documents))
    diagnostics.extend(refs.resolve(loaded.registers, loaded.documents))
    return Checked(root, loaded.registers, loaded.documents, sort_diagnostics(diagnostics))

"""Problems as values: every stage yields `Diagnostic`s, and `reporting` prints them.

A diagnostic always points into the YAML that holds the problem, so a user can jump
from the terminal (or a GitHub annotation) to the exact line and column.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from . import display
from .positions import Where

Severity = Literal["error", "warning", "info"]
"""`error` fails a command, `warning` fails it under `--strict`, `info` is a notice: what a
run did or could not do beside the registers (a cache it could not write), failing nothing."""


@dataclass(frozen=True, order=True, kw_only=True)
class Diagnostic:
    """One problem found in a register set. Built with named fields, or `at` a `Where`."""

    file: str
    """Path of the YAML file, as given to the tool (relative where possible)."""
    line: int
    """1-based line in `file`."""
    col: int
    """1-based column in `file`."""
    severity: Severity
    id: str
    """The entry ID the problem belongs to, else the register slug or file stem."""
    code: str
    """A stable machine-readable name, e.g. `unknown-field`, `citation-moved`."""
    message: str

    @classmethod
    def at(
        cls, where: Where, *, id: str, code: str, message: str, severity: Severity = "error"
    ) -> Diagnostic:
        """A problem at a place in a register file."""
        return cls(
            file=where.file,
            line=where.line,
            col=where.col,
            severity=severity,
            id=id,
            code=code,
            message=message,
        )

    @classmethod
    def notice(
        cls, file: str, *, id: str, code: str, message: str, severity: Severity = "info"
    ) -> Diagnostic:
        """A notice about a file as a whole (a cache, the registers folder), at its line 1:
        what a run did or could not do beside the registers."""
        return cls.at(Where(file, 1, 1), id=id, code=code, message=message, severity=severity)

    @property
    def failing(self) -> bool:
        return self.severity == "error"

    def as_text(self) -> str:
        """`FILE:LINE:COL: SEVERITY: ID: message`, the format editors and CI parse; one
        line whatever the values hold (`display.line`)."""
        text = f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.id}: {self.message}"
        return display.line(text)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Order by file, line, column so output follows the files top to bottom."""
    return sorted(set(diagnostics), key=lambda d: (d.file, d.line, d.col, d.code, d.message))

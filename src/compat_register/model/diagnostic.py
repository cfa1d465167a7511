"""Problems as values: every stage yields `Diagnostic`s, each at the line and column of the
YAML that holds it, and `reporting` prints them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Literal

from . import display
from .positions import Where

Severity = Literal["error", "warning", "info"]
"""`error` fails a command, `warning` fails it under `--strict`, `info` fails nothing."""


@dataclass(frozen=True, order=True, kw_only=True)
class Diagnostic:
    """One problem: where (1-based), the entry ID it belongs to (else the register slug or
    file stem), its stable code (`model.codes`) and message."""

    file: str
    line: int
    col: int
    severity: Severity
    id: str
    code: str
    message: str

    @classmethod
    def at(
        cls, where: Where, *, id: str, code: str, message: str, severity: Severity = "error"
    ) -> Diagnostic:
        """A problem at a place in a register file."""
        return cls(**asdict(where), severity=severity, id=id, code=code, message=message)

    @classmethod
    def notice(
        cls, file: str, *, id: str, code: str, message: str, severity: Severity = "info"
    ) -> Diagnostic:
        """A problem of a file as a whole, at its line 1."""
        return cls.at(Where(file, 1, 1), id=id, code=code, message=message, severity=severity)

    @property
    def failing(self) -> bool:
        return self.severity == "error"

    def as_text(self) -> str:
        """`FILE:LINE:COL: SEVERITY: ID: message`, as editors and CI parse, on one line."""
        text = f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.id}: {self.message}"
        return display.line(text)


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Order by file, line, column so output follows the files top to bottom."""
    return sorted(set(diagnostics), key=lambda d: (d.file, d.line, d.col, d.code, d.message))

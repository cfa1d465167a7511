"""Problems as values: every stage yields `Diagnostic`s, one reporter prints them.

A diagnostic always points into the YAML that holds the problem, so a user can jump
from the terminal (or a GitHub annotation) to the exact line and column.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem found in a register set."""

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

    def as_text(self) -> str:
        """`FILE:LINE:COL: SEVERITY: ID: message`, the format editors and CI parse."""
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.id}: {self.message}"

    def as_github(self) -> str:
        """A GitHub Actions workflow command that annotates the line in a pull request."""
        kind = "error" if self.severity == "error" else "warning"
        message = _github_escape(f"{self.id}: {self.message}")
        return f"::{kind} file={self.file},line={self.line},col={self.col}::{message}"

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def _github_escape(text: str) -> str:
    # GitHub's workflow command syntax reserves %, CR and LF in the message.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Order by file, line, column so output follows the files top to bottom."""
    return sorted(set(diagnostics), key=lambda d: (d.file, d.line, d.col, d.code, d.message))


def count(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    """Count errors and warnings."""
    items = list(diagnostics)
    return {
        "errors": sum(d.severity == "error" for d in items),
        "warnings": sum(d.severity == "warning" for d in items),
    }


def format_report(
    diagnostics: list[Diagnostic],
    fmt: str,
    summary: dict[str, int] | None = None,
    extra: dict[str, object] | None = None,
) -> str:
    """Render diagnostics as `text`, `github` or `json`; the summary line comes last in text."""
    if fmt == "json":
        body: dict[str, object] = {
            "summary": {**(summary or {}), **count(diagnostics)},
            "diagnostics": [d.as_dict() for d in diagnostics],
        }
        body.update(extra or {})
        return json.dumps(body, ensure_ascii=False, indent=2)
    lines = [d.as_github() if fmt == "github" else d.as_text() for d in diagnostics]
    lines.append(summary_line(diagnostics, summary))
    return "\n".join(lines)


def summary_line(diagnostics: list[Diagnostic], summary: dict[str, int] | None) -> str:
    """One closing line: the citation outcome counts (when verified), errors, warnings."""
    totals = {**(summary or {}), **count(diagnostics)}
    return ", ".join(f"{value} {name}" for name, value in totals.items())

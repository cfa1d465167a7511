"""What a command hands back, as check-jsonschema's `CheckResult`: one value a shell prints
and decides one exit code by."""

from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostic import Diagnostic


@dataclass(kw_only=True)
class Result:
    """A command's outcome: its problems, and why it did nothing when it refused."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Every problem found, sorted (`sort_diagnostics`)."""
    refused: str | None = None
    """Why the command did nothing, in one line; None when it ran."""

    @property
    def failed(self) -> bool:
        return self.refused is not None or any(d.failing for d in self.diagnostics)

"""What a command hands back: one `Result` carrying what it found, its `diagnostics` and,
when it did nothing, why (`refused`), as check-jsonschema's `CheckResult` does: a shell
prints one value and decides one exit code.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostic import Diagnostic


@dataclass(kw_only=True)
class Result:
    """A command's outcome: its problems, and why it did nothing when it refused."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    """Every problem found, sorted (`sort_diagnostics`); notices are `info`."""
    refused: str | None = None
    """Why the command did nothing, in one line (`bump needs a register set without
    errors: fix them first`); None when it ran."""

    @property
    def failed(self) -> bool:
        """Whether the command refused or found an error."""
        return self.refused is not None or any(d.failing for d in self.diagnostics)

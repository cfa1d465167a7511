"""`register matrix` and what the Matrix page reads: the register set read across its
subjects, concept by concept."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model.registers import RegisterSet
from ..model.results import Result
from ..views import matrix as view
from .loading import check_at, project_paths, verify_at


@dataclass
class Matrixed(Result):
    """What `register matrix` found: the matrix, the set it was read from, every problem."""

    matrix: view.Matrix
    registers: RegisterSet

    @property
    def data(self) -> dict[str, Any]:
        """The matrix as plain data: `register matrix --format json`."""
        return view.matrix_data(self.matrix)


def matrix(
    root: Path,
    *,
    verify: bool = False,
    since: view.SinceOf | None = None,
    environ: Mapping[str, str] | None = None,
) -> Matrixed:
    """`register matrix`: one row per concept, one column per subject. With `verify`, each
    citation is verified first (`register verify`'s checkouts) and a cell resting on a
    stale one says so; `since` dates each cell (the registers' history)."""
    environ = os.environ if environ is None else environ
    paths = project_paths(root, environ)
    if not verify:
        checked = check_at(paths, environ=environ)
        shown = view.matrix(checked.registers, since=since)
        return Matrixed(shown, checked.registers, diagnostics=checked.diagnostics)
    verified = verify_at(paths, environ=environ)
    outcomes = {o.citation.key: o.outcome for o in verified.outcomes}
    shown = view.matrix(verified.registers, outcomes, since)
    return Matrixed(shown, verified.registers, diagnostics=verified.diagnostics)

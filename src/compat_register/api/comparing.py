"""`register matrix`, and what the Matrix page reads: the register set read across its
subjects, concept by concept."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..history import repository, since
from ..history.repository import Commit
from ..model.registers import RegisterSet
from ..model.results import Result
from ..storage.settings import DEFAULTS, Settings
from ..views import conceptmatrix as view
from .loading import Verified, check, project_paths, verify_citations
from .measuring import recorded


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
    dated: bool = False,
    settings: Settings = DEFAULTS,
) -> Matrixed:
    """`register matrix`: one row per concept, one column per subject; with `verify`, a
    cell on a stale citation says so; `since` (or `dated`: the git history) dates each."""
    paths = project_paths(root, settings)
    read = verify_citations(paths, settings=settings) if verify else check(paths, settings)
    outcomes = None
    if isinstance(read, Verified):
        outcomes = {o.citation.key: o.outcome for o in read.outcomes}
    hook = since or (since_of(root, read.registers, paths.history_cache) if dated else None)
    shown = view.matrix(read.registers, outcomes, hook, records=recorded(paths).records)
    return Matrixed(shown, read.registers, diagnostics=read.diagnostics)


def since_of(
    root: Path, registers: RegisterSet, cache: Path | None, commits: list[Commit] | None = None
) -> view.SinceOf | None:
    """The matrix's since-when hook from the registers' history (`commits` when already
    read); None outside a git repository or when git fails."""
    try:
        if commits is None:
            commits = repository.read_history(root, cache).commits
        found = since.since_when(root, registers, commits)
    except repository.HistoryError:
        return None
    return lambda entry: found[entry.id].data() if entry.id in found else None

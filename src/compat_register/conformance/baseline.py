"""An expected-failures baseline's YAML text (empty, or `server:` and `client:` lists of
scenario names) -> a `Baseline`, through the project's own YAML loader. Pure."""

from __future__ import annotations

from ..model.diagnostic import Diagnostic
from ..model.positions import Path_, Where
from ..reading.document import Document, LoadError
from ..reading.loader import parse
from .runs import MODES, Baseline, Listed
from .suite import located_problem


def read_baseline(text: str, file: str) -> tuple[Baseline | None, list[Diagnostic]]:
    """The baseline in `text`; None and the located problems when it is not what the suite
    reads."""
    try:
        doc = parse(text, file, frozenset())
    except LoadError as err:
        if err.code == "empty-file":  # the suite reads an empty file as no expected failures
            return Baseline(file, ()), []
        where = Where(file, err.mark.line, err.mark.col)
        return None, [located_problem(where, err.code, err.message)]
    if not isinstance(doc.data, dict):
        return None, [_shape(doc, (), "expected a mapping with 'server' and/or 'client' keys")]
    problems = [
        _shape(doc, (key,), f"unknown key '{key}': a baseline has 'server' and 'client'", True)
        for key in doc.data
        if key not in MODES
    ]
    listed: list[Listed] = []
    for mode in MODES:
        listed.extend(_listed(doc, mode, problems))
    return (None, problems) if problems else (Baseline(file, tuple(listed)), [])


def _listed(doc: Document, mode: str, problems: list[Diagnostic]) -> list[Listed]:
    if mode not in doc.data:
        return []
    names = doc.data[mode]
    if not isinstance(names, list):
        problems.append(_shape(doc, (mode,), f"'{mode}' must be a list of scenario names"))
        return []
    found = []
    for index, name in enumerate(names):
        if not isinstance(name, str) or not name:
            problems.append(_shape(doc, (mode, index), "a scenario name is a non-empty string"))
            continue
        mark = doc.mark((mode, index))
        found.append(Listed(mode, name, Where(doc.file, mark.line, mark.col)))
    return found


def _shape(doc: Document, path: Path_, message: str, at_key: bool = False) -> Diagnostic:
    mark = doc.key_mark(path) if at_key else doc.mark(path)
    return located_problem(Where(doc.file, mark.line, mark.col), "baseline-shape", message)

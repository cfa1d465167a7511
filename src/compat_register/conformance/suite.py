"""The suite's files -> values: a results folder's name and its checks.json (a `Run`), an
expected-failures baseline's YAML (a `Baseline`: empty, or `server:` and `client:` lists of
scenario names). Pure."""

from __future__ import annotations

import re

from ..model.diagnostic import Diagnostic
from ..model.positions import Path_, Where
from ..reading.document import Document, LoadError
from ..reading.loader import parse as parse_yaml
from ..reading.tolerant import value_at
from .jsontext import JsonProblem, Parsed, parse
from .runs import MODES, STATUSES, Baseline, Check, Listed, Run, SpecReference

_STAMPED = re.compile(
    r"(?P<name>.+)-(?P<date>\d{4}-\d\d-\d\d)T(?P<h>\d\d)-(?P<m>\d\d)-(?P<s>\d\d)-(?P<ms>\d{3})Z"
)
SERVER_PREFIX = "server-"

CHECK_TEXTS = {
    "name": "name",
    "description": "description",
    "timestamp": "timestamp",
    "errorMessage": "error",
}
"""A check's optional string fields: the suite's key -> `Check`'s attribute."""


def scenario_of(folder: str) -> tuple[str, str, str | None]:
    """(mode, scenario, ISO timestamp or None) of a results folder's path
    (`server-tools-list-2026-10-02T09-14-03-512Z`, `auth/basic-dcr-...`); a folder not named
    as the suite names it is a client scenario's name."""
    head, _, last = folder.rpartition("/")
    match = _STAMPED.fullmatch(last)
    timestamp = None
    if match:
        last = match["name"]
        timestamp = f"{match['date']}T{match['h']}:{match['m']}:{match['s']}.{match['ms']}Z"
    name = f"{head}/{last}" if head else last
    if name.startswith(SERVER_PREFIX) and "/" not in name:
        return "server", name.removeprefix(SERVER_PREFIX), timestamp
    return "client", name, timestamp


def read_run(text: str, file: str, folder: str) -> tuple[Run | None, list[Diagnostic]]:
    """The run in checks.json `text`; None and the located problems when it is not what
    the suite writes."""
    try:
        parsed = parse(text, file)
    except JsonProblem as err:
        return None, [located_problem(err.where, "results-json", err.message)]
    problems: list[Diagnostic] = []
    checks = read_checks(parsed, (), problems, "results-shape")
    if problems or checks is None:
        return None, problems
    mode, scenario, timestamp = scenario_of(folder)
    return Run(mode, scenario, timestamp, file, checks, Where(file, 1, 1)), []


def read_checks(
    parsed: Parsed, path: Path_, problems: list[Diagnostic], code: str
) -> tuple[Check, ...] | None:
    """The checks of the array at `path` (checks.json's top, or a record's run); problems,
    with `code`, added to `problems`."""
    items = value_at(parsed.data, path)
    if not isinstance(items, list):
        message = "expected an array of checks, as the suite writes"
        problems.append(shape(parsed, path, message, code))
        return None
    found = [read_check(parsed, (*path, index), problems, code) for index in range(len(items))]
    return tuple(check for check in found if check is not None)


def read_check(parsed: Parsed, path: Path_, problems: list[Diagnostic], code: str) -> Check | None:
    item = value_at(parsed.data, path)
    if not isinstance(item, dict):
        message = "a check is an object with an id and a status"
        problems.append(shape(parsed, path, message, code))
        return None
    count = len(problems)
    check_id, status = item.get("id"), item.get("status")
    if not isinstance(check_id, str) or not check_id:
        problems.append(shape(parsed, (*path, "id"), "a check's id is a non-empty string", code))
    if status not in STATUSES:
        message = f"status {status!r}: not one of {', '.join(STATUSES)}"
        problems.append(shape(parsed, (*path, "status"), message, code))
    for key in CHECK_TEXTS:
        if not isinstance(item.get(key), str | None):
            problems.append(shape(parsed, (*path, key), f"a check's {key} is a string", code))
    references = read_references(parsed, (*path, "specReferences"), problems, code)
    if len(problems) > count:
        return None
    texts = {attribute: item.get(key) for key, attribute in CHECK_TEXTS.items()}
    where = parsed.at(path)
    return Check(str(check_id), str(status), **texts, spec_references=references, where=where)


def read_references(
    parsed: Parsed, path: Path_, problems: list[Diagnostic], code: str
) -> tuple[SpecReference, ...]:
    items = value_at(parsed.data, path)
    if items is None:
        return ()
    if not isinstance(items, list):
        problems.append(shape(parsed, path, "specReferences is an array of {id, url}", code))
        return ()
    found = []
    for index, item in enumerate(items):
        ok = isinstance(item, dict) and isinstance(item.get("id"), str)
        if not ok or not isinstance(item.get("url"), str | None):
            problems.append(shape(parsed, (*path, index), "a spec reference is {id, url}", code))
            continue
        found.append(SpecReference(item["id"], item.get("url")))
    return tuple(found)


def shape(parsed: Parsed, path: Path_, message: str, code: str) -> Diagnostic:
    return located_problem(parsed.at(path), code, message)


def located_problem(where: Where, code: str, message: str) -> Diagnostic:
    stem = where.file.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return Diagnostic.at(where, id=stem, code=code, message=message)


def read_baseline(text: str, file: str) -> tuple[Baseline | None, list[Diagnostic]]:
    """The baseline in `text`; None and the located problems when the suite would not read it."""
    try:
        doc = parse_yaml(text, file, frozenset())
    except LoadError as err:
        if err.code == "empty-file":  # the suite reads an empty file as no expected failures
            return Baseline(file, ()), []
        where = Where(file, err.mark.line, err.mark.col)
        return None, [located_problem(where, err.code, err.message)]
    if not isinstance(doc.data, dict):
        return None, [_wrong(doc, (), "expected a mapping with 'server' and/or 'client' keys")]
    problems = [
        _wrong(doc, (key,), f"unknown key '{key}': a baseline has 'server' and 'client'", True)
        for key in doc.data
        if key not in MODES
    ]
    listed = [item for mode in MODES for item in _listed(doc, mode, problems)]
    return (None, problems) if problems else (Baseline(file, tuple(listed)), [])


def _listed(doc: Document, mode: str, problems: list[Diagnostic]) -> list[Listed]:
    if mode not in doc.data:
        return []
    names = doc.data[mode]
    if not isinstance(names, list):
        problems.append(_wrong(doc, (mode,), f"'{mode}' must be a list of scenario names"))
        return []
    found = []
    for index, name in enumerate(names):
        if not isinstance(name, str) or not name:
            problems.append(_wrong(doc, (mode, index), "a scenario name is a non-empty string"))
            continue
        found.append(Listed(mode, name, doc.where((mode, index))))
    return found


def _wrong(doc: Document, path: Path_, message: str, at_key: bool = False) -> Diagnostic:
    return located_problem(doc.where(path, at_key), "baseline-shape", message)

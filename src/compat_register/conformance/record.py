"""The suite's files and a subject's record -> values: a results folder's name and its
checks.json (a `Run`), an expected-failures baseline's YAML (a `Baseline`), and
`registers/conformance/<ALIAS>.json` (docs/conformance.md) <-> a `Record`; each check and
scenario read knowing its line. Pure."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable
from typing import Any

from ..model.diagnostic import Diagnostic
from ..model.positions import Path_, Where
from ..reading.document import Document, LoadError
from ..reading.folder import BesideFile
from ..reading.loader import parse as parse_yaml
from ..reading.tolerant import value_at
from .jsontext import JsonProblem, Parsed, parse
from .runs import MODES, STATUSES, Baseline, Check, Listed, Record, Run, SpecReference

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


FORMAT = 1


def record_text(record: Record) -> str:
    """The record as its file holds it: two-space JSON, one key per line, a final newline."""
    data = {
        "format": FORMAT,
        "subject": record.subject,
        "commit": record.commit,
        "baseline": _baseline_data(record.baseline),
        "runs": [_run_data(run) for run in record.runs],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _baseline_data(baseline: Baseline | None) -> dict[str, Any] | None:
    if baseline is None:
        return None
    return {"file": baseline.file, **{mode: baseline.scenarios(mode) for mode in MODES}}


def _run_data(run: Run) -> dict[str, Any]:
    revision = {} if run.revision is None else {"revision": run.revision}
    return {
        **revision,
        "mode": run.mode,
        "scenario": run.scenario,
        "timestamp": run.timestamp,
        "file": run.file,
        "checks": [check_data(check) for check in run.checks],
    }


def check_data(check: Check) -> dict[str, Any]:
    """A check as the suite writes it, but for its free `details` and `logs`."""
    data: dict[str, Any] = {"id": check.id, "status": check.status}
    for key, attribute in CHECK_TEXTS.items():
        if (value := getattr(check, attribute)) is not None:
            data[key] = value
    if check.spec_references:
        data["specReferences"] = [
            {"id": ref.id, **({"url": ref.url} if ref.url is not None else {})}
            for ref in check.spec_references
        ]
    return data


def read_record(
    text: str, file: str, revisions: Collection[str] | None = None
) -> tuple[Record | None, list[Diagnostic]]:
    """The record in `text`; None and the located problems when it is not what `register
    conformance import` writes, or a run's revision is not one of `revisions` (None: any)."""
    try:
        parsed = parse(text, file)
    except JsonProblem as err:
        return None, [located_problem(err.where, "conformance-record", err.message)]
    data = parsed.data
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None, [_shape(parsed, ("format",), f"expected a record of format {FORMAT}")]
    problems: list[Diagnostic] = []
    subject, commit = (_string(parsed, (key,), problems) for key in ("subject", "commit"))
    baseline = _baseline(parsed, problems)
    runs = _runs(parsed, problems, revisions)
    if problems or subject is None or commit is None:
        return None, problems
    return Record(subject, commit, runs, baseline, file), []


def _string(parsed: Parsed, path: Path_, problems: list[Diagnostic]) -> str | None:
    value = value_at(parsed.data, path)
    if isinstance(value, str) and value:
        return value
    problems.append(_shape(parsed, path, f"'{path[-1]}' is a non-empty string"))
    return None


def _baseline(parsed: Parsed, problems: list[Diagnostic]) -> Baseline | None:
    data = parsed.data.get("baseline")
    if data is None:
        return None
    file = _string(parsed, ("baseline", "file"), problems)
    listed: list[Listed] = []
    for mode in MODES:
        names = value_at(data, (mode,))
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            problems.append(_shape(parsed, ("baseline", mode), f"'{mode}' lists scenario names"))
            continue
        listed.extend(
            Listed(mode, name, parsed.at(("baseline", mode, n))) for n, name in enumerate(names)
        )
    return Baseline(file or "", tuple(listed))


def _runs(
    parsed: Parsed, problems: list[Diagnostic], revisions: Collection[str] | None
) -> tuple[Run, ...]:
    runs = parsed.data.get("runs")
    if not isinstance(runs, list):
        problems.append(_shape(parsed, ("runs",), "'runs' is an array of runs"))
        return ()
    found = []
    for index in range(len(runs)):
        path: Path_ = ("runs", index)
        mode = value_at(parsed.data, (*path, "mode"))
        if mode not in MODES:
            problems.append(_shape(parsed, (*path, "mode"), "a run's mode is server or client"))
        scenario = _string(parsed, (*path, "scenario"), problems)
        file = _string(parsed, (*path, "file"), problems)
        timestamp = value_at(parsed.data, (*path, "timestamp"))
        if timestamp is not None and not isinstance(timestamp, str):
            problems.append(_shape(parsed, (*path, "timestamp"), "a timestamp is a string"))
        checks = read_checks(parsed, (*path, "checks"), problems, "conformance-record")
        revision = _revision(parsed, (*path, "revision"), problems, revisions)
        if scenario and file and checks is not None and mode in MODES:
            found.append(Run(mode, scenario, timestamp, file, checks, parsed.at(path), revision))
    return tuple(found)


def _revision(
    parsed: Parsed, path: Path_, problems: list[Diagnostic], revisions: Collection[str] | None
) -> str | None:
    """A run's optional `revision`: a string, one of `revisions` when they are known."""
    value = value_at(parsed.data, path)
    if value is None or (isinstance(value, str) and (revisions is None or value in revisions)):
        return value
    known = ", ".join(revisions or ()) or "none"
    said = f"'{value}' is not" if isinstance(value, str) else "it is not"
    message = f"a run's revision is one of sources.yaml's revisions ({known}): {said}"
    problems.append(_shape(parsed, path, message))
    return None


def _shape(parsed: Parsed, path: Path_, message: str) -> Diagnostic:
    return shape(parsed, path, message, "conformance-record")


def records_of(
    texts: Iterable[BesideFile], revisions: Collection[str] | None = None
) -> tuple[dict[str, Record], list[Diagnostic]]:
    """Subject alias -> its record; the problems of those that do not read back (or whose
    `subject` is not their file's name)."""
    records: dict[str, Record] = {}
    problems: list[Diagnostic] = []
    for found in texts:
        top = Where(found.file, 1, 1)
        if found.text is None:
            problems.append(
                located_problem(top, "conformance-record", found.problem or "unreadable")
            )
            continue
        record, trouble = read_record(found.text, found.file, revisions)
        problems.extend(trouble)
        if record is None:
            continue
        if record.subject != found.alias:
            message = f"the record of '{record.subject}' is in the file of '{found.alias}'"
            problems.append(located_problem(top, "conformance-record", message))
            continue
        records[found.alias] = record
    return records, problems

"""A subject's record, `registers/conformance/<ALIAS>.json` (docs/conformance.md): a
`Record` <-> its text, each check and baseline scenario read back knowing its line. Pure."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from typing import Any

from ..model.diagnostic import Diagnostic
from ..model.positions import Path_, Where
from ..reading.folder import FileText
from ..reading.tolerant import value_at
from .jsontext import JsonProblem, Parsed, parse
from .runs import MODES, Baseline, Check, Listed, Record, Run
from .suite import CHECK_TEXTS, located_problem, read_checks, shape

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
    """The record in `text`; None and the located problems when it is not what
    `register conformance import` writes, or a run's revision is not one of `revisions`
    (sources.yaml's; None: any)."""
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
        places = (parsed.at(("baseline", mode, index)) for index in range(len(names)))
        listed.extend(Listed(mode, name, where) for name, where in zip(names, places, strict=True))
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
    problems.append(
        _shape(
            parsed, path, f"a run's revision is one of sources.yaml's revisions ({known}): {said}"
        )
    )
    return None


def _shape(parsed: Parsed, path: Path_, message: str) -> Diagnostic:
    return shape(parsed, path, message, "conformance-record")


def records_of(
    texts: Iterable[FileText], revisions: Collection[str] | None = None
) -> tuple[dict[str, Record], list[Diagnostic]]:
    """Subject alias -> its record; the problems of those that do not read back (or whose
    `subject` is not their file's name, or a run's revision not one of `revisions`)."""
    records: dict[str, Record] = {}
    problems: list[Diagnostic] = []
    for found in texts:
        top = Where(found.file, 1, 1)
        if found.text is None:
            said = found.problem or "unreadable"
            problems.append(located_problem(top, "conformance-record", said))
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

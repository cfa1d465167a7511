"""`register conformance import`'s report: text and JSON. Pure."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..conformance.record import check_data
from ..conformance.runs import STATUSES, Record, Run
from .report import counted


def import_text(record: Record, file: str, older: list[Run]) -> str:
    """What was recorded, a line per run with its checks' statuses (`3 checks: 2 SUCCESS, 1
    FAILURE`, in the suite's order); the baseline's scenarios; the runs left out."""
    lines = [
        f"recorded {counted(len(record.runs), 'run')} of {record.subject} at "
        f"{record.commit[:12]} in {file}"
    ]
    for run in record.runs:
        when = f" at {run.timestamp}" if run.timestamp else ""
        wire = f"{run.revision} " if run.revision else ""
        counts = Counter(check.status for check in run.checks)
        parts = [f"{counts[status]} {status}" for status in STATUSES if counts[status]]
        statuses = counted(len(run.checks), "check") + (f": {', '.join(parts)}" if parts else "")
        lines.append(f"  {wire}{run.mode} {run.scenario}{when}: {statuses}")
    if record.baseline is not None:
        count = counted(len(record.baseline.listed), "expected failure")
        lines.append(f"baseline {record.baseline.file}: {count}")
    for run in older:
        lines.append(f"left out an older run of {run.mode} {run.scenario}: {run.file}")
    return "\n".join(lines)


def import_data(record: Record, file: str, older: list[Run]) -> dict[str, Any]:
    """The same as JSON data: the record's place and runs, each with its checks."""
    baseline = record.baseline
    return {
        "file": file,
        "subject": record.subject,
        "commit": record.commit,
        "runs": [_run_data(run) for run in record.runs],
        "baseline": None
        if baseline is None
        else {
            "file": baseline.file,
            "server": baseline.scenarios("server"),
            "client": baseline.scenarios("client"),
        },
        "older": [run.file for run in older],
    }


def _run_data(run: Run) -> dict[str, Any]:
    return {
        "revision": run.revision,
        "mode": run.mode,
        "scenario": run.scenario,
        "timestamp": run.timestamp,
        "file": run.file,
        "failed": run.failed,
        "checks": [check_data(check) for check in run.checks],
    }

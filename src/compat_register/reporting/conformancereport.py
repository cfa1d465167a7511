"""`register conformance import`'s report (text and JSON) and `register conformance
score`'s: the scores as plain data (the JSON, the Scores page's too), and as text and
Markdown from that data. Pure."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..citations.quoting import code_span
from ..conformance.record import check_data
from ..conformance.runs import STATUSES, Record, Run
from ..conformance.scores import FAILED, NOT_RUN, PASSED, Score, SepRate
from ..model import display
from .diffreport import md
from .report import counted

UNKNOWN_WIRE = "runs at an unknown wire: imported without --revision"


def score_data(scores: list[Score], seps: dict[str, list[SepRate]]) -> dict[str, Any]:
    """Each subject's scores, revision by revision, and its SEPs' pass rates."""
    subjects: dict[str, dict[str, Any]] = {
        subject: {"subject": subject, "revisions": [], "seps": [_sep(r) for r in rates]}
        for subject, rates in seps.items()
    }
    for found in scores:
        subjects[found.subject]["revisions"].append(_score(found))
    return {"subjects": list(subjects.values())}


def _score(found: Score) -> dict[str, Any]:
    return {
        "revision": found.revision,
        "legs": list(found.legs),
        "rate": found.rate,
        "tier": found.tier,
        "scored": len(found.scored),
        "passed": found.count(PASSED),
        "failed": found.count(FAILED),
        "not_run": found.count(NOT_RUN),
        "wire_known": found.wire_known,
        "scenarios": [
            {"scenario": s.scenario, "mode": s.mode, "outcome": s.outcome} for s in found.scored
        ],
        "not_scored": [
            {
                "scenario": item.scenario,
                "mode": item.mode,
                "reason": item.reason,
                "note": item.note,
                "outcome": outcome,
            }
            for item, outcome in found.not_scored
        ],
    }


def _sep(rate: SepRate) -> dict[str, Any]:
    return {
        "sep": rate.sep,
        "checks": len(rate.checks),
        "passed": rate.passed,
        "failed": rate.failed,
        "not_run": rate.not_run,
        "rate": rate.rate,
    }


def percent(rate: float | None) -> str:
    """`87.5 %`, or `-` where nothing was judged."""
    return "-" if rate is None else f"{rate * 100:.1f} %"


def _tier(tier: int | None) -> str:
    return "none" if tier is None else f"Tier {tier}"


def _legs(legs: list[str]) -> str:
    return " and ".join(legs) if legs else "no run"


def score_text(data: dict[str, Any]) -> str:
    """A block per subject: a line per revision, its not-scored scenarios, then its SEPs."""
    lines: list[str] = []
    for subject in data["subjects"]:
        lines.append(display.line(subject["subject"]))
        for row in subject["revisions"]:
            unknown = "" if row["wire_known"] else f"; {UNKNOWN_WIRE}"
            lines.append(
                f"  {display.line(row['revision'])}: {percent(row['rate'])}, "
                f"{_tier(row['tier'])} ({row['passed']} of {row['scored']} scored "
                f"scenarios passed, {row['failed']} failed, {row['not_run']} not run; "
                f"{_legs(row['legs'])}){unknown}"
            )
            lines += [
                f"    not scored: {display.line(item['scenario'])} ({item['mode']}, "
                f"{display.line(item['reason'])}): {item['outcome']}"
                for item in row["not_scored"]
            ]
        lines += [
            f"  SEP-{sep['sep']}: {percent(sep['rate'])} ({sep['passed']} of "
            f"{counted(sep['checks'], 'check')} passed, {sep['failed']} failed, "
            f"{sep['not_run']} not run)"
            for sep in subject["seps"]
        ]
    return "\n".join(lines) if lines else "no subject has recorded results"


def score_markdown(data: dict[str, Any], names: dict[str, str], marker: str = "") -> str:
    """A section per subject (headed by its source's title): a table of its revisions, each
    one's not-scored scenarios, a table of its SEPs; `marker` is a line before each table
    (the site's phone layout)."""
    lines: list[str] = []
    before = [marker, ""] if marker else []
    for subject in data["subjects"]:
        title = md(names.get(subject["subject"], subject["subject"]))
        lines += [f"## {title}", "", *before, *_revisions_markdown(subject["revisions"])]
        for row in subject["revisions"]:
            if row["not_scored"]:
                lines += ["", f"Not scored for {md(row['revision'])}:", ""]
            for item in row["not_scored"]:
                note = f" ({md(item['note'])})" if item["note"] else ""
                said = f"{md(item['reason'])}{note}; {item['outcome']}"
                lines.append(f"- {code_span(item['scenario'])} ({item['mode']}): {said}")
        lines += ["", *before, *_seps_markdown(subject["seps"]), ""]
    return "\n".join(lines) if lines else "No subject has recorded results.\n"


def _revisions_markdown(rows: list[dict[str, Any]]) -> list[str]:
    head = "| Revision | Pass rate | Tier | Passed | Failed | Not run | Scored |"
    lines = [head, "|---|---:|---|---:|---:|---:|---|"]
    for row in rows:
        lines.append(
            f"| {md(row['revision'])} | {percent(row['rate'])} | {_tier(row['tier'])} "
            f"| {row['passed']} | {row['failed']} | {row['not_run']} "
            f"| {row['scored']} ({md(_legs(row['legs']))}) |"
        )
    if unknown := [md(row["revision"]) for row in rows if not row["wire_known"]]:
        lines += ["", f"Scored from {UNKNOWN_WIRE} ({', '.join(unknown)})."]
    return lines


def _seps_markdown(seps: list[dict[str, Any]]) -> list[str]:
    if not seps:
        return ["No SEP of the suite names a check."]
    lines = [
        "| SEP | Pass rate | Passed | Failed | Not run | Checks |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    lines += [
        f"| SEP-{sep['sep']} | {percent(sep['rate'])} | {sep['passed']} | {sep['failed']} "
        f"| {sep['not_run']} | {sep['checks']} |"
        for sep in seps
    ]
    return lines


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

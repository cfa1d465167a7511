"""`register coverage`'s report: counts per revision and file, then the statements to look
at, by name; or JSON-ready data (pure)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict
from typing import Any

from ..conformance.join import Joined, StatementCheck
from ..coverage.sitecoverage import cited_as
from ..coverage.states import Coverage, Row, counts_text, tally
from ..model import display
from ..model.notation import lines_text
from ..model.registers import Sources


def name(row: Row, sources: Sources) -> str:
    """A statement by name, ready to paste as a citation: `PATH:LINES KEYWORD text`."""
    s = row.statement
    path = cited_as(row.source, s.path, sources)
    return display.line(f"{path}:{lines_text(s.line, s.end)} {s.keyword} {s.text}")


def text_report(
    coverage: Coverage,
    revisions: Sequence[str],
    sources: Sources,
    new_only: bool = False,
    joined: Joined | None = None,
) -> str:
    """Per revision: its counts, each file's, its uncovered statements and the cited ones
    it rewords, and with `joined` the statements the suite's checks are aligned with;
    `new_only`: only the statements it added or changed."""
    blocks = [
        _revision_text(coverage, r, sources, new_only)
        + (_checks_text(shown_rows(coverage, r, new_only), joined, sources) if joined else "")
        for r in revisions
    ]
    return "\n\n".join(blocks)


def _checks_text(rows: Iterable[Row], joined: Joined, sources: Sources) -> str:
    """`  checks (N statements):`, then each statement the suite's checks are aligned with,
    a line per check: the check (its SEP, when excluded), the suite's status and why, each
    subject's latest result."""
    aligned = [row for row in rows if joined.of(row)]
    lines = [f"\n  checks ({len(aligned)} statements):"] if aligned else []
    for row in aligned:
        lines.append(f"    {name(row, sources)}")
        for check in joined.of(row):
            held = check.requirement
            status = f"{held.status}: {held.reason}" if held.reason else held.status
            results = [f"{r.subject} {r.status or 'not run'}" for r in check.results]
            said = "; ".join([f"{held.check or f'SEP-{held.sep}'} {status}", *results])
            lines.append(display.line(f"      {said}"))
    return "\n".join(lines)


def _revision_text(coverage: Coverage, revision: str, sources: Sources, new_only: bool) -> str:
    rows = shown_rows(coverage, revision, new_only)
    scope = " (new or changed)" if new_only else ""
    lines = [f"{revision}{scope}: {counts_text(tally(rows))}"]
    files: dict[str, list[Row]] = {}
    for row in rows:
        files.setdefault(row.statement.path, []).append(row)
    lines += [f"  {path}: {counts_text(tally(found))}" for path, found in files.items()]
    if uncovered := [row for row in rows if row.state == "uncovered"]:
        lines.append(f"  uncovered ({len(uncovered)}):")
        lines.extend(f"    {name(row, sources)}" for row in uncovered)
    if look := [(row, row.was) for row in rows if row.was is not None and row.was.needs_a_look]:
        lines.append(f"  cited in the revision before, reworded here ({len(look)}; needs a look):")
        for row, was in look:
            old = cited_as(was.source, was.statement.path, sources)
            where = f"{old}:{lines_text(was.statement.line, was.statement.end)}"
            by = ", ".join(was.entries)
            lines.append(f"    {name(row, sources)} (was {where}, cited by {by})")
    return "\n".join(lines)


def shown_rows(coverage: Coverage, revision: str, new_only: bool) -> list[Row]:
    """A revision's rows, only those new or changed with `new_only`."""
    rows = coverage.of(revision)
    return [r for r in rows if r.change.kind != "same"] if new_only else rows


def json_report(
    coverage: Coverage,
    revisions: Sequence[str],
    new_only: bool = False,
    joined: Joined | None = None,
) -> dict[str, Any]:
    """`{"summary": {REVISION: counts}, "statements": [...], "reworded": [...]}`, each
    statement with the suite's checks `joined` with it."""
    rows = [row for r in revisions for row in shown_rows(coverage, r, new_only)]
    summary = {r: tally(shown_rows(coverage, r, new_only)) for r in revisions}
    reworded = [
        {**_place(row), "entries": row.was.entries, "was": _place(row.was)}
        for row in rows
        if row.was is not None and row.was.needs_a_look
    ]
    statements = [row_data(r, joined.of(r) if joined else ()) for r in rows]
    return {"summary": summary, "statements": statements, "reworded": reworded}


def row_data(row: Row, checks: Iterable[StatementCheck] = ()) -> dict[str, Any]:
    """One statement as `register coverage --format json` lists it, with its checks."""
    s = row.statement
    return {
        **_place(row),
        "end": s.end,
        "keyword": s.keyword,
        "text": s.text,
        "heading": s.heading,
        "state": row.state,
        "entries": list(row.entries),
        "reason": row.reason,
        "change": row.change.kind,
        "checks": [check_data(check) for check in checks],
    }


def check_data(check: StatementCheck) -> dict[str, Any]:
    """A requirement aligned with a statement: its check, the suite's status and why, how
    it is aligned, each subject's latest result."""
    requirement = check.requirement
    return {
        "check": requirement.check,
        "sep": requirement.sep,
        "status": requirement.status,
        "reason": requirement.reason,
        "alignment": check.how,
        "results": [asdict(result) for result in check.results],
    }


def _place(row: Row) -> dict[str, Any]:
    s = row.statement
    return {"revision": row.revision, "source": row.source, "path": s.path, "line": s.line}

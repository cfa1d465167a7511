"""The reporter: diagnostics and command results as text, GitHub annotations or JSON
strings; `cli` prints them and decides the exit code."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, astuple, replace
from itertools import groupby
from typing import TYPE_CHECKING

from ..model import display
from ..model.diagnostic import Diagnostic
from ..model.notation import lines_text
from . import export

if TYPE_CHECKING:
    from ..following.follow import Followed
    from ..importing.plan import Planned
    from ..model.positions import Where
    from ..rewriting.bump import Bump
    from ..sources.cite import Cited, Hits
    from ..verifying.verify import Outcome, Preview

FORMATS = ("text", "github", "json")
SHORTEST_RUN = 3
"""Two alike warnings read well enough as two lines."""


def as_github(d: Diagnostic) -> str:
    """A GitHub Actions workflow command that annotates the line in a pull request (escape
    sequences shown, as GitHub's log is a terminal too; `info` is GitHub's `notice`)."""
    message = github_message(display.lines(f"{d.id}: {d.message}"))
    file = github_property(display.lines(d.file))
    command = "notice" if d.severity == "info" else d.severity
    return f"::{command} file={file},line={d.line},col={d.col}::{message}"


def github_message(text: str) -> str:
    """A workflow command's message: GitHub reserves %, CR and LF there."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """A property value (`file=`): as a message, and `:` and `,` as GitHub's toolkit does."""
    return github_message(text).replace(":", "%3A").replace(",", "%2C")


def shown(text: str) -> str:
    """Text for a terminal: an escape sequence or bidi control shown, never obeyed."""
    return display.lines(text)


def shown_line(text: str) -> str:
    """`shown`, on one line whatever the text holds."""
    return display.line(text)


def log_line(d: Diagnostic) -> str:
    """A diagnostic as a site build logs it (its level says the severity): one line."""
    return display.line(f"{d.file}:{d.line}:{d.col}: {d.id}: {d.message}")


def dumps(data: object) -> str:
    """JSON for a report: indented, Unicode kept, no control character left raw."""
    return display.json_text(json.dumps(data, ensure_ascii=False, indent=2))


def count(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    severities = Counter(d.severity for d in diagnostics)
    return {"errors": severities["error"], "warnings": severities["warning"]}


def format_report(
    diagnostics: list[Diagnostic],
    fmt: str,
    summary: dict[str, int] | None = None,
    extra: dict[str, object] | None = None,
    verbose: bool = False,
) -> str:
    """Diagnostics as `text`, `github` or `json`, the summary last; a run of alike warnings
    one line (`collapse_runs`) unless `verbose`."""
    if fmt == "json":
        summed = {**(summary or {}), **count(diagnostics)}
        body = {"summary": summed, "diagnostics": [asdict(d) for d in diagnostics]}
        return dumps({**body, **(extra or {})})
    kept = diagnostics if verbose else collapse_runs(diagnostics)
    lines = [as_github(d) if fmt == "github" else d.as_text() for d in kept]
    return "\n".join([*lines, summary_line(diagnostics, summary)])


def collapse_runs(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Each run of `SHORTEST_RUN` or more alike warnings (800 citations of a new entry
    without a review stamp) as its first, saying how many more follow."""
    kept: list[Diagnostic] = []
    for key, group in groupby(diagnostics, _run_key):
        run = list(group)
        if key is None or len(run) < SHORTEST_RUN:
            kept.extend(run)
        else:
            said = f" (and {len(run) - 1} more like it on {run[0].id}: --verbose lists them)"
            kept.append(replace(run[0], message=run[0].message + said))
    return kept


def _run_key(d: Diagnostic) -> tuple[str, ...] | None:
    """What warnings alike share: kind, entry, and their message but its first word (the
    citation it is about); None for an error or a notice, which never collapse."""
    if d.severity != "warning":
        return None
    return d.file, d.id, d.code, d.message.partition(" ")[2]


def summary_line(diagnostics: list[Diagnostic], summary: dict[str, int] | None) -> str:
    """One closing line: `4 citations: 2 ok, ..., 2 unstamped` when verified; errors, warnings."""
    counts = dict(summary or {})
    total = counts.pop("citations", None)
    head = f"{counted(total, 'citation')}: " if total is not None else ""
    totals = {**counts, **count(diagnostics)}
    return head + ", ".join(f"{value} {name}" for name, value in totals.items())


def exit_code(diagnostics: list[Diagnostic], strict: bool) -> int:
    """0 clean, 1 problems (errors; warnings too under --strict; a notice never)."""
    warned = strict and any(d.severity == "warning" for d in diagnostics)
    return 1 if warned or any(d.failing for d in diagnostics) else 0


def _at(where: Where | Diagnostic) -> str:
    return f"{where.file}:{where.line}:{where.col}"


def preview_text(preview: Preview) -> str:
    """The closing lines of `verify --against`: the citations the move makes stale."""
    label = f"{preview.alias} {preview.rev} ({preview.commit[:7]})"
    stale = counted(len(preview.stale), "register citation")
    lines = [f"against {label}: this change makes {stale} stale"]
    for o in preview.stale:
        lines.append(f"  {_at(o.citation.where)}: {o.citation.entry}: {o.message}")
    return "\n".join(display.line(line) for line in lines)


def bump_report(result: Bump, dry_run: bool, fmt: str) -> str:
    """The report of a bump: every citation that did not stay as it was, then the counts."""
    if fmt == "json":
        return dumps(export.bump_data(result, dry_run))
    lines = [f"{result.alias}: {result.old[:12]} -> {result.new[:12]}"]
    lines += [f"renamed: {old} -> {new} at {sha[:12]}" for old, new, sha in result.renames()]
    moved = sorted(result.moved, key=lambda f: astuple(f.citation.where))
    lines += [followed_text(f, result.new) for f in moved]
    if flagged := result.flagged():
        lines.append(
            f"{counted(flagged, 'citation')} flagged: bump could not decide where their lines "
            "went (the candidates are named above); none was moved onto them"
        )
    n = result.counts()
    lines.append(
        f"{n['carried']} carried over, {n['re-anchored']} re-anchored, "
        f"{n['changed']} changed, {n['gone']} gone"
    )
    files = ", ".join(result.files) or "nothing"
    lines.append(f"would write {files} (dry run)" if dry_run else f"wrote {files}")
    return "\n".join(lines)


def followed_text(followed: Followed, new: str = "") -> str:
    """`FILE:LINE:COL: KIND: ID: PATH:LINES -> NEW: why`, pointing at the citation; a
    flagged one names its first five candidates (with a commit other than the new pin)."""
    c = followed.citation
    line = f"{_at(c.where)}: {followed.kind}: {c.entry}: {c.repo_path}:{c.lines_text}"
    if followed.lines is not None:
        lines = lines_text(*followed.lines)
        line += f" -> {lines}" if followed.path == c.repo_path else f" -> {followed.path}:{lines}"
    note = followed.note
    if followed.flags:
        found = followed.candidates
        first = [
            f"{p}:{lines_text(a, b)}" + ("" if sha == new else f" at {sha[:12]}")
            for p, a, b, sha in found[:5]
        ]
        more = f" and {len(found) - 5} more" if len(found) > 5 else ""
        named = f": candidates {', '.join(first)}{more}" if first else ""
        note += f" [flagged {', '.join(followed.flags)}{named}]"
    if followed.kind == "changed":
        return display.line(f"{line}: {note}; read them, then register stamp {c.entry}")
    return display.line(f"{line}: {note}" if note else line)


def refused_text(outcome: Outcome) -> str:
    """The line of a citation `register stamp` could not stamp."""
    c = outcome.citation
    said = f"not stamped ({outcome.outcome}): {outcome.message}"
    return display.line(f"{_at(c.where)}: error: {c.entry}: {said}")


def stamped_text(stamped: list[Outcome], written: bool) -> str:
    """`stamped N citations of M entries; citations.lock written|unchanged`."""
    entries = counted(len({o.citation.entry for o in stamped}), "entry")
    lock = "citations.lock " + ("written" if written else "unchanged")
    return f"stamped {counted(len(stamped), 'citation')} of {entries}; {lock}"


def import_report(
    planned: list[Planned], diagnostics: list[Diagnostic], written: bool, fmt: str
) -> str:
    """What `register import` made of each page: text lines or one JSON object."""
    if fmt == "json":
        extra = {"registers": [_planned_data(p) for p in planned], "written": written}
        return format_report(diagnostics, "json", extra=extra)
    lines = [d.as_text() for d in diagnostics]
    if any(d.failing for d in diagnostics):
        return "\n".join([*lines, f"nothing written: {summary_line(diagnostics, None)}"])
    for page in planned:
        states = counted(len(page.imported.cues), "state")
        entries = counted(len(page.imported.data["entries"]), "entry")
        lines.append(f"{page.page} -> {page.file}: {entries}, {states} from the page")
        for found in page.unstated:
            said = display.shortened(page.imported.unstated.get(found.id, ""), 72)
            lines.append(f"  {_at(found)}: {found.id}: needs a state; the page says: “{said}”")
    todo = sum(len(p.unstated) for p in planned)
    verb = "wrote" if written else "would write (--dry-run)"
    done = f"{verb} {counted(len(planned), 'register file')}"
    if todo:
        done += f"; {counted(todo, 'entry')} need a state (above): register check fails until given"
    return "\n".join([*lines, done])


def _planned_data(page: Planned) -> dict[str, object]:
    unstated = page.imported.unstated
    return {
        "page": page.page,
        "file": page.file,
        "entries": len(page.imported.data["entries"]),
        "states": page.imported.cues,
        "unstated": [
            {"id": d.id, "file": d.file, "line": d.line, "col": d.col, "subject": unstated[d.id]}
            for d in page.unstated
        ],
    }


def _cited_data(cited: Cited) -> dict[str, object]:
    return {
        "citation": cited.text,
        "yaml": cited.yaml,
        "source": cited.source,
        "path": cited.path,
        "lines": [cited.start, cited.end],
        "quote": cited.quote,
    }


def cite_report(cited: Cited, fmt: str) -> str:
    """`register cite ALIAS:PATH:LINE`: the citation as a YAML scalar, or one JSON object."""
    return dumps(_cited_data(cited)) if fmt == "json" else cited.yaml


def grep_report(hits: Hits, alias: str, needle: str, fmt: str) -> str:
    """`register cite ALIAS --grep TEXT`: a citation a line and a count, or one JSON object."""
    if fmt == "json":
        body = {
            "citations": [_cited_data(c) for c in hits.cited],
            "shown": len(hits.cited),
            "total": hits.total,
            "files": hits.files,
            "searched": hits.searched,
        }
        return dumps(body)
    searched = f"{counted(hits.searched, 'claimed file')} of {alias}"
    if not hits.total:
        return f"no line holds {needle!r} in {searched}"
    summary = f"{len(hits.cited)} of {counted(hits.total, 'hit')} in {counted(hits.files, 'file')}"
    more = "; --limit N shows more" if hits.total > len(hits.cited) else ""
    return "\n".join([*(c.yaml for c in hits.cited), f"{summary} ({searched}){more}"])


def counted(number: int, noun: str) -> str:
    """`1 entry`, `2 entries`."""
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    return f"{number} {noun if number == 1 else plural}"

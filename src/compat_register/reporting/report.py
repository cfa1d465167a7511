"""The reporter: diagnostics and command results as text, GitHub annotations or JSON
strings; `cli` prints them and decides the exit code."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, astuple, replace
from typing import TYPE_CHECKING

from ..model import display
from ..model.diagnostic import Diagnostic
from ..model.notation import lines_text
from . import export

if TYPE_CHECKING:
    from ..following.follow import Followed
    from ..importing.plan import Planned
    from ..rewriting.bump import Bump
    from ..sources.cite import Cited, Hits
    from ..verifying.verify import Outcome, Preview

FORMATS = ("text", "github", "json")


def as_github(diagnostic: Diagnostic) -> str:
    """A GitHub Actions workflow command that annotates the line in a pull request."""
    d = diagnostic
    # Escape sequences shown (GitHub's log is a terminal too), line feeds left to GitHub's.
    message = github_message(display.lines(f"{d.id}: {d.message}"))
    file = github_property(display.lines(d.file))
    command = "notice" if d.severity == "info" else d.severity  # GitHub's name for info
    return f"::{command} file={file},line={d.line},col={d.col}::{message}"


def github_message(text: str) -> str:
    """A workflow command's message: GitHub reserves %, CR and LF there."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def github_property(text: str) -> str:
    """A workflow command's property value (`file=`): as a message, and `:` and `,` too
    (as GitHub's own toolkit escapes them)."""
    return github_message(text).replace(":", "%3A").replace(",", "%2C")


def shown(text: str) -> str:
    """Text for a terminal: an escape sequence or bidi control shown, never obeyed."""
    return display.lines(text)


def shown_line(text: str) -> str:
    """`shown`, on one line whatever the text holds."""
    return display.line(text)


def log_line(diagnostic: Diagnostic) -> str:
    """A diagnostic as a site build logs it (its level says the severity): one line."""
    d = diagnostic
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
        body: dict[str, object] = {
            "summary": {**(summary or {}), **count(diagnostics)},
            "diagnostics": [asdict(d) for d in diagnostics],
        }
        body.update(extra or {})
        return dumps(body)
    shown = diagnostics if verbose else collapse_runs(diagnostics)
    lines = [as_github(d) if fmt == "github" else d.as_text() for d in shown]
    lines.append(summary_line(diagnostics, summary))
    return "\n".join(lines)


def collapse_runs(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Each run of `SHORTEST_RUN` or more warnings alike (800 citations of a new entry
    without a review stamp) as its first, saying how many more follow."""
    shown: list[Diagnostic] = []
    start = 0
    while start < len(diagnostics):
        end = start + 1
        while end < len(diagnostics) and _alike(diagnostics[start], diagnostics[end]):
            end += 1
        first, more = diagnostics[start], end - start - 1
        if more + 1 < SHORTEST_RUN:
            shown.extend(diagnostics[start:end])
        else:
            said = f" (and {more} more like it on {first.id}: --verbose lists them)"
            shown.append(replace(first, message=first.message + said))
        start = end
    return shown


SHORTEST_RUN = 3
"""Two alike warnings read well enough as two lines."""


def _alike(one: Diagnostic, other: Diagnostic) -> bool:
    """Warnings of one kind on one entry, saying the same but for what they start with (the
    citation they are about)."""
    return (
        one.severity == other.severity == "warning"
        and (one.file, one.id, one.code) == (other.file, other.id, other.code)
        and one.message.partition(" ")[2] == other.message.partition(" ")[2]
    )


def summary_line(diagnostics: list[Diagnostic], summary: dict[str, int] | None) -> str:
    """One closing line: `4 citations: 2 ok, ..., 2 unstamped` when verified; errors, warnings."""
    counts = dict(summary or {})
    total = counts.pop("citations", None)
    head = f"{counted(total, 'citation')}: " if total is not None else ""
    totals = {**counts, **count(diagnostics)}
    return head + ", ".join(f"{value} {name}" for name, value in totals.items())


def exit_code(diagnostics: list[Diagnostic], strict: bool) -> int:
    """0 clean, 1 problems (errors; warnings too under --strict; a notice never)."""
    if any(d.failing for d in diagnostics):
        return 1
    return 1 if strict and any(d.severity == "warning" for d in diagnostics) else 0


def preview_text(preview: Preview) -> str:
    """The closing lines of `verify --against`: the citations the move makes stale."""
    label = f"{preview.alias} {preview.rev} ({preview.commit[:7]})"
    stale = counted(len(preview.stale), "register citation")
    lines = [f"against {label}: this change makes {stale} stale"]
    for outcome in preview.stale:
        c = outcome.citation
        lines.append(f"  {c.where.file}:{c.where.line}:{c.where.col}: {c.entry}: {outcome.message}")
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
    counts = result.counts()
    lines.append(
        f"{counts['carried']} carried over, {counts['re-anchored']} re-anchored, "
        f"{counts['changed']} changed, {counts['gone']} gone"
    )
    files = ", ".join(result.files) or "nothing"
    lines.append(f"would write {files} (dry run)" if dry_run else f"wrote {files}")
    return "\n".join(lines)


def followed_text(followed: Followed, new: str = "") -> str:
    """`FILE:LINE:COL: KIND: ID: PATH:LINES -> NEW: why`, pointing at the citation."""
    c = followed.citation
    line = f"{c.where.file}:{c.where.line}:{c.where.col}: {followed.kind}: {c.entry}: "
    line += f"{c.repo_path}:{c.lines_text}"
    if followed.lines is not None:
        lines = lines_text(*followed.lines)
        line += f" -> {lines}" if followed.path == c.repo_path else f" -> {followed.path}:{lines}"
    note = followed.note + _candidates(followed, new)
    if followed.kind == "changed":
        return display.line(f"{line}: {note}; read them, then register stamp {c.entry}")
    return display.line(f"{line}: {note}" if note else line)


def _candidates(followed: Followed, new: str) -> str:
    """` [flagged ambiguous: candidates a.go:3, b.go:7-9 at 1a2b3c4]` (a commit other than
    the new pin named), or '' when not flagged."""
    if not followed.flags:
        return ""
    shown = [
        f"{p}:{lines_text(a, b)}" + ("" if sha == new else f" at {sha[:12]}")
        for p, a, b, sha in followed.candidates[:5]
    ]
    more = f" and {len(followed.candidates) - 5} more" if len(followed.candidates) > 5 else ""
    named = f": candidates {', '.join(shown)}{more}" if shown else ""
    return f" [flagged {', '.join(followed.flags)}{named}]"


def refused_text(outcome: Outcome) -> str:
    """The line of a citation `register stamp` could not stamp."""
    c = outcome.citation
    where = f"{c.where.file}:{c.where.line}:{c.where.col}"
    return display.line(
        f"{where}: error: {c.entry}: not stamped ({outcome.outcome}): {outcome.message}"
    )


def stamped_text(stamped: list[Outcome], written: bool) -> str:
    """`stamped N citations of M entries; citations.lock written|unchanged`."""
    entries = len({o.citation.entry for o in stamped})
    lock = "citations.lock " + ("written" if written else "unchanged")
    return f"stamped {counted(len(stamped), 'citation')} of {counted(entries, 'entry')}; {lock}"


def import_report(
    planned: list[Planned], diagnostics: list[Diagnostic], written: bool, fmt: str
) -> str:
    """What `register import` made of each page: text lines or one JSON object."""
    if fmt == "json":
        extra = {"registers": [_planned_data(p) for p in planned], "written": written}
        return format_report(diagnostics, "json", extra=extra)
    lines = [d.as_text() for d in diagnostics]
    if any(d.failing for d in diagnostics):
        lines.append(f"nothing written: {summary_line(diagnostics, None)}")
        return "\n".join(lines)
    for page in planned:
        lines.extend(_planned_lines(page))
    todo = sum(len(p.unstated) for p in planned)
    verb = "wrote" if written else "would write (--dry-run)"
    done = f"{verb} {counted(len(planned), 'register file')}"
    if todo:
        done += f"; {counted(todo, 'entry')} need a state (above): register check fails until given"
    lines.append(done)
    return "\n".join(lines)


def _planned_lines(page: Planned) -> list[str]:
    states = counted(len(page.imported.cues), "state")
    entries = counted(len(page.imported.data["entries"]), "entry")
    lines = [f"{page.page} -> {page.file}: {entries}, {states} from the page"]
    for found in page.unstated:
        said = display.shortened(page.imported.unstated.get(found.id, ""), 72)
        where = f"{found.file}:{found.line}:{found.col}"
        lines.append(f"  {where}: {found.id}: needs a state; the page says: “{said}”")
    return lines


def _planned_data(page: Planned) -> dict[str, object]:
    return {
        "page": page.page,
        "file": page.file,
        "entries": len(page.imported.data["entries"]),
        "states": page.imported.cues,
        "unstated": [
            {
                "id": d.id,
                "file": d.file,
                "line": d.line,
                "col": d.col,
                "subject": page.imported.unstated[d.id],
            }
            for d in page.unstated
        ],
    }


def cited_data(cited: Cited) -> dict[str, object]:
    """One citation of `register cite` as JSON-ready data."""
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
    return dumps(cited_data(cited)) if fmt == "json" else cited.yaml


def grep_report(hits: Hits, alias: str, needle: str, fmt: str) -> str:
    """`register cite ALIAS --grep TEXT`: a citation a line and a count, or one JSON object."""
    if fmt == "json":
        body = {
            "citations": [cited_data(c) for c in hits.cited],
            "shown": len(hits.cited),
            "total": hits.total,
            "files": hits.files,
            "searched": hits.searched,
        }
        return dumps(body)
    searched = f"{counted(hits.searched, 'claimed file')} of {alias}"
    if not hits.total:
        return f"no line holds {needle!r} in {searched}"
    lines = [c.yaml for c in hits.cited]
    summary = f"{len(hits.cited)} of {counted(hits.total, 'hit')} in {counted(hits.files, 'file')}"
    more = "; --limit N shows more" if hits.total > len(hits.cited) else ""
    lines.append(f"{summary} ({searched}){more}")
    return "\n".join(lines)


def counted(number: int, noun: str) -> str:
    """`1 entry`, `2 entries`."""
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    return f"{number} {noun if number == 1 else plural}"

"""A register as a plain Markdown page in the hand-written shape, no HTML: it reads in a
forge's file view, and `register import` reads it back. Pure.
"""

from __future__ import annotations

from ..citations.quoting import code_span
from ..model.registers import Entry, Register, Revisions
from ..model.vocabulary import state_word


def plain_page(register: Register, commit: str, legend: str | None = None) -> str:
    """The page of `register`, its subject pinned at `commit` (shown abbreviated, as by
    hand: import compares it with sources.yaml's pin); `legend` names the legend page."""
    commit = commit[:7]
    lines = [f"# {register.title}", ""]
    lines.extend(_header(register))
    lines.append(f"file: {register.slug}.yaml")  # import keeps the register's name
    if register.summary:
        lines.extend(["", *register.summary.split("\n")])
    status = f"Status column: {register.subject} @ {commit}."
    lines.extend(["", f"{status} Legend and citation conventions: {legend}." if legend else status])
    for entry in register.entries:
        lines.extend(["", f"## {entry.id} {entry.title}", ""])
        lines.extend(_entry(entry, f"{register.subject} @ {commit}", register.subject))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _header(register: Register) -> list[str]:
    fields = [
        ("created", register.created),
        ("last-updated", register.last_updated),
        ("increment", str(register.increment)),
        ("status", register.status),
        ("tags", ", ".join(register.tags)),
        ("description", register.description),
    ]
    return [line for key, value in fields if value for line in _bulleted(f"{key}: ", value)]


def _entry(entry: Entry, subject: str, alias: str) -> list[str]:
    state = state_word(entry.status.key)
    status = f"{state}. {entry.status.note}" if entry.status.note else f"{state}."
    value = entry.value.key + (f": {entry.value.note}" if entry.value.note else ".")
    effort = entry.effort.key + (f" — {entry.effort.note}" if entry.effort.note else ".")
    fields: list[tuple[str, str | None]] = [
        ("What", entry.what),
        ("Where", entry.where_text),
        (subject, status if entry.status.key else entry.status.note),
        (f"Value to {alias}", f"+ {value}"),
        ("Effort", effort),
        ("Risk", entry.risk),
        ("Detail", entry.detail),
        *((note.title, note.text) for note in entry.notes),
        ("Tags", ", ".join(entry.tags)),
        ("Revisions", _revisions(entry.revisions)),
        ("Sources", "; ".join(code_span(c.text) for c in entry.citations) + "."),
    ]
    return [line for label, text in fields if text for line in _bulleted(f"- **{label}.** ", text)]


def _revisions(revisions: Revisions) -> str:
    """`added 2024-11-05; changed 2025-06-18, 2025-11-25; removed 2026-07-28.`"""
    parts = [f"added {revisions.added}"] if revisions.added else []
    if revisions.changed:
        parts.append(f"changed {', '.join(revisions.changed)}")
    if revisions.removed:
        parts.append(f"removed {revisions.removed}")
    return "; ".join(parts) + "." if parts else ""


def _bulleted(first: str, text: str) -> list[str]:
    """`text` after `first`, its later lines indented two spaces (blank lines left blank)."""
    head, *rest = text.split("\n")
    return [first + head, *("  " + line if line else "" for line in rest)]

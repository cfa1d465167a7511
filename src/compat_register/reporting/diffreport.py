"""`register diff`'s three outputs: text lines, Markdown for a pull request, JSON data."""

from __future__ import annotations

import re
from typing import Any

from ..citations.quoting import code_span
from ..history.diffing import Diff, Field, diff_data
from ..history.repository import WORKTREE, Compared
from ..history.timeline import ARROW, MARKDOWN, PLAIN, entry_phrases
from ..model import display


def side(rev: str) -> str:
    """A side of a diff as the reports name it: a short sha, or the working tree."""
    return "the working tree" if rev == WORKTREE else rev[:12]


def diff_json(compared: Compared) -> dict[str, Any]:
    """The JSON object of `register diff --format json`."""
    data = diff_data(compared.diff)
    del data["source_problems"]  # located below, with their file
    problems = [{**d.__dict__, "side": at} for at, d in compared.problems]
    return {"from": compared.old, "to": compared.new, **data, "problems": problems}


def diff_text(compared: Compared) -> str:
    """Plain lines: sources, registers, then each entry and what changed in it; a control
    character in a value (a forged line, a workflow command) shown escaped."""
    diff = compared.diff
    head = f"registers: {side(compared.old)}{ARROW}{side(compared.new)}"
    if diff.empty:
        return f"{head}: no changes"
    lines = [head]
    lines += [d.as_text() for _, d in compared.problems]
    lines += [PLAIN.source(s) for s in diff.sources]
    for register in diff.registers:
        if register.change == "unreadable":
            continue  # its problems are the lines above
        lines.append(f"register {register.register}: {register.change}")
        lines += [f"  {PLAIN.field(n, v)}" for n, v in register.fields.items()]
    for entry in diff.entries:
        lines.append(f"{entry.id} {entry.title} ({entry.register}): {entry.change}")
        lines += [f"  {PLAIN.field(n, v)}" for n, v in entry.fields.items()]
        lines += [f"  {line}" for line in PLAIN.citations(entry)]
    lines.append(summary_line(diff))
    return "\n".join(map(display.line, lines))  # a line break in a value stays on its line


def summary_line(diff: Diff) -> str:
    """`entries: 2 changed, 1 added; registers: 1 added; sources: 1 moved`."""
    parts = []
    for noun, changes in (
        ("entries", [e.change for e in diff.entries]),
        ("registers", [r.change for r in diff.registers]),
        ("sources", [s.change for s in diff.sources]),
    ):
        counts = {kind: changes.count(kind) for kind in dict.fromkeys(changes)}
        if counts:
            parts.append(f"{noun}: " + ", ".join(f"{n} {kind}" for kind, n in counts.items()))
    return "; ".join(parts) if parts else "no register changed"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~&])")
_MENTION = re.compile(r"@(?=\w)")
ZERO_WIDTH_SPACE = "\u200b"
"""Written after an `@` that a name follows: GitHub then notifies no one."""


def md(text: str) -> str:
    """Register text as literal Markdown on one line (a new line could start a heading or
    an HTML block), no `@` mentioning anyone: for a pull-request comment or a README."""
    escaped = _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.splitlines()))
    return _MENTION.sub("@" + ZERO_WIDTH_SPACE, escaped)


def diff_markdown(compared: Compared) -> str:
    """A pull-request comment: a heading, sources, then a list per register."""
    diff = compared.diff
    new = md(side(compared.new)) if compared.new == WORKTREE else code_span(side(compared.new))
    lines = [f"### Register changes: {code_span(side(compared.old))} → {new}", ""]
    if diff.empty:
        return "\n".join([*lines, "No changes to the registers."]) + "\n"
    lines += [f"> {md(d.as_text())}" for _, d in compared.problems]
    lines += [""] if compared.problems else []
    lines += [f"- {MARKDOWN.source(s)}" for s in diff.sources]
    lines += [""] if diff.sources else []
    names = [r.register for r in diff.registers] + [e.register for e in diff.entries]
    for register in dict.fromkeys(names):
        lines += _md_register(diff, register)
    lines.append(f"*{md(summary_line(diff))}*")
    return "\n".join(lines) + "\n"


def _md_register(diff: Diff, slug: str) -> list[str]:
    lines = [f"#### {md(slug)}", ""]
    for register in (r for r in diff.registers if r.register == slug):
        if register.change == "unreadable":
            lines.append("- the register file does not load (see above)")
        elif register.change == "changed":
            said = "; ".join(_md_field(n, v) for n, v in register.fields.items())
            lines.append(f"- header: {said}")
        else:
            lines.append(f"- register **{register.change}**")
    for entry in (e for e in diff.entries if e.register == slug):
        said = f"**{entry.change}**"
        if entry.change == "changed":
            said = "; ".join(entry_phrases(entry, _md_field))
        lines.append(f"- **{md(entry.id)}** {md(entry.title)}: {said}")
        lines += [f"    - {line}" for line in MARKDOWN.citations(entry, noun="")]
    return [*lines, ""]


def _md_field(name: str, value: Field) -> str:
    return MARKDOWN.field(md(name), value)

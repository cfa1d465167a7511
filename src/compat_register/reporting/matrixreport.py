"""`register matrix`: the concept x subject matrix as text and as Markdown (for READMEs),
from its plain data (`views.conceptmatrix.matrix_data`, which is also the JSON)."""

from __future__ import annotations

from typing import Any

from ..citations.quoting import code_span
from ..model import display
from .diffreport import md

NOT_RECORDED = "not recorded"


def _cell_text(cell: dict[str, Any]) -> str:
    """`done META-07`, `partial META-02 META-03`, `not recorded`; `(stale)` after a cell
    resting on a stale citation."""
    if not cell["entries"]:
        return NOT_RECORDED
    text = " ".join([cell["state"], *cell["entries"]])
    return text + " (stale)" if cell["stale"] else text


def matrix_text(data: dict[str, Any]) -> str:
    """A plain table: a line per concept (indented two spaces per parent above it), a column
    per subject, the done count; then the concepts nobody names."""
    subjects = data["subjects"]
    if not data["rows"]:
        return "no concepts: add registers/concepts.yaml and name one in an entry's `concept:`"
    table = [["concept", *subjects, "done"]] + [
        [
            "  " * row["depth"] + display.line(row["concept"]),  # a line break stays on its line
            *(display.line(_cell_text(row["cells"][subject])) for subject in subjects),
            f"{row['done']}/{len(subjects)}",
        ]
        for row in data["rows"]
    ]
    widths = [max(len(line[n]) for line in table) for n in range(len(table[0]))]
    lines = [
        "  ".join(text.ljust(width) for text, width in zip(line, widths, strict=True)).rstrip()
        for line in table
    ]
    if data["unnamed"]:
        lines += ["", "named by no entry: " + display.line(", ".join(data["unnamed"]))]
    return "\n".join(lines)


def matrix_markdown(data: dict[str, Any]) -> str:
    """A Markdown table for a README: concept, a column per subject (named as the site names
    it), done."""
    subjects, names, versions = data["subjects"], data["names"], data.get("versions", {})
    headers = [
        " ".join([md(names[s]), *([md(versions[s])] if s in versions else [])]) for s in subjects
    ]
    lines = [
        "| Concept | " + " | ".join(headers) + " | Done |",
        "|---|" + "---|" * len(subjects) + "---:|",
    ]
    for row in data["rows"]:
        title = "↳ " * row["depth"] + md(row["title"])
        cells = " | ".join(_cell_markdown(row["cells"][subject]) for subject in subjects)
        concept = code_span(row["concept"]).replace("|", "\\|")  # a table's cell ends at `|`
        lines.append(f"| {title} ({concept}) | {cells} | {row['done']}/{len(subjects)} |")
    if data["unnamed"]:
        named = ", ".join(code_span(concept) for concept in data["unnamed"])
        lines += ["", f"Named by no entry: {named}."]
    return "\n".join(lines) + "\n"


def _cell_markdown(cell: dict[str, Any]) -> str:
    if not cell["entries"]:
        return f"_{NOT_RECORDED}_"
    text = f"**{md(cell['state'])}** " + ", ".join(md(entry) for entry in cell["entries"])
    return text + " ⚠ stale" if cell["stale"] else text

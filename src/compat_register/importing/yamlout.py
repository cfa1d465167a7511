"""Register data written as a register file in registers/meta.yaml's house style (pure).

Hand-written: PyYAML's emitter writes no comments and folds past its width, not before it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ..citations.quoting import one_line, plain_ok, single_quoted, yaml_scalar
from ..model.display import shortened
from ..model.vocabulary import RATED

LONGEST = 99
"""The longest line written (but a citation's, which stays on one line)."""
MODELINE = "# yaml-language-server: $schema=../docs/schema/register.schema.json"
COMMENT_COLUMN = 33
"""Where the header's comments start (as in registers/meta.yaml)."""

_BREAK = re.compile(r"(?<=\S) (?=\S)")


def register_text(
    data: Mapping[str, Any],
    *,
    commit: str | None = None,
    unstated: Mapping[str, str] | None = None,
    cues: Mapping[str, str] | None = None,
) -> str:
    """The register file for `data`: `commit` in the `subject:` comment, `unstated` and
    `cues` (ID -> the page's words) in comments on each entry's state."""
    lines = [MODELINE]
    for key, value in data.items():
        if key == "entries":
            lines.append("entries:")
            for entry in value:
                lines.append("")
                lines.extend(_entry(entry, unstated or {}, cues or {}))
        else:
            lines.extend(_header_lines(key, value, commit))
    return "\n".join(lines) + "\n"


def _header_lines(key: str, value: Any, commit: str | None) -> list[str]:
    lines = _field(key, value, 0)
    where = f"{value} @ {commit}" if commit else str(value)
    comment = {
        "status": "# draft | standard | retired",
        "subject": f'# the Status column: "{where}" (sources.yaml)',
    }.get(key)
    if comment and len(lines) == 1:
        lines[0] = f"{lines[0]:<{COMMENT_COLUMN - 1}} {comment}"
    return lines


def _entry(
    entry: Mapping[str, Any], unstated: Mapping[str, str], cues: Mapping[str, str]
) -> list[str]:
    lines: list[str] = []
    for key, value in entry.items():
        if key == "status":
            lines.extend(_status(value, unstated.get(entry["id"]), cues.get(entry["id"])))
        elif key == "notes":
            lines.append("    notes:")
            for note in value:
                lines.extend(_item(_mapping(note, 8)))
        elif key == "sources":
            lines.append("    sources:")
            lines.extend(f"      - {yaml_scalar(c)}" for c in value)
        else:
            lines.extend(_field(key, value, 4))
    return _item(lines)


def _item(lines: list[str]) -> list[str]:
    """A mapping's lines made a sequence item: `- ` in the two columns before its first key."""
    first = lines[0]
    indent = len(first) - len(first.lstrip(" "))
    return [f"{first[: indent - 2]}- {first[indent:]}", *lines[1:]]


def _status(value: Mapping[str, Any], unstated: str | None, cue: str | None) -> list[str]:
    """An entry's status, the page's words about it in comments."""
    pad, inner = " " * 4, " " * 6
    lines = [f"{pad}status:" if value else f"{pad}status: {{}}"]
    if unstated is not None:
        said = ["# state: the page does not say; its subject bullet reads:"]
        said.extend(f"#   {line}" for line in _wrap(unstated, LONGEST - len(inner) - 4))
        if value:
            lines.extend(inner + line for line in said)
        else:
            lines[:0] = [pad + line for line in said]
    for key, item in value.items():
        field = _field(key, item, 6)
        if key == RATED["status"] and cue:
            field[0] += f"   # the page: {json.dumps(shortened(cue, 40), ensure_ascii=False)}"
        lines.extend(field)
    return lines


def _flow(value: Any) -> str | None:
    """`value` in flow style (`[2025-06-18, 2025-11-25]`, `{level: med, note: ...}`), or
    None when a scalar of it is not plain there."""
    if isinstance(value, list):
        texts = [str(item) for item in value]
        return f"[{', '.join(texts)}]" if all(plain_ok(t, flow=True) for t in texts) else None
    if isinstance(value, dict):
        items = {key: _flow(item) for key, item in value.items()}
        if any(text is None for text in items.values()):
            return None
        return f"{{{', '.join(f'{key}: {text}' for key, text in items.items())}}}"
    return str(value) if plain_ok(str(value), flow=True) else None


def _mapping(value: Mapping[str, Any], indent: int) -> list[str]:
    return [line for key, item in value.items() for line in _field(key, item, indent)]


def _field(key: str, value: Any, indent: int) -> list[str]:
    """`key: value` at `indent`, the value in the first style that holds it (see above)."""
    pad = " " * indent
    if isinstance(value, int):
        return [f"{pad}{key}: {value}"]
    if isinstance(value, list | dict):
        return _collection(key, value, indent)
    text = str(value)
    if plain_ok(text) and len(f"{pad}{key}: {text}") <= LONGEST:
        return [f"{pad}{key}: {text}"]
    if one_line(text) and len(f"{pad}{key}: {single_quoted(text)}") <= LONGEST:
        return [f"{pad}{key}: {single_quoted(text)}"]
    if foldable(text):
        return [f"{pad}{key}: >-", *folded(text, indent + 2)]
    return [f"{pad}{key}: {json.dumps(text, ensure_ascii=False)}"]


def _collection(key: str, value: list[Any] | dict[str, Any], indent: int) -> list[str]:
    """In flow style when that fits on the line, else in block style."""
    pad = " " * indent
    flow = _flow(value)
    if flow is not None and len(f"{pad}{key}: {flow}") <= LONGEST:
        return [f"{pad}{key}: {flow}"]
    if isinstance(value, dict):
        return [f"{pad}{key}:", *_mapping(value, indent + 2)]
    return [f"{pad}{key}:", *(f"{pad}  - {yaml_scalar(str(v))}" for v in value)]


def foldable(text: str) -> bool:
    """Whether a folded scalar (`>-`) holds `text` exactly (YAML keeps a line that starts
    or ends with white space unfolded)."""
    if not text or text[0] == "\n" or text[-1] == "\n":
        return False
    return all(
        line == "" or (line.isprintable() and line == line.strip()) for line in text.split("\n")
    )


def folded(text: str, indent: int) -> list[str]:
    """The lines of a folded scalar holding `text`: each line break a blank line."""
    pad = " " * indent
    lines: list[str] = []
    parts = text.split("\n")
    for number, part in enumerate(parts):
        if part:
            lines.extend(pad + line for line in _wrap(part, LONGEST - indent))
        if number < len(parts) - 1:
            lines.append("")
    return lines


def _wrap(text: str, width: int) -> list[str]:
    """`text` broken at single spaces into lines of at most `width` (or one long word)."""
    lines: list[str] = []
    line = ""
    for word in _BREAK.split(text):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines

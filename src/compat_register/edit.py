"""Byte-preserving edits of register files: only line numbers change, everything else stays.

Used by `register fix` (moved citations) and `register bump` (a moved pin). Each edit
replaces one `PATH:LINES` token (or a mapping's `lines` value) where it was written; the
result is parsed again before it is written, and written atomically, so a failed edit
leaves the old file intact.
"""

from __future__ import annotations

import codecs
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .loader import Document, LoadError, parse
from .models import Citation
from .schema import integer_keys


class EditError(Exception):
    """An edit that cannot be made safely; the file was left as it was."""


@dataclass(frozen=True)
class Change:
    """One rewritten citation."""

    file: str
    line: int
    col: int
    entry: str
    old: str
    new: str

    def as_text(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: fixed: {self.entry}: {self.old} -> {self.new}"


def lines_text(lines: tuple[int, int]) -> str:
    return str(lines[0]) if lines[0] == lines[1] else f"{lines[0]}-{lines[1]}"


def new_token(citation: Citation, lines: tuple[int, int]) -> str:
    """The token that replaces `citation.token` when its lines become `lines`."""
    if citation.field and citation.field[-1] == "lines":  # the mapping form's `lines:` value
        return lines_text(lines)
    return f"{citation.path}:{lines_text(lines)}"


def plan(
    doc: Document, moves: Iterable[tuple[Citation, tuple[int, int]]]
) -> list[tuple[int, Change]]:
    """Where each change goes in `doc.text` (character offset) and what it changes."""
    planned: dict[int, Change] = {}
    for citation, lines in moves:
        offset = doc.find(citation.field, citation.token, citation.occurrence)
        if offset is None:
            raise EditError(f"{doc.file}: cannot find {citation.token} where it was written")
        new = new_token(citation, lines)
        if new != citation.token:
            mark = doc.position(offset)
            planned[offset] = Change(
                doc.file, mark.line, mark.col, citation.entry, citation.token, new
            )
    return sorted(planned.items())


def rewrite(text: str, changes: list[tuple[int, Change]]) -> str:
    """`text` with each change applied at its offset (pure)."""
    pieces, position = [], 0
    for offset, change in changes:
        pieces.append(text[position:offset])
        pieces.append(change.new)
        position = offset + len(change.old)
    pieces.append(text[position:])
    return "".join(pieces)


def apply(
    documents: dict[str, Document], moves: Iterable[tuple[Citation, tuple[int, int]]]
) -> list[Change]:
    """Rewrite every file holding a moved citation; returns the changes made."""
    by_file: dict[str, list[tuple[Citation, tuple[int, int]]]] = {}
    for citation, lines in moves:
        by_file.setdefault(citation.where.file, []).append((citation, lines))
    made: list[Change] = []
    for file, file_moves in by_file.items():
        doc = documents[file]
        changes = plan(doc, file_moves)
        if changes:
            write_document(doc, rewrite(doc.text, changes))
            made.extend(change for _, change in changes)
    return made


def write_document(doc: Document, text: str) -> None:
    """Replace the file behind `doc` with `text`, keeping its BOM; refuses invalid YAML."""
    try:
        parse(text, doc.file, integer_keys())
    except LoadError as err:  # never write a file the loader would then reject
        raise EditError(f"{doc.file}: the edit would break the YAML ({err.message})") from None
    path = Path(doc.file)
    raw = path.read_bytes()
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    if raw[len(bom) :].decode("utf-8") != doc.text:
        raise EditError(f"{doc.file} changed since it was read; run the command again")
    write_atomic(path, bom + text.encode("utf-8"))


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new, never a mix."""
    mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

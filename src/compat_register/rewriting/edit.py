"""Byte-preserving edits of register files: only citation tokens (lines, paths) change.

Every new text is made in memory and read back (`readback.proves`, else parsed again), its
citations as planned; only then is anything written, all files or none (`write_texts`).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from ..model import display
from ..model.exclusions import Exclusions
from ..model.notation import lines_text
from ..model.positions import Path_
from ..model.registers import Citation, CitationKey, Register, RegisterSet
from ..reading.document import Document, LoadError
from ..reading.loader import parse
from ..reading.registerfile import build_exclusions, register_citations
from ..reading.schema import integer_keys
from ..storage.atomic import write_all
from ..storage.errors import EditError
from ..storage.journal import Journal
from ..storage.regular import MAX_BYTES, read_bytes
from . import readback
from .readback import Reading, reading


class Change(NamedTuple):
    """One rewritten token."""

    file: str
    line: int
    col: int
    entry: str
    old: str
    new: str

    def as_text(self) -> str:
        text = f"{self.file}:{self.line}:{self.col}: fixed: {self.entry}: {self.old} -> {self.new}"
        return display.line(text)


class Edit(NamedTuple):
    """Replace the `occurrence`-th `old` (counted as plain text) in the scalar at `field`."""

    field: Path_
    old: str
    new: str
    entry: str
    occurrence: int = 0


Planned = tuple[list[Edit], Reading]
"""The edits of one citation, and what it must read as once they are made."""


def move_lines(citation: Citation, lines: tuple[int, int], alias: str | None, path: str) -> Planned:
    """The edits that point `citation` at `lines` of `path` (`alias:` added if given)."""
    new = lines_text(*lines)
    if is_mapping(citation):
        edits = [Edit(citation.field, citation.token, new, citation.entry)]
        if path != citation.path:
            edits.append(Edit((*citation.field[:-1], "path"), citation.path, path, citation.entry))
    else:
        prefix = f"{alias}:" if alias and not citation.alias else ""
        edits = [Edit(citation.field, citation.token, f"{prefix}{path}:{new}", citation.entry)]
    return edits, (alias, path, *lines)


def is_mapping(citation: Citation) -> bool:
    """Whether a citation is in the mapping form (its token is the `lines:` value)."""
    return bool(citation.field) and citation.field[-1] == "lines"


def rewrite_set(
    registers: RegisterSet,
    documents: Mapping[str, Document],
    planned: Mapping[CitationKey, Planned],
) -> tuple[dict[str, tuple[str, str]], list[Change]]:
    """Every register file, and exclusions.yaml, that the planned edits change: `{file:
    (old text, new text)}`, and the changes, file by file."""
    by_file: dict[str, dict[CitationKey, Planned]] = {}
    for key, plan in planned.items():
        by_file.setdefault(key.file, {})[key] = plan
    files: dict[str, tuple[str, str]] = {}
    changes: list[Change] = []
    for part in (*registers.registers, registers.exclusions):
        if part is None or part.file not in by_file:
            continue  # nothing planned here: nothing changes
        doc = documents[part.file]
        if rewritten := _rewrite_file(doc, part, by_file[part.file]):
            files[doc.file] = (doc.text, rewritten[0])
            changes.extend(rewritten[1])
    return files, changes


def _rewrite_file(
    doc: Document, part: Register | Exclusions, planned: Mapping[CitationKey, Planned]
) -> tuple[str, list[Change]] | None:
    """The new text of one file with the planned edits of its citations made, and the
    changes; None when nothing changes. EditError when an edit cannot be placed or the text
    does not read back as planned (shown from the old parse where `readback.proves` can)."""
    citations = part.citations()
    # A citation's key is made on each look-up: only those in a planned field are looked up.
    planned_fields = {key.field for key in planned}
    plans = [
        (i, plan)
        for i, c in enumerate(citations)
        if c.field in planned_fields and (plan := planned.get(c.key)) is not None
    ]
    edits = [e for i, plan in plans for e in _located(citations[i], plan[0])]
    changes = plan_edits(doc, edits)
    if not changes:
        return None
    expected: list[Reading | None] = [None] * len(citations)  # None: reads as it did
    for i, plan in plans:
        expected[i] = plan[1]
    text = rewrite(doc.text, changes)
    if isinstance(part, Register):
        swaps = [(offset, change.old, change.new) for offset, change in changes]
        fields = [e.field for e in edits]
        if not readback.proves(doc, part.slug, swaps, fields, citations, expected):
            read_back(check_yaml(doc.file, text), part.slug, citations, expected)
    else:  # the cheap proof knows a register's walk, not exclusions.yaml's
        found = build_exclusions(check_yaml(doc.file, text), []).citations()
        same_readings(doc.file, citations, found, expected)
    return text, [change for _, change in changes]


def _located(citation: Citation, edits: list[Edit]) -> list[Edit]:
    """The edits, the token's at the citation's own occurrence."""
    return [
        Edit(e.field, e.old, e.new, e.entry, citation.occurrence if e.old == citation.token else 0)
        for e in edits
    ]


def read_back(
    doc: Document, slug: str, citations: list[Citation], expected: Sequence[Reading | None]
) -> None:
    """The full read-back of a rewritten register file (`doc`, parsed again): EditError
    unless its citations read as `expected` (None: as before), in number and order."""
    same_readings(doc.file, citations, register_citations(doc, slug, []), expected)


def same_readings(
    file: str, citations: list[Citation], found: list[Citation], expected: Sequence[Reading | None]
) -> None:
    """Refuse a rewrite of `file` whose citations (`found`) do not read as `expected`."""
    if len(found) != len(citations):
        raise EditError(f"{file}: the rewrite would change the number of citations")
    for old, new, want in zip(citations, found, expected, strict=True):
        if reading(new) != (reading(old) if want is None else want):
            raise EditError(f"{file}: rewriting {old.text} would not read back as planned")


def plan_edits(doc: Document, edits: Iterable[Edit]) -> list[tuple[int, Change]]:
    """Where each edit goes in `doc.text` (offset), in order; EditError for an edit whose
    text is not where it was read."""
    planned: dict[int, Change] = {}
    for edit in edits:
        offset = doc.find(edit.field, edit.old, edit.occurrence)
        if offset is None:
            raise EditError(f"{doc.file}: cannot find {edit.old} where it was written")
        if edit.new != edit.old:
            mark = doc.position(offset)
            planned[offset] = Change(doc.file, mark.line, mark.col, edit.entry, edit.old, edit.new)
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


def check_yaml(file: str, text: str) -> Document:
    """`text` loaded as a register document; raises EditError if it does not load."""
    try:
        return parse(text, file, integer_keys())
    except LoadError as err:  # never write a file the loader would then reject
        raise EditError(f"{file}: the edit would break the YAML ({err.message})") from None


def write_texts(files: Mapping[str, tuple[str, str]], journal: Journal | None = None) -> None:
    """Write each file's new text over its old one (`{name: (old, new)}`), all or none;
    EditError when a file no longer holds its old text or cannot be written."""
    try:
        write_all(
            [(Path(name), encoded(Path(name), old, new)) for name, (old, new) in files.items()],
            journal,
        )
    except OSError as err:
        where = err.filename or ", ".join(files)
        raise EditError(f"cannot write {where}: {err.strerror or err}") from None


def encoded(path: Path, old_text: str, new_text: str) -> bytes:
    """`new_text` as the bytes to write over `path`, which must still hold `old_text` (as
    decoded, line ends as they are); its byte order mark is kept, and CRLF when every line
    of it ends so (the lock is made anew with `\n`)."""
    raw = read_bytes(path, MAX_BYTES) if path.exists() else b""
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    on_disk = raw[len(bom) :].decode("utf-8", errors="replace")
    if on_disk != old_text:
        raise EditError(f"{path} changed since it was read; run the command again")
    if "\n" in on_disk and on_disk.count("\n") == on_disk.count("\r\n"):
        new_text = new_text.replace("\r\n", "\n").replace("\n", "\r\n")
    return bom + new_text.encode("utf-8")

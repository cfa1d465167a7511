"""What one prose field may cost and hide: bounded work, no hidden change of direction.

A field over `citations.bounds` is an error (the site would spend seconds, or minutes, on
it); a bidi control character (U+202A-U+202E, U+2066-U+2069, ...) is a warning: it makes
text read in another order than it is stored (CVE-2021-42574, "Trojan Source").
"""

from __future__ import annotations

from collections.abc import Iterator

from ..citations.bounds import over_bounds
from ..model.diagnostic import Diagnostic
from ..model.display import BIDI
from ..model.positions import Path_
from ..model.registers import Register, Where
from ..reading.document import Document

_BIDI = frozenset(BIDI)


def check_prose(register: Register, doc: Document) -> Iterator[Diagnostic]:
    """The bounds and bidi controls of every prose field of a register."""
    yield from _check_field(register.description, ("description",), register.slug, doc)
    for entry in register.entries:
        for path, text in entry.prose().items():
            yield from _check_field(text, (*entry.field, *path), entry.id, doc)


def _check_field(text: str | None, path: Path_, owner: str, doc: Document) -> Iterator[Diagnostic]:
    if not text:
        return
    problem = over_bounds(text)
    found = sorted(f"U+{ord(char):04X}" for char in _BIDI.intersection(text))
    if not problem and not found:
        return
    mark = doc.mark(path)
    where = Where(doc.file, mark.line, mark.col)
    if problem:
        yield Diagnostic.at(where, id=owner, code="prose-too-costly", message=problem)
    if found:
        message = (
            f"bidi control character {', '.join(found)} in prose: it makes the text read in "
            "another order than it is written; remove it"
        )
        yield Diagnostic.at(
            where, id=owner, code="bidi-control", message=message, severity="warning"
        )

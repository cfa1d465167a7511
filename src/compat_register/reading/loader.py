"""Load stage: a regular file's bytes (at most `MAX_FILE_BYTES`, UTF-8) -> a `Document` (data
and where each part was written, by `walker`), or one located problem (`advice`)."""

from __future__ import annotations

import errno
import re
from collections.abc import Sequence
from pathlib import Path

import yaml

from ..model.diagnostic import Diagnostic
from ..model.positions import Where
from ..storage import regular
from .advice import reader_error, syntax_error
from .document import Document, LoadError, Mark
from .walker import Composer, Walker, first_anchor_or_alias, tokens_before

_ODD_BREAKS = {
    "\x85": "next line character U+0085",
    "\u2028": "line separator U+2028",
    "\u2029": "paragraph separator U+2029",
}
"""Characters libyaml (YAML 1.1) reads as line breaks and YAML 1.2 tools as text."""
_ODD_BREAK = re.compile(f"[{''.join(_ODD_BREAKS)}]")

MAX_FILE_BYTES = 4 * 1024 * 1024
"""Larger files are refused: a register is hand-written, and a runaway generated one would
cost seconds on every `mkdocs serve` reload."""


def load_file(
    path: Path, display: str, integer_keys: frozenset[str], within: Sequence[Path] = ()
) -> Document | Diagnostic:
    """One file read and parsed, or its problem (never raised); a link leading out of
    `within` (when given) is refused."""
    raw = file_bytes(path, display, within)
    return raw if isinstance(raw, Diagnostic) else load_bytes(raw, display, integer_keys)


def file_bytes(path: Path, display: str, within: Sequence[Path] = ()) -> bytes | Diagnostic:
    """One file's bytes, or why it cannot be read: a regular file's only, at most the limit
    (it may grow after the size was asked); a device, FIFO or socket is refused unread."""
    try:
        size = path.stat().st_size
        if size <= MAX_FILE_BYTES:
            return regular.read_bytes(path, MAX_FILE_BYTES, within=within)
        message = (
            f"file is {size / 1024 / 1024:.1f} MB, over the {MAX_FILE_BYTES // 1024 // 1024} "
            "MB limit for one register file: split it"
        )
        error = LoadError(Mark(1, 1), "file-too-large", message)
    except regular.Refused as err:
        code = {errno.EFBIG: "file-too-large", errno.EXDEV: "link-outside"}.get(
            err.errno or 0, "not-a-file"
        )
        error = LoadError(Mark(1, 1), code, err.strerror or str(err))
    except OSError as err:
        message = f"cannot read file: {err.strerror or err}"
        error = LoadError(Mark(1, 1), "unreadable", message)
    return _located(display, error)


def load_bytes(raw: bytes, display: str, integer_keys: frozenset[str]) -> Document | Diagnostic:
    """A file's bytes parsed into a `Document`, or the located problem."""
    try:
        return parse(_decode(raw), display, integer_keys)
    except LoadError as err:
        return _located(display, err)


def _located(display: str, error: LoadError) -> Diagnostic:
    where = Where(display, error.mark.line, error.mark.col)
    return Diagnostic.at(where, id=Path(display).stem, code=error.code, message=error.message)


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        data: bytes = err.object  # after a byte order mark, offsets count from its end
        line = data.count(b"\n", 0, err.start) + 1
        before = data[data.rfind(b"\n", 0, err.start) + 1 : err.start]
        col = len(before.decode("utf-8")) + 1  # in characters, as editors count
        byte = data[err.start : err.start + 1].hex()
        message = f"not UTF-8: byte 0x{byte} cannot be decoded; save the file as UTF-8"
        raise LoadError(Mark(line, col, err.start), "not-utf8", message) from None


def parse(text: str, display: str, integer_keys: frozenset[str]) -> Document:
    """Parse YAML text into a `Document`; raises `LoadError` on any rejected construct."""
    doc = Document(display, text, None)
    odd = any(char in text for char in _ODD_BREAKS)
    walker = Walker(doc, integer_keys)
    composer = Composer(text)
    error: LoadError | None = None
    try:
        doc.data = walker.build(composer)
    except yaml.composer.ComposerError as err:  # an alias to no anchor, or an anchor twice
        error = first_anchor_or_alias(doc) or syntax_error(doc, err)
    except yaml.MarkedYAMLError as err:
        error = syntax_error(doc, err)
    except yaml.reader.ReaderError as err:
        error = reader_error(doc, err)
    except LoadError as err:
        error = err
    finally:
        composer.dispose()
    if odd:  # an odd line break before the error is its likely cause
        _reject_odd_breaks(doc, len(text) if error is None else error.mark.offset)
    if error is not None:
        raise error
    return doc


def _reject_odd_breaks(doc: Document, before: int) -> None:
    """Refuse U+0085, and U+2028 or U+2029 outside quotes, before `before`: libyaml ends a line
    there, YAML 1.2 and editors do not (quoted, both keep U+2028 and U+2029 as text)."""
    quoted = [
        (token.start_mark.index, token.end_mark.index)
        for token in tokens_before(doc.text, before)
        if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"')
    ]
    for found in _ODD_BREAK.finditer(doc.text, 0, before):
        index, char = found.start(), found.group()
        if char != "\x85" and any(start <= index < end for start, end in quoted):
            continue
        where = "in YAML" if char == "\x85" else "outside quotes"
        message = (
            f"{_ODD_BREAKS[char]} is not allowed {where}: "
            "YAML parsers disagree on whether it ends a line; remove it"
        )
        raise LoadError(doc.position(index), "odd-line-break", message)

"""The one reader of the registers folder: sources.yaml, register files and exclusions.yaml
(loaded and checked for shape), citations.lock's and conformance records' text."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ..model.diagnostic import Diagnostic
from ..model.exclusions import Exclusions
from ..model.positions import Path_
from ..model.registers import LinkPattern, Register, RegisterSet, Sources
from ..storage import regular
from ..storage.layout import (
    CONFORMANCE_SUFFIX,
    REGISTER_SUFFIX,
    SOURCES_FILE,
    Paths,
    is_register_file,
)
from . import readmemo, schema
from .document import Document
from .loader import file_bytes, load_bytes
from .registerfile import build_exclusions, build_register, build_sources
from .tolerant import value_at


@dataclass
class Loaded:
    """A registers folder loaded: its data, each file's document, the problems so far."""

    registers: RegisterSet
    documents: dict[str, Document] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def display_path(path: Path) -> str:
    """A path as users typed it: relative to the working directory when inside it (links not
    followed: a message names the link the user sees)."""
    try:
        return str(Path(os.path.abspath(path)).relative_to(os.getcwd()))
    except ValueError:
        return str(path)


def load(paths: Paths) -> Loaded:
    """Load sources.yaml and every register file of the registers folder."""
    diagnostics: list[Diagnostic] = []
    documents: dict[str, Document] = {}
    sources = read_sources(paths, documents, diagnostics)
    registers = list(read_registers(paths, documents, diagnostics, sources.links))
    return Loaded(RegisterSet(sources, registers), documents, diagnostics)


def read_sources(paths: Paths, documents: dict[str, Document], out: list[Diagnostic]) -> Sources:
    """The typed sources.yaml (empty when it does not load; `out` says why)."""
    doc = read_document(paths.sources, schema.SOURCES, documents, out, paths.inside)
    return build_sources(doc, out, display_path(paths.sources))


def read_exclusions(
    paths: Paths, documents: dict[str, Document], out: list[Diagnostic]
) -> Exclusions | None:
    """The exclusions; None without an exclusions.yaml, empty when it does not load."""
    path = paths.exclusions
    if not path.exists() and not path.is_symlink():
        return None
    doc = read_document(path, schema.EXCLUSIONS, documents, out, paths.inside)
    return Exclusions(display_path(path)) if doc is None else build_exclusions(doc, out)


def read_registers(
    paths: Paths,
    documents: dict[str, Document],
    out: list[Diagnostic],
    links: Sequence[LinkPattern] = (),
) -> Iterator[Register]:
    """Each register file that loads, typed (prose parsed with `links`); problems go to `out`,
    each file's `Document` to `documents`. Every file is parsed before any is built: the
    collector's full passes while parsing then walk a heap without the built citations."""
    out.extend(_not_read(paths.registers))
    reads = readmemo.Reads()
    files = []
    for path in _register_files(paths.registers):
        display = display_path(path)
        raw = file_bytes(path, display, paths.inside)
        parsed = None
        if not isinstance(raw, Diagnostic) and not reads.kept(display, raw, links):
            parsed = _parsed(raw, display, path.stem)
        files.append((path.stem, display, raw, parsed))
    for slug, display, raw, parsed in files:
        if isinstance(raw, Diagnostic):
            out.append(raw)
            continue
        read = reads.read(display, raw, links, partial(_register, parsed, slug, links))
        out.extend(read.diagnostics)
        if read.document is not None:
            documents[display] = read.document
        if read.register is not None:
            yield read.register
    reads.keep()


def _parsed(raw: bytes, display: str, slug: str) -> readmemo.FileRead:
    out: list[Diagnostic] = []
    return readmemo.FileRead(_document(raw, display, schema.REGISTER, slug, out), None, tuple(out))


def _register(
    parsed: readmemo.FileRead | None, slug: str, links: Sequence[LinkPattern]
) -> readmemo.FileRead:
    assert parsed is not None  # a file the last load kept is not built again
    out, doc = list(parsed.diagnostics), parsed.document
    register = None if doc is None else build_register(doc, slug, out, links)
    return readmemo.FileRead(doc, register, tuple(out))


def unloaded(paths: Paths, registers: RegisterSet, diagnostics: list[Diagnostic]) -> dict[str, str]:
    """slug -> file as messages name it, for each register file that did not load."""
    loaded = {register.slug for register in registers.registers}
    files = {path.stem: display_path(path) for path in _register_files(paths.registers)}
    failed = {d.file for d in diagnostics if d.severity == "error"}
    return {slug: file for slug, file in files.items() if slug not in loaded and file in failed}


def _register_files(root: Path) -> list[Path]:
    """Whatever under `root` is named like a register file, in name order (`file_bytes`
    reports a directory, a FIFO or a device without opening it)."""
    named = sorted(root.glob(f"*{REGISTER_SUFFIX}"))
    return [path for path in named if is_register_file(path.name)]


@dataclass(frozen=True)
class BesideFile:
    """citations.lock or a conformance record as read: its path as messages show it (`file`),
    its text with its line ends as they are (None when unreadable), or why not."""

    path: Path
    file: str
    text: str | None
    problem: str | None = None

    @property
    def alias(self) -> str:
        """A conformance record's subject: `conformance/ALIAS.json`."""
        return self.path.name.removesuffix(CONFORMANCE_SUFFIX)


def read_lock(paths: Paths) -> BesideFile | None:
    """The review stamps' file, None when there is none (stamps are then not checked)."""
    return _read_text(paths.lock, paths) if paths.lock.exists() else None


def _not_read(root: Path) -> list[Diagnostic]:
    """A warning for each `*.yml` file, which its author probably meant as a register."""
    return [
        Diagnostic.notice(
            display_path(path),
            id=path.stem,
            code="not-read",
            message=f"{path.name} is not read: register files end in .yaml",
            severity="warning",
        )
        for path in sorted(root.glob("*.yml"))
        if not path.name.startswith(".")
    ]


def read_document(
    path: Path,
    schema_name: str,
    documents: dict[str, Document],
    out: list[Diagnostic],
    within: Sequence[Path] = (),
) -> Document | None:
    """One YAML file, loaded and checked against its schema; None when it does not load.
    Problems go to `out`, the document to `documents` under its displayed path; a link out
    of `within` (`Paths.inside`) is refused, not read."""
    display = display_path(path)
    if path.name == SOURCES_FILE and not path.exists():
        message = f"{path.name} not found in {display_path(path.parent)}"
        raw: bytes | Diagnostic = Diagnostic.notice(
            display, id=path.stem, code="missing-file", message=message, severity="error"
        )
    else:
        raw = file_bytes(path, display, within)
    if isinstance(raw, Diagnostic):
        out.append(raw)
        return None
    doc = _document(raw, display, schema_name, path.stem, out)
    if doc is not None:
        documents[display] = doc
    return doc


def _document(
    raw: bytes, display: str, schema_name: str, stem: str, out: list[Diagnostic]
) -> Document | None:
    loaded = load_bytes(raw, display, schema.integer_keys())
    if isinstance(loaded, Diagnostic):
        out.append(loaded)
        return None
    out.extend(schema.validate(loaded, schema_name, owner_of(loaded, stem)))
    return loaded


def owner_of(doc: Document, stem: str) -> Any:
    """A function naming the ID a problem at a path belongs to: its entry's ID, or `stem`."""

    def owner(path: Path_) -> str:
        is_entry = len(path) > 1 and path[0] == "entries" and isinstance(path[1], int)
        entry_id = value_at(doc.data, (*path[:2], "id")) if is_entry else None
        return entry_id if isinstance(entry_id, str) and entry_id else stem

    return owner


def read_records(paths: Paths) -> list[BesideFile]:
    """Each subject's recorded results, by alias; none when `conformance/` does not exist."""
    folder = paths.conformance_dir
    if not folder.is_dir():
        return []
    return [
        _read_text(path, paths, "not UTF-8")
        for path in sorted(folder.glob(f"*{CONFORMANCE_SUFFIX}"))
        if not path.name.startswith(".")  # an editor's or a writer's own file beside it
    ]


def _read_text(path: Path, paths: Paths, undecoded: str | None = None) -> BesideFile:
    """A regular file's text in the project (a byte order mark dropped), or None and why not
    (`undecoded` when it is not UTF-8, else the decoder's words)."""
    try:
        raw = regular.read_bytes(path, regular.MAX_BYTES, within=paths.inside)
        return BesideFile(path, display_path(path), raw.decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else undecoded
        return BesideFile(path, display_path(path), None, f"cannot read: {reason or err}")

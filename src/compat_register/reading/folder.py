"""Reading a registers folder: sources.yaml, each register file (read and checked for
shape) and the review stamps' citations.lock (its text: `verifying.stamps` parses it).

The one module that reads the registers folder; `registerfile` makes the typed models. Which
files are registers, and every path, come from `storage.layout`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model.diagnostic import Diagnostic
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
from . import schema
from .document import Document
from .loader import load_file
from .registerfile import build_register
from .sourcesfile import build_sources


@dataclass
class Loaded:
    """The outcome of loading a registers directory: data, documents, problems so far."""

    registers: RegisterSet
    documents: dict[str, Document] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def display_path(path: Path) -> str:
    """A path as users typed it: relative to the working directory when inside it.

    Symbolic links are not followed: a message names the link the user sees in the folder.
    """
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


def read_registers(
    paths: Paths,
    documents: dict[str, Document],
    out: list[Diagnostic],
    links: Sequence[LinkPattern] = (),
) -> Iterator[Register]:
    """Each register file that loads, typed (its prose parsed with sources.yaml's `links`),
    as soon as it is built; problems go to `out` and each file's `Document` to `documents`."""
    out.extend(_not_read(paths.registers))
    for path in _register_files(paths.registers):
        doc = read_document(path, schema.REGISTER, documents, out, paths.inside)
        if doc is not None:
            yield build_register(doc, path.stem, out, links)


def unloaded(paths: Paths, registers: RegisterSet, diagnostics: list[Diagnostic]) -> dict[str, str]:
    """slug -> file as messages name it, for each register file that did not load (invalid
    YAML, not UTF-8, not a register's shape at the top)."""
    loaded = {register.slug for register in registers.registers}
    files = {path.stem: display_path(path) for path in _register_files(paths.registers)}
    failed = {d.file for d in diagnostics if d.severity == "error"}
    return {slug: file for slug, file in files.items() if slug not in loaded and file in failed}


def _register_files(root: Path) -> list[Path]:
    """The register files under `root`, in name order (`layout.is_register_file`).

    Anything named like a register is read, and a directory, a broken link, a FIFO, a
    socket or a device (or a link to one) is reported: `load_file` reads regular files
    only, and never opens what it refuses in a way that could wait or run forever.
    """
    named = sorted(root.glob(f"*{REGISTER_SUFFIX}"))
    return [path for path in named if is_register_file(path.name)]


@dataclass(frozen=True)
class LockText:
    """citations.lock as read: its text, or why it could not be read."""

    path: Path
    file: str
    """The path as messages show it."""
    text: str | None
    """As decoded, its line ends as they are (`edit.encoded` compares the file with it
    before a rewrite, which keeps CRLF); None when the file could not be read."""
    problem: str | None = None
    """Why it could not be read: `cannot read: ...`."""


def read_lock(paths: Paths) -> LockText | None:
    """The review stamps' file, None when there is none (stamps are then not checked)."""
    path = paths.lock
    if not path.exists():
        return None
    file = display_path(path)
    try:
        # a byte order mark is not a line; a link to a device or a FIFO is not read
        raw = regular.read_bytes(path, regular.MAX_BYTES, within=paths.inside)
        text = raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else None
        return LockText(path, file, None, f"cannot read: {reason or err}")
    return LockText(path, file, text)


def _not_read(root: Path) -> list[Diagnostic]:
    """A warning for each `*.yml` file, which its author probably meant as a register."""
    return [
        Diagnostic(
            file=display_path(path),
            line=1,
            col=1,
            severity="warning",
            id=path.stem,
            code="not-read",
            message=f"{path.name} is not read: register files end in .yaml",
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
    Problems go to `out`, the document to `documents` under its displayed path. A link
    leading out of `within` (the project: `Paths.inside`) is refused, not read."""
    display = display_path(path)
    if path.name == SOURCES_FILE and not path.exists():
        message = f"{path.name} not found in {display_path(path.parent)}"
        out.append(
            Diagnostic(
                file=display,
                line=1,
                col=1,
                severity="error",
                id=path.stem,
                code="missing-file",
                message=message,
            )
        )
        return None
    loaded = load_file(path, display, schema.integer_keys(), within)
    if isinstance(loaded, Diagnostic):
        out.append(loaded)
        return None
    documents[display] = loaded
    out.extend(schema.validate(loaded, schema_name, owner_of(loaded, path.stem)))
    return loaded


def owner_of(doc: Document, stem: str) -> Any:
    """A function naming the ID a problem at a path belongs to: its entry's ID, or `stem`."""

    def owner(path: Path_) -> str:
        if len(path) >= 2 and path[0] == "entries" and isinstance(path[1], int):
            entries = doc.data.get("entries")
            if isinstance(entries, list) and path[1] < len(entries):
                entry = entries[path[1]]
                if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"]:
                    return str(entry["id"])
        return stem

    return owner


@dataclass(frozen=True)
class RecordText:
    """One subject's recorded conformance results as read: `conformance/ALIAS.json`
    (`conformance.record` parses it)."""

    alias: str
    file: str
    """The path as messages show it."""
    text: str | None
    """None when the file could not be read."""
    problem: str | None = None
    """Why it could not be read."""


def read_records(paths: Paths) -> list[RecordText]:
    """Each subject's recorded results, by alias; none when `conformance/` does not exist."""
    folder = paths.conformance_dir
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob(f"*{CONFORMANCE_SUFFIX}")):
        if path.name.startswith("."):  # an editor's or a writer's own file beside it
            continue
        file = display_path(path)
        alias = path.name.removesuffix(CONFORMANCE_SUFFIX)
        try:
            raw = regular.read_bytes(path, regular.MAX_BYTES, within=paths.inside)
            text = raw.decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as err:
            reason = err.strerror if isinstance(err, OSError) else "not UTF-8"
            found.append(RecordText(alias, file, None, f"cannot read: {reason or err}"))
            continue
        found.append(RecordText(alias, file, text))
    return found

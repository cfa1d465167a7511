"""Reading a registers folder: which files are registers, each read and checked for shape.

The one module of `reading` that touches the file system; `build` makes the typed models.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..model.diagnostic import Diagnostic
from ..model.positions import Path_
from ..model.registers import Register, RegisterSet, Sources
from . import schema
from .build import build_register, build_sources
from .loader import Document, load_file

SOURCES_FILE = "sources.yaml"


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


def load(root: Path) -> Loaded:
    """Load sources.yaml and every register file under `root`."""
    diagnostics: list[Diagnostic] = []
    documents: dict[str, Document] = {}
    sources = read_sources(root, documents, diagnostics)
    registers = list(read_registers(root, documents, diagnostics))
    return Loaded(RegisterSet(sources, registers), documents, diagnostics)


def read_sources(root: Path, documents: dict[str, Document], out: list[Diagnostic]) -> Sources:
    """The typed sources.yaml of `root` (empty when it does not load; `out` says why)."""
    path = root / SOURCES_FILE
    doc = read_document(path, schema.SOURCES, documents, out)
    return build_sources(doc, out, display_path(path))


def read_registers(
    root: Path, documents: dict[str, Document], out: list[Diagnostic]
) -> Iterator[Register]:
    """Each register file under `root` that loads, typed, as soon as it is built; problems
    go to `out` and each file's `Document` to `documents`."""
    out.extend(_not_read(root))
    for path in _register_files(root):
        doc = read_document(path, schema.REGISTER, documents, out)
        if doc is not None:
            yield build_register(doc, path.stem, out)


def unloaded(root: Path, registers: RegisterSet, diagnostics: list[Diagnostic]) -> dict[str, str]:
    """slug -> file as messages name it, for each register file under `root` that did not
    load (invalid YAML, not UTF-8, not a register's shape at the top)."""
    loaded = {register.slug for register in registers.registers}
    files = {path.stem: display_path(path) for path in _register_files(root)}
    failed = {d.file for d in diagnostics if d.severity == "error"}
    return {slug: file for slug, file in files.items() if slug not in loaded and file in failed}


def _register_files(root: Path) -> list[Path]:
    """The register files under `root`, in name order.

    Hidden files are skipped, such as an editor's lock `.#meta.yaml` (a symbolic link to
    nowhere). Anything else named like a register is read, and a directory, a broken link,
    a FIFO, a socket or a device (or a link to one) is reported: `load_file` reads regular
    files only, and never opens what it refuses in a way that could wait or run forever.
    """
    return [
        path
        for path in sorted(root.glob("*.yaml"))
        if path.name != SOURCES_FILE and not path.name.startswith(".")
    ]


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
    path: Path, schema_name: str, documents: dict[str, Document], out: list[Diagnostic]
) -> Document | None:
    """One YAML file, loaded and checked against its schema; None when it does not load.
    Problems go to `out`, the document to `documents` under its displayed path."""
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
    loaded = load_file(path, display, schema.integer_keys())
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

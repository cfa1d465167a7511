"""What the shells need besides the commands: where the registers are, writing files."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..reading import projectdir as finding
from ..storage import regular
from ..storage.atomic import holds, write_all
from ..storage.errors import WriteError
from ..storage.settings import DEFAULTS, Settings

DEFAULT_REGISTERS = finding.DEFAULT
"""The registers folder a command reads when nothing names one and no project is found."""


def registers_folder(given: Path | None, settings: Settings = DEFAULTS) -> Path | None:
    """The registers folder a command reads: `given`, else `$REGISTER_DIR`, else the
    nearest project at or above the working directory (`reading.projectdir`); None if none."""
    return finding.registers_folder(given, settings)


def write_files(files: Mapping[Path, str], *, make_folders: bool = False) -> None:
    """Write every file as UTF-8, all or none, each through a temporary file and a rename
    (their folders made first with `make_folders`); a file holding those bytes already is
    left alone, its modification time too, which an engine's incremental build reads.
    Raises `WriteError`, one line naming the file that failed (the target, not the
    temporary file beside it)."""
    encoded = {path: text.encode("utf-8") for path, text in files.items()}
    try:
        if make_folders:
            for path in files:
                path.parent.mkdir(parents=True, exist_ok=True)
        write_all([(path, data) for path, data in encoded.items() if not holds(path, data)])
    except OSError as err:
        where = _written(err.filename, files) or ", ".join(str(path) for path in files)
        raise WriteError(f"cannot write {where}: {err.strerror or err}") from None


def _written(name: str | None, files: Mapping[Path, str]) -> Path | None:
    """The file being written when `name` (an error's file name) failed: the target, not
    the temporary file beside it (`.x.json.abc123.tmp` for x.json)."""
    if name is None:
        return None
    failed = Path(name)
    for path in files:
        if failed == path or (
            failed.parent == path.parent and failed.name.startswith(f".{path.name}.")
        ):
            return path
    return failed


def refuse_links_under(out: Path, files: Iterable[str]) -> None:
    """Raise `WriteError` (one line) when a folder under `out` on the way to one of `files`
    is a link: `out` may be a pull request's (docs/), and a link would lead the writes out."""
    for file in files:
        if (folder := regular.linked_folder(out, file)) is not None:
            raise WriteError(
                f"{folder}: a symbolic link (to {os.readlink(folder)!r}): nothing is "
                "written through a link under --out; remove it; nothing written"
            )

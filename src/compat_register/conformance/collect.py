"""The files `register conformance import` is named, read (regular files only, bounded)
and parsed: the stage's one reader of files."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..model.diagnostic import Diagnostic
from ..model.positions import Where
from ..reading.folder import display_path
from ..storage import regular
from ..storage.errors import RegisterError
from .record import located_problem, read_baseline, read_run
from .runs import Baseline, Run

CHECKS_FILE = "checks.json"
"""What the suite names each scenario's results."""


class NoResults(RegisterError):
    """A RESULTS argument that names no checks.json."""

    usage = True


def found_files(given: Path) -> list[tuple[Path, str]]:
    """(checks.json, its results folder's name) for one argument: a checks.json, a folder
    holding one, or a folder of such folders at any depth (`auth/basic-dcr` keeps its `/`)."""
    if given.is_file():
        return [(given, given.resolve().parent.name)]
    if (given / CHECKS_FILE).is_file():
        return [(given / CHECKS_FILE, given.resolve().name)]
    if not given.is_dir():
        raise NoResults(f"RESULTS '{display_path(given)}': no such file or folder")
    found = []
    for top, folders, files in os.walk(given):
        folders.sort()  # the same order on every file system
        if CHECKS_FILE in files:
            path = Path(top) / CHECKS_FILE
            found.append((path, Path(os.path.relpath(top, given)).as_posix()))
    if not found:
        raise NoResults(f"RESULTS '{display_path(given)}': no {CHECKS_FILE} in it, at any depth")
    return found


def read_runs(given: Iterable[Path]) -> tuple[list[Run], list[Diagnostic]]:
    """Every run the arguments name, in order; the located problems of those that are
    not what the suite writes."""
    runs: list[Run] = []
    problems: list[Diagnostic] = []
    for argument in given:
        for path, folder in found_files(argument):
            file = display_path(path)
            text, trouble = read_text(path, file)
            if text is None:
                problems.extend(trouble)
                continue
            run, trouble = read_run(text, file, folder)
            problems.extend(trouble)
            if run is not None:
                runs.append(run)
    return runs, problems


def read_baseline_file(path: Path) -> tuple[Baseline | None, list[Diagnostic]]:
    file = display_path(path)
    if not path.is_file():
        raise NoResults(f"--baseline '{file}': no such file")
    text, trouble = read_text(path, file)
    return (None, trouble) if text is None else read_baseline(text, file)


def read_text(path: Path, file: str) -> tuple[str | None, list[Diagnostic]]:
    """A file's text (UTF-8, a byte order mark dropped), or the one problem of reading it."""
    try:
        data = regular.read_bytes(path, regular.MAX_BYTES)
    except OSError as err:
        message = f"cannot read file: {err.strerror or err}"
        return None, [located_problem(Where(file, 1, 1), "unreadable", message)]
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        message = "not UTF-8: save the file as UTF-8"
        return None, [located_problem(Where(file, line, 1), "not-utf8", message)]

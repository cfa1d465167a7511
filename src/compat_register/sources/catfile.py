"""Objects read through `git cat-file --batch`: one process kept for a repository's life,
asked one name, or one chunk of names, at a time. It starts git through the runner
(`sources.git`); what it reads becomes a `FileText`, `BINARY`, or None (`text_of`).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import MutableMapping
from pathlib import Path
from typing import IO

from . import git
from .filetext import FileText
from .git import DamagedRepository, GitSourceError

BINARY = "binary"
"""What the cache holds for a blob with a NUL byte in its first 8000 bytes (git's test)."""

CHUNK = 100
"""Requests `CatFile.read_many` writes before reading their answers (well inside a pipe's
buffer)."""

Texts = MutableMapping[tuple[str, str], FileText | str | None]
"""A checkout's cache: (full commit sha, path) -> the file's text, `BINARY`, or None."""


class CatFile:
    """One `git cat-file --batch` of the repository at `git_dir`, started when first asked
    and started again after an answer that cannot be trusted. `root` names it in messages."""

    def __init__(self, git_dir: str, root: Path) -> None:
        self.git_dir, self.root = git_dir, root
        self._process: subprocess.Popen[bytes] | None = None

    def object(self, name: str) -> tuple[str, str, bytes] | None:
        """(sha, type, data) of the object `name`, None if git says it is missing.

        git answers `<sha> <type> <size>` and the data, or `<name> missing`, or `<name>
        ambiguous`.
        """
        reader = self._reader()
        assert reader.stdin is not None and reader.stdout is not None
        try:
            reader.stdin.write(os.fsencode(name) + b"\n")
            reader.stdin.flush()
            header = reader.stdout.readline().split()
            if header[-1:] == [b"missing"]:  # the name itself may hold spaces: look at the end
                return None
            if header[-1:] == [b"ambiguous"]:
                raise GitSourceError(f"commit {name!r} is ambiguous in {self.root}")
            if len(header) == 3 and header[2].isdigit():
                size = int(header[2])
                data = reader.stdout.read(size + 1)[:-1]  # and the newline after
                if len(data) == size:
                    return os.fsdecode(header[0]), os.fsdecode(header[1]), data
                self.close()  # git stopped inside the object: it could not unpack it
                raise DamagedRepository(f"{self.root} is damaged: git cannot unpack {name}")
        except OSError as exc:
            self.close()
            raise GitSourceError(f"git cannot read {self.root}: {exc}") from exc
        self.close()  # the next request starts a new reader: one bad name ends no other
        reply = b" ".join(header).decode(errors="replace") or "no answer"
        raise GitSourceError(f"git cannot read {self.root}: cat-file said {reply!r}")

    def read_many(self, todo: list[tuple[str, str]], texts: Texts) -> None:
        """Read each (full commit sha, path) into `texts`, the requests of each chunk
        written at once: a round trip per chunk, not per file (what a busy machine makes
        slow). The names must be checked already: one line each, no option."""
        reader = self._reader()
        assert reader.stdin is not None and reader.stdout is not None
        try:
            for first in range(0, len(todo), CHUNK):
                chunk = todo[first : first + CHUNK]  # small enough to sit in the pipe whole
                reader.stdin.write(b"".join(os.fsencode(f"{s}:{p}\n") for s, p in chunk))
                reader.stdin.flush()
                for key in chunk:
                    texts[key] = text_of(_answer(reader.stdout))
        except (OSError, ValueError, IndexError) as exc:
            self.close()  # stopped inside an answer: the next request starts a new reader
            raise GitSourceError(f"git cannot read {self.root}: {exc}") from exc

    def close(self) -> None:
        """End the reader (it has died, or its answers can no longer be trusted)."""
        process, self._process = self._process, None
        if process is not None:
            end(process)

    def _reader(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            self._process = git.start(
                ["cat-file", "--batch"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                git_dir=self.git_dir,
            )
        return self._process


def end(process: subprocess.Popen[bytes]) -> None:
    """Close a reader's pipes, so git ends, and wait for that. A git that died already
    (it refused a name, or a pack is damaged) leaves a broken pipe: nothing to say to it."""
    with contextlib.suppress(BrokenPipeError):
        if process.stdin is not None:
            process.stdin.close()
    with process:  # closes the rest and waits
        pass


def text_of(found: tuple[str, bytes] | None) -> FileText | str | None:
    """What the cache holds for an object (type, data): its text, BINARY, or None."""
    if found is None or found[0] != "blob":
        return None
    if b"\0" in found[1][:8000]:
        return BINARY
    return FileText(_lines(found[1]))


def _answer(stream: IO[bytes]) -> tuple[str, bytes] | None:
    """(type, data) of the next answer of a `git cat-file --batch`, None for a missing one."""
    header = stream.readline().split()
    if header[-1:] == [b"missing"]:
        return None
    size = int(header[2])
    data = stream.read(size + 1)[:-1]  # and the newline after
    if len(data) != size:  # git stopped inside the object: it could not unpack it
        raise ValueError(f"git stopped inside {header[0].decode()}")
    return header[1].decode(), data


def _lines(data: bytes) -> list[str]:
    # Split on '\n' only (not str.splitlines, which also splits on \f, \x1c, U+2028, ...) so
    # line numbers agree with git and GitHub.
    lines = data.decode("utf-8", errors="replace").split("\n")
    if lines[-1] == "":
        lines.pop()
    if b"\r" not in data:
        return lines  # most files: no line to trim, so no pass over thousands of lines
    return [line[:-1] if line.endswith("\r") else line for line in lines]

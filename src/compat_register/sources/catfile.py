"""Objects read through `git cat-file --batch`: one process for a repository's life, asked
one name or one chunk of names at a time; a blob becomes a `FileText` or `BINARY`."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import IO

from . import git
from .filetext import FileText
from .git import DamagedRepository, GitSourceError

BINARY = "binary"  # a blob with a NUL byte in its first 8000 bytes (git's test)
CHUNK = 100  # most requests written before reading their answers

CHUNK_BYTES = 8192
"""Most bytes of requests written before reading their answers, unless one request alone:
they fit whole in any pipe's buffer (64 KiB on Linux, 16 KiB on macOS). Past it, git,
blocked writing answers nobody reads yet, would stop reading the names we still write."""

Texts = MutableMapping[tuple[str, str], FileText | str | None]
"""A checkout's cache: (full commit sha, path) -> the file's text, `BINARY`, or None."""


class CatFile:
    """One `git cat-file --batch` of `git_dir`, started when first asked and again after an
    answer that cannot be trusted. `root` names it in messages."""

    def __init__(self, git_dir: str, root: Path) -> None:
        self.git_dir, self.root = git_dir, root
        self._process: subprocess.Popen[bytes] | None = None

    def object(self, name: str) -> tuple[str, str, bytes] | None:
        """(sha, type, data) of the object `name`, None if git says it is missing."""
        return self._ask([name])[0]

    def read_many(self, todo: list[tuple[str, str]], texts: Texts) -> None:
        """Read each (full commit sha, path), already checked, into `texts`: a round trip
        per chunk of requests, not per file."""
        for chunk in chunks([f"{sha}:{path}" for sha, path in todo]):
            answers = self._ask([name for _, name in chunk])
            for (n, _), found in zip(chunk, answers, strict=True):
                texts[todo[n]] = text_of(found)

    def _ask(self, names: list[str]) -> list[tuple[str, str, bytes] | None]:
        """git's answer to each name (`<sha> <type> <size>` and the data, `<name> missing`,
        `<name> ambiguous`); one that cannot be trusted ends the reader."""
        reader = self._reader()
        assert reader.stdin is not None and reader.stdout is not None
        try:
            reader.stdin.write(b"".join(os.fsencode(name) + b"\n" for name in names))
            reader.stdin.flush()
            return [self._answer(reader.stdout, name) for name in names]
        except OSError as exc:
            self.close()
            raise GitSourceError(f"git cannot read {self.root}: {exc}") from exc
        except GitSourceError:
            self.close()
            raise

    def _answer(self, stream: IO[bytes], name: str) -> tuple[str, str, bytes] | None:
        header = stream.readline().split()
        if header[-1:] == [b"missing"]:  # the name itself may hold spaces: look at the end
            return None
        if header[-1:] == [b"ambiguous"]:
            raise GitSourceError(f"commit {name!r} is ambiguous in {self.root}")
        if len(header) != 3 or not header[2].isdigit():
            reply = b" ".join(header).decode(errors="replace") or "no answer"
            raise GitSourceError(f"git cannot read {self.root}: cat-file said {reply!r}")
        size = int(header[2])
        data = stream.read(size + 1)[:-1]  # and the newline after
        if len(data) != size:  # git stopped inside the object: it could not unpack it
            raise DamagedRepository(f"{self.root} is damaged: git cannot unpack {name}")
        return os.fsdecode(header[0]), os.fsdecode(header[1]), data

    def close(self) -> None:
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


def chunks(names: list[str]) -> Iterator[list[tuple[int, str]]]:
    """The names, numbered, in chunks of at most `CHUNK` names and `CHUNK_BYTES` bytes (a
    longer name alone: git answers it once it has read all of it)."""
    chunk: list[tuple[int, str]] = []
    size = 0
    for n, name in enumerate(names):
        written = len(os.fsencode(name)) + 1
        if chunk and (len(chunk) == CHUNK or size + written > CHUNK_BYTES):
            yield chunk
            chunk, size = [], 0
        chunk.append((n, name))
        size += written
    if chunk:
        yield chunk


def end(process: subprocess.Popen[bytes]) -> None:
    """Close a reader's pipes, so git ends, and wait for it (one already dead: a broken pipe)."""
    with contextlib.suppress(BrokenPipeError), process:  # closes the rest and waits
        if process.stdin is not None:
            process.stdin.close()


def text_of(found: tuple[str, str, bytes] | None) -> FileText | str | None:
    """What the cache holds for an object (sha, type, data): its text, BINARY, or None."""
    if found is None or found[1] != "blob":
        return None
    if b"\0" in found[2][:8000]:
        return BINARY
    # Split on '\n' only (not str.splitlines, which also splits on \f, \x1c, U+2028, ...) so
    # line numbers agree with git and GitHub.
    text = found[2].decode("utf-8", errors="replace")
    lines = text.removesuffix("\n").split("\n") if text else []
    if "\r" in text:  # a CRLF file: each line without its '\r'
        lines = [line.removesuffix("\r") for line in lines]
    return FileText(lines)

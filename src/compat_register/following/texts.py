"""The texts `follow` compares, each file at each commit read and keyed once, and the lines
a step added to the files it wrote, indexed for lines that left their own file."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import overload

from ..citations.compare import Kind, comparable, file_kind
from ..sources.checkout import Checkout
from ..sources.diffs import Changes, Hunk, written_lines
from ..sources.git import GitSourceError
from .moves import AddedIndex, Lines, Text

Written = tuple[list[Hunk], dict[int, str]]
"""A file's hunks in one step and the text of each line it added."""


class Texts:
    """The files of one walk through the history, read and keyed once each."""

    def __init__(self, checkout: Checkout) -> None:
        self.checkout = checkout
        self.markdown: Sequence[str] = ()  # the source's Markdown globs
        self._keys: dict[Kind, dict[str, str]] = {"markdown": {}, "code": {}}
        self._written: dict[str, tuple[dict[str, Written], dict[str, set[str]]]] = {}
        self._index: dict[tuple[str, str, Kind], AddedIndex | None] = {}
        self._files: dict[tuple[str, str, Kind], Text | None] = {}

    def written(self, step: Changes, old: Text, lines: Lines) -> list[AddedIndex]:
        """The added lines, keyed as `old`, of each text file the step wrote that added the
        first line of old `lines` (found by `coarse` form in one `git diff` of the step)."""
        if step.sha not in self._written:
            by_key: dict[str, set[str]] = {}
            written = written_lines(self.checkout, step)
            for path, (_, added) in written.items():
                for line in added.values():
                    by_key.setdefault(coarse(line), set()).add(path)
            self._written[step.sha] = (written, by_key)
        written, by_key = self._written[step.sha]
        first = next((k for k in old.keys[lines[0] - 1 : lines[1]] if k), None)
        found = []
        for path in sorted(by_key.get(coarse(first), ())) if first else ():
            if (key := (step.sha, path, old.keyed)) not in self._index:
                try:
                    other = self.text(*key)
                except GitSourceError:  # binary
                    other = None
                self._index[key] = other and AddedIndex(path, other, written[path][0])
            if (ready := self._index[key]) is not None:
                found.append(ready)
        return found

    def keyed(self, *paths: str) -> Kind:
        """The rule line keys follow when `paths` are compared: Markdown's only when all are."""
        kinds = {file_kind(p, self.markdown) for p in paths}
        return "markdown" if kinds == {"markdown"} else "code"

    def text(self, sha: str, path: str, keyed: Kind) -> Text | None:
        """A file at `sha`, its lines keyed by the rule `keyed`."""
        if (sha, path, keyed) not in self._files:
            lines = self.checkout.read_text(sha, path)
            kind = file_kind(path, self.markdown)
            self._files[sha, path, keyed] = (
                None
                if lines is None
                else Text(lines, Keys(lines, keyed, self._keys[keyed]), kind, keyed)
            )
        return self._files[sha, path, keyed]


class Keys(Sequence[str]):
    """A file's lines as keys, each made when first read (most never are) and once a run."""

    def __init__(self, lines: Sequence[str], kind: Kind, cache: dict[str, str]) -> None:
        self._lines, self.kind, self._cache = lines, kind, cache

    def __len__(self) -> int:
        return len(self._lines)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self._key(line) for line in self._lines[index]]
        return self._key(self._lines[index])

    def _key(self, line: str) -> str:
        cache = self._cache
        return cache[line] if line in cache else cache.setdefault(line, comparable(line, self.kind))


def coarse(line: str) -> str:
    """Letters and digits only: equal for lines whose keys are equal (a cheap index)."""
    return _NOT_ALNUM.sub("", line)


_NOT_ALNUM = re.compile(r"[\W_]+")

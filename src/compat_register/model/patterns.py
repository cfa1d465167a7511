"""The patterns a pull request may write (link patterns, globs), run by RE2 in linear time:
Python's `re` backtracks (`(a+)+c` runs for hours)."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, Protocol, TypeVar

import re2

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # RE2 would print each refusal on stderr, beside our own line
_NOTHING = re2.compile("[^\\x00-\\x{10FFFF}]")  # no text matches it


class Spanned(Protocol):
    """A match as `citations.nonprose` reads it: where it is."""

    def span(self, group: int = 0, /) -> tuple[int, int]: ...


M = TypeVar("M", covariant=True)


class Regex(Protocol[M]):
    """A compiled pattern as the stages use it: `re.Pattern` and RE2's both are one."""

    @property
    def pattern(self) -> str: ...
    def finditer(self, text: str) -> Iterator[M]: ...
    def fullmatch(self, text: str) -> M | None: ...


def compile_pattern(pattern: str) -> Regex[Any] | str:
    """`pattern` compiled by RE2 (Python's syntax less backreferences and lookaround), or
    RE2's reason it cannot run it."""
    try:
        return re2.compile(pattern, _OPTIONS)  # type: ignore[no-any-return]
    except re2.error as err:
        reason = err.args[0] if err.args else err
        return reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)


@lru_cache(maxsize=4096)
def glob_regex(glob: str) -> Regex[Any]:
    """`glob` as an RE2 pattern of the whole path, gitignore-style: `**` crosses folders, `*`
    and `?` do not; one over RE2's memory bound (which the schema refuses) matches nothing."""
    compiled = compile_pattern("".join(_glob_parts(glob)))
    return _NOTHING if isinstance(compiled, str) else compiled


def glob_problem(glob: str) -> str | None:
    """Why `glob` can match nothing (RE2's reason, say a class `[z-a]`), else None."""
    compiled = compile_pattern("".join(_glob_parts(glob)))
    return compiled if isinstance(compiled, str) else None


_GLOB_TOKEN = re2.compile(r"(\*\*/|\*\*|\*|\?|\[[^\]]*\])")


def _glob_parts(glob: str) -> Iterator[str]:
    after_slash = True  # `**/` is any folders only at the start or after a `/`
    for part in _GLOB_TOKEN.split(glob):
        if part == "**/" and after_slash:
            yield "(?:.*/)?"
        elif part in ("**", "**/"):
            yield ".*" + part[2:]
        elif part == "*":
            yield "[^/]*"
        elif part == "?":
            yield "[^/]"
        elif part.startswith("[") and part.endswith("]") and len(part) > 2:
            yield fnmatch.translate(part)[4:-3]  # `(?s:[...])\Z`: the class alone
        else:
            yield re2.escape(part)
        after_slash = part.endswith("/") if part else after_slash

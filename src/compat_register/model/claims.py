"""sources.yaml's globs: which source owns an unprefixed cited path (claims), and what a
project covers of a specification (`coverage.scope`). Pure."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .patterns import Regex, glob_regex


@dataclass(frozen=True)
class Claim:
    """An unprefixed path pattern a source owns; `under` is prepended to the path."""

    glob: str
    under: str = ""


class Claims(dict[str, tuple[Claim, ...]]):
    """Every source's claims (alias -> claims), with each glob compiled once."""

    def __init__(self, claims: Mapping[str, Sequence[Claim]]):
        super().__init__((alias, tuple(patterns)) for alias, patterns in claims.items())
        self.compiled: list[tuple[str, list[tuple[Regex[Any], str]]]] = [
            (alias, [(glob_regex(claim.glob), claim.under) for claim in patterns])
            for alias, patterns in self.items()
        ]
        self.owners: dict[str, tuple[tuple[str, str], ...]] = {}  # path -> its claimants


def claimants(path: str, claims: Mapping[str, Sequence[Claim]]) -> list[tuple[str, str]]:
    """(alias, full path in the repository) for every source whose claims match `path`
    (`Sources.claims()` is compiled once per run; a plain mapping is compiled here)."""
    compiled = claims if isinstance(claims, Claims) else Claims(claims)
    if (known := compiled.owners.get(path)) is None:
        known = compiled.owners[path] = tuple(_claimants(path, compiled))
    return list(known)


def _claimants(path: str, compiled: Claims) -> Iterator[tuple[str, str]]:
    for alias, patterns in compiled.compiled:
        under = next((under for regex, under in patterns if regex.fullmatch(path)), None)
        if under is not None:
            yield alias, under + path


def glob_matches(glob: str, path: str) -> bool:
    """Whether `path` matches `glob` as claims read it."""
    return glob_regex(glob).fullmatch(path) is not None


@dataclass(frozen=True)
class Scope:
    """The pages and headings a project covers; every other statement is out of scope, for
    the one `reason` given."""

    covers: tuple[str, ...]
    """`GLOB` (a page) or `GLOB#ANCHOR` (its statements under that heading; the anchor a
    glob too), of full paths in the source's repository."""
    reason: str

    def holds(self, path: str, anchor: str) -> bool:
        """Whether a statement of the page at `path`, under the heading `anchor`, is in scope."""
        return any(_in_scope(pattern, path, anchor) for pattern in self.covers)


def _in_scope(pattern: str, path: str, anchor: str) -> bool:
    page, _, heading = pattern.partition("#")
    return glob_matches(page, path) and (not heading or glob_matches(heading, anchor))

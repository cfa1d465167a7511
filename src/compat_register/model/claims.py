"""Claims: which source owns an unprefixed cited path, by the globs in sources.yaml."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Claim:
    """An unprefixed path pattern a source owns; `under` is prepended to the path."""

    glob: str
    under: str = ""


class Claims(dict[str, tuple[Claim, ...]]):
    """Every source's claims (alias -> claims), with each glob compiled once."""

    def __init__(self, claims: Mapping[str, Sequence[Claim]]):
        super().__init__((alias, tuple(patterns)) for alias, patterns in claims.items())
        self.compiled: list[tuple[str, list[tuple[re.Pattern[str], str]]]] = [
            (alias, [(_glob_regex(claim.glob), claim.under) for claim in patterns])
            for alias, patterns in self.items()
        ]
        self.owners: dict[str, tuple[tuple[str, str], ...]] = {}
        """path -> its claimants: a set cites each file many times, and each citation is
        resolved, then checked."""


def claimants(path: str, claims: Mapping[str, Sequence[Claim]]) -> list[tuple[str, str]]:
    """(alias, full path in the repository) for every source whose claims match `path`.

    Pass `Sources.claims()`, a `Claims` built once per run; a plain mapping is compiled here.
    """
    compiled = claims if isinstance(claims, Claims) else Claims(claims)
    if (known := compiled.owners.get(path)) is None:
        known = compiled.owners[path] = tuple(_claimants(path, compiled))
    return list(known)


def _claimants(path: str, compiled: Claims) -> Iterator[tuple[str, str]]:
    for alias, patterns in compiled.compiled:
        under = next((under for regex, under in patterns if regex.match(path)), None)
        if under is not None:
            yield alias, under + path


def glob_matches(glob: str, path: str) -> bool:
    """Whether `path` matches `glob`, read as claims read it (`*` inside one folder, `**`
    across folders)."""
    return _glob_regex(glob).match(path) is not None


@lru_cache(maxsize=4096)
def _glob_regex(glob: str) -> re.Pattern[str]:
    # '**' crosses directories, '*' and '?' do not: the usual gitignore-style reading. So
    # `a/**/b.go` is a/b.go or a/x/y/b.go, never a/xb.go.
    parts = re.split(r"((?:(?<=/)|^)\*\*/|\*\*|\*|\?|\[[^\]]*\])", glob)
    out = []
    for part in parts:
        if part == "**/":
            out.append("(?:.*/)?")
        elif part == "**":
            out.append(".*")
        elif part == "*":
            out.append("[^/]*")
        elif part == "?":
            out.append("[^/]")
        elif part.startswith("[") and part.endswith("]") and len(part) > 2:
            out.append(fnmatch.translate(part)[4:-3])
        else:
            out.append(re.escape(part))
    return re.compile("".join(out) + r"\Z")

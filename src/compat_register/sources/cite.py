"""Ready-to-paste citations of lines at a source's pin (`register cite`), as a register
writes them: unprefixed when the claims allow, a short quote, a YAML scalar. Pure."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..citations.compare import spaced
from ..citations.quoting import yaml_scalar
from ..citations.syntax import CitationSyntaxError, parse_compact
from ..model.claims import Claim, Claims, claimants
from ..model.notation import lines_text
from ..model.registers import Sources
from ..model.results import Result
from ..storage.errors import RegisterError

LONGEST_QUOTE = 72  # characters of a quote before it is shortened (the `…` included)
_TEXT = re.compile(r"[^\W_]")

Read = Callable[[str], Sequence[str] | None]  # a file's lines at the pin, None: none or binary


class CiteError(RegisterError):
    """A citation that cannot be made; the message is one line."""


@dataclass(frozen=True)
class Target:
    """What `register cite ALIAS:PATH:LINE[-END]` names."""

    source: str
    path: str  # in the source's repository
    start: int
    end: int


@dataclass(frozen=True)
class Cited(Target):
    """One ready citation."""

    quote: str | None
    text: str  # the compact citation, as a register holds it

    @property
    def yaml(self) -> str:
        return yaml_scalar(self.text)


def target(spec: str, sources: Sources) -> Target:
    """The source, full path and lines of `[ALIAS:]PATH:LINE[-END]` (an unprefixed path:
    the source claiming it). Raises CiteError."""
    try:
        parsed = parse_compact(spec)
    except CitationSyntaxError as err:
        raise CiteError(str(err)) from None
    if parsed.quote is not None:
        raise CiteError(f"'{spec}': name the lines only; the quote is read from them")
    if parsed.alias is not None:
        if parsed.alias not in sources.sources:
            raise CiteError(f"no source '{parsed.alias}' in sources.yaml{_known(sources)}")
        return Target(parsed.alias, parsed.path, parsed.start, parsed.end)
    owners = claimants(parsed.path, sources.claims())
    if len(owners) != 1:
        who = "no source claims" if not owners else "several sources claim"
        raise CiteError(f"{who} {parsed.path}: write it as ALIAS:PATH:LINE{_known(sources)}")
    alias, full = owners[0]
    return Target(alias, full, parsed.start, parsed.end)


def grep_target(named: str, sources: Sources) -> tuple[str, str | None]:
    """What `register cite NAMED --grep TEXT` searches, (alias, full path or None): a source's
    claimed files, or the one file or folder a source claims. Raises CiteError."""
    if named in sources.sources:
        return named, None
    owners = claimants(named.rstrip("/"), sources.claims())
    if len(owners) == 1:
        return owners[0]
    known = ", ".join(sources.sources) or "none"
    if not owners:
        what = f"no source '{named}' in sources.yaml (sources: {known}), nor one claiming it"
    else:
        what = f"several sources claim {named} ({', '.join(alias for alias, _ in owners)})"
    instead = f"register cite ALIAS --grep TEXT --path '{named}'"
    raise CiteError(f"{what}: name the source, as in {instead}")


def within(paths: Iterable[str], place: str | None) -> list[str]:
    """The paths that are the file `place` or lie in the folder `place` (all, for None)."""
    if place is None:
        return list(paths)
    folder = place.rstrip("/") + "/"
    return [path for path in paths if path == place or path.startswith(folder)]


def _known(sources: Sources) -> str:
    return f" (sources: {', '.join(sources.sources)})" if sources.sources else ""


def cite(named: Target, lines: Sequence[str] | None, claims: Claims) -> Cited:
    """The citation of `named`'s lines in a file's `lines`; CiteError when not there."""
    if lines is None:
        raise CiteError(f"{named.source}: no file {named.path} at the pin")
    if named.end > len(lines):
        count = f"{len(lines)} line" + ("" if len(lines) == 1 else "s")
        raise CiteError(f"{named.source}: {named.path} has {count}, not line {named.end}")
    quote = quote_of(lines[named.start - 1 : named.end])
    return cited(named, quote, claims)


def cited(named: Target, quote: str | None, claims: Claims) -> Cited:
    text = f"{written_path(named.source, named.path, claims)}:{lines_text(named.start, named.end)}"
    text += f" “{quote}”" if quote else ""
    return Cited(named.source, named.path, named.start, named.end, quote, text)


def written_path(alias: str, path: str, claims: Claims) -> str:
    """How a register writes `path` of source `alias`: unprefixed when the claims give that
    back to this source and path alone, else `ALIAS:PATH`."""
    for claim in claims.get(alias, ()):
        if path.startswith(claim.under):
            short = path[len(claim.under) :]
            if claimants(short, claims) == [(alias, path)]:
                return short
    return f"{alias}:{path}"


def quote_of(lines: Iterable[str], near: int = 0) -> str | None:
    """A quote of the first line holding a letter or digit, `shortened` around `near`."""
    for line in lines:
        if _TEXT.search(line):
            return shortened(line, near)
    return None


def shortened(line: str, near: int = 0) -> str:
    """`line` with its white space collapsed; when longer than LONGEST_QUOTE, the whole
    words around character `near`, ending in `…` unless they reach the line's end."""
    text = spaced(line)  # the form every file kind compares a quote in (`compare`)
    if len(text) <= LONGEST_QUOTE:
        return text
    room = LONGEST_QUOTE - 1
    before = line[:near].split()  # where character `near` lands once white space collapses
    collapsed = len(" ".join(before)) + (1 if before and line[near - 1].isspace() else 0)
    start = text.rfind(" ", 0, collapsed) + 1
    if start > len(text) - room:  # the end is in view: the first word that still reaches it
        start = max(text.find(" ", len(text) - room - 1) + 1, 0)
    piece = text[start : start + room]
    if start + room >= len(text):
        return piece
    cut = piece.rfind(" ")
    return (piece[:cut] if cut > room // 2 else piece).rstrip() + "…"


@dataclass
class Hits(Result):
    """What `register cite ALIAS --grep TEXT` found."""

    cited: list[Cited]  # the hits shown (at most the limit), in path and line order
    total: int  # every hit, shown or not
    files: int  # holding a hit
    searched: int  # claimed files searched
    source: str = ""  # the alias searched


def claimed(alias: str, paths: Iterable[str], claims: Claims, glob: str | None = None) -> list[str]:
    """The paths a register cites unprefixed as `alias`'s (all, without claims), matching
    `glob` (on the full path or as cited) when given."""
    if claims.get(alias):
        paths = [p for p in paths if not written_path(alias, p, claims).startswith(f"{alias}:")]
    if glob is None:
        return list(paths)
    only = Claims({"glob": (Claim(glob),)})
    return [
        p for p in paths if claimants(p, only) or claimants(written_path(alias, p, claims), only)
    ]


def grep(
    alias: str,
    paths: Sequence[str],
    read: Read,
    needle: str,
    claims: Claims,
    limit: int,
    ignore_case: bool = False,
) -> Hits:
    """Each line holding `needle` in the files `paths`, cited with a quote around it."""
    if not needle.strip():
        raise CiteError("--grep needs some text to find")
    # A regular expression of the literal text: its match gives the offset in the line as
    # written, which lowering the line first would not (`ß` lowers and folds to two letters).
    pattern = re.compile(re.escape(needle), re.IGNORECASE if ignore_case else 0)
    found: list[Cited] = []
    total, files = 0, 0
    for path in sorted(paths):
        lines = read(path)
        hits = [(n, m) for n, line in enumerate(lines or (), 1) if (m := pattern.search(line))]
        files += bool(hits)
        total += len(hits)
        for number, match in hits[: max(0, limit - len(found))]:
            quote = quote_of([match.string], match.start())
            found.append(cited(Target(alias, path, number, number), quote, claims))
    return Hits(found, total, files, len(paths), alias)

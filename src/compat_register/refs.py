"""Resolve-references stage: IDs and ID ranges in prose, external link patterns, backlinks.

`scan` is pure: it finds the references in one piece of Markdown. `resolve` checks them
against the register set, yields diagnostics, and fills every entry's backlinks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .citations import PROSE_CITATION, is_citation_path
from .diagnostics import Diagnostic, Severity
from .loader import Document, Path_
from .models import Entry, LinkPattern, RegisterSet, Where
from .prose import occurrences_before, outside_code
from .registerset import prose_paths

_ID = r"[A-Z][A-Z0-9]*-[0-9]+"
ID = re.compile(rf"{_ID}\Z")
REFERENCE = re.compile(rf"(?<![\w-])(?P<first>{_ID})(?:\.\.(?P<last>{_ID}))?(?![\w-])")


@dataclass(frozen=True)
class Ref:
    """A reference found in prose: an ID, an ID range, or an external link pattern match."""

    start: int
    end: int
    text: str
    first: str = ""
    last: str = ""
    url: str = ""
    """Set for an external link pattern match."""


def scan(text: str, links: list[LinkPattern]) -> list[Ref]:
    """References in Markdown `text`, in order, outside code and outside citation tokens."""
    taken: list[tuple[int, int]] = [
        m.span() for m in outside_code(PROSE_CITATION, text) if is_citation_path(m["path"])
    ]
    found: list[Ref] = []
    for link in links:
        for match in outside_code(link.pattern, text):
            if not _overlaps(match.span(), taken):
                found.append(
                    Ref(match.start(), match.end(), match.group(0), url=link.url_for(match))
                )
                taken.append(match.span())
    for match in outside_code(REFERENCE, text):
        if not _overlaps(match.span(), taken):
            first, last = match["first"], match["last"] or ""
            found.append(Ref(match.start(), match.end(), match.group(0), first, last))
    return sorted(found, key=lambda ref: ref.start)


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in taken)


def prefix_of(entry_id: str) -> str:
    return entry_id.rsplit("-", 1)[0]


def number_of(entry_id: str) -> int:
    return int(entry_id.rsplit("-", 1)[1])


@dataclass
class _Context:
    registers: RegisterSet
    entries: dict[str, Entry]
    published: dict[str, str]
    """Prefix -> register slug."""
    pending: set[str]


def resolve(registers: RegisterSet, documents: dict[str, Document]) -> Iterator[Diagnostic]:
    """Check every reference and fill backlinks. Unknown prefixes are plain text."""
    published = {r.prefix: r.slug for r in registers.registers if r.prefix}
    # a prefix both published and still listed as pending is published (validate warns)
    pending = set(registers.sources.pending) - set(published)
    ctx = _Context(registers, registers.entries(), published, pending)
    backlinks: dict[str, list[str]] = {entry_id: [] for entry_id in ctx.entries}
    for register in registers.registers:
        doc = documents[register.file]
        for path, owner in _prose_fields(doc):
            text = _get_text(doc, path)
            for ref in scan(text, registers.sources.links):
                if ref.url:
                    continue
                occurrence = occurrences_before(text, ref.text, ref.start)
                mark = doc.token_mark(path, ref.text, occurrence)
                where = Where(doc.file, mark.line, mark.col)
                yield from _check(ref, ctx, where, owner, backlinks)
    for entry_id, sources in backlinks.items():
        ctx.entries[entry_id].backlinks = list(dict.fromkeys(sources))


def _prose_fields(doc: Document) -> Iterator[tuple[Path_, str]]:
    data = doc.data
    stem = doc.file.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if isinstance(data.get("summary"), str):
        yield ("summary",), stem
    entries = data.get("entries")
    for index, entry in enumerate(entries if isinstance(entries, list) else []):
        if isinstance(entry, dict):
            owner = entry.get("id") if isinstance(entry.get("id"), str) else stem
            for path in prose_paths(entry):
                yield ("entries", index, *path), str(owner)


def _get_text(doc: Document, path: Path_) -> str:
    value = doc.data
    for part in path:
        value = value[part]
    return str(value)


def _check(
    ref: Ref,
    ctx: _Context,
    where: Where,
    owner: str,
    backlinks: dict[str, list[str]],
) -> Iterator[Diagnostic]:
    ends = [ref.first] + ([ref.last] if ref.last else [])
    prefixes = {prefix_of(end) for end in ends}
    if not prefixes & (set(ctx.published) | ctx.pending):
        return  # M-3, UTF-8: not a register prefix, so not a reference

    def problem(code: str, message: str, severity: Severity = "error") -> Diagnostic:
        return Diagnostic(where.file, where.line, where.col, severity, owner, code, message)

    if prefixes <= ctx.pending:
        names = ", ".join(sorted(prefixes))
        yield problem(
            "pending-reference", f"{ref.text}: register {names} is not published yet", "warning"
        )
        return
    missing = [end for end in ends if end not in ctx.entries and prefix_of(end) not in ctx.pending]
    for end in missing:
        yield problem("dangling-reference", f"{end} does not exist{_nearest(end, ctx)}")
    if missing:
        return
    if ref.last:
        yield from _check_range(ref, ctx, problem)
    for target in _targets(ref, ctx):
        if target != owner:
            backlinks[target].append(owner)


def _check_range(
    ref: Ref, ctx: _Context, problem: Callable[[str, str], Diagnostic]
) -> Iterator[Diagnostic]:
    first, last = ref.first, ref.last
    registers = {ctx.entries[e].register for e in (first, last) if e in ctx.entries}
    if len(registers) > 1:
        yield problem("bad-range", f"range {ref.text} spans two registers")
    elif prefix_of(first) == prefix_of(last) and number_of(last) < number_of(first):
        yield problem("reversed-range", f"range {ref.text} is reversed: write {last}..{first}")


def _targets(ref: Ref, ctx: _Context) -> list[str]:
    """The entries a reference points at: one ID, or every entry a same-prefix range spans."""
    if not ref.last or prefix_of(ref.first) != prefix_of(ref.last):
        return [e for e in (ref.first, ref.last) if e in ctx.entries]
    low, high = number_of(ref.first), number_of(ref.last)
    prefix = prefix_of(ref.first)
    return [
        entry_id
        for entry_id in ctx.entries
        if ID.match(entry_id)
        and prefix_of(entry_id) == prefix
        and low <= number_of(entry_id) <= high
    ]


def _nearest(entry_id: str, ctx: _Context) -> str:
    prefix = prefix_of(entry_id)
    siblings = sorted(e for e in ctx.entries if ID.match(e) and prefix_of(e) == prefix)
    if not siblings:
        return ""
    return f" ({ctx.published.get(prefix, prefix)} has {siblings[0]}..{siblings[-1]})"

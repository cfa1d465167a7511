"""Resolve-references stage: the IDs and ranges of prose checked against the register set,
and the backlinks they make."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import NamedTuple

from ..citations.nonprose import occurrences_before
from ..model.diagnostic import Diagnostic, Severity
from ..model.positions import Path_, Where
from ..model.prose import Prose, Segment
from ..model.registers import LinkPattern, RegisterSet
from ..reading import segments
from ..reading.document import Document
from ..reading.ids import ID, PREFIX, Number, number_of, prefix_of


def scan(text: str, links: list[LinkPattern]) -> list[Segment]:
    """The IDs, ID ranges and link pattern matches of Markdown `text`, in order."""
    return segments.of(text, links).of_kind("reference", "range", "pattern")


class _Context:
    """What a reference is checked against: the entries, the prefixes published (-> slug),
    pending or either, the IDs written twice, each prefix's (number, ID) for ranges."""

    def __init__(self, registers: RegisterSet) -> None:
        self.entries = registers.entries()
        self.published = {r.prefix: r.slug for r in registers.registers if r.prefix}
        # a prefix both published and still listed as pending is published (rules warns)
        self.pending = set(registers.sources.pending) - set(self.published)
        self.known = set(self.published) | self.pending
        written = Counter(e.id for register in registers.registers for e in register.entries)
        self.repeated = {entry_id for entry_id, times in written.items() if times > 1}
        self.numbered: dict[str, list[tuple[Number, str]]] = {}
        for name in filter(ID.match, self.entries):
            self.numbered.setdefault(prefix_of(name), []).append((number_of(name), name))


def resolve(
    registers: RegisterSet, documents: dict[str, Document]
) -> tuple[list[Diagnostic], RegisterSet]:
    """Every reference checked (an unknown prefix is plain text), and a new register set
    with the backlinks: the IDs (or register slugs) whose prose references each entry, in
    file order, by entry key (an ID written twice has them on its last entry)."""
    ctx = _Context(registers)
    backlinks: dict[str, list[str]] = {entry_id: [] for entry_id in ctx.entries}
    diagnostics: list[Diagnostic] = []
    for register in registers.registers:
        doc = documents[register.file]
        texts = [(register.summary, register.slug)] if isinstance(register.summary, Prose) else []
        texts += [(text, entry.id) for entry in register.entries for text in entry.texts]
        for text, owner in texts:  # the summary's (the register's), then each entry's
            for ref in text.of_kind("reference", "range"):
                place = _Place(doc, text.field, text, owner)
                diagnostics.extend(_check(ref, ctx, place, backlinks))
    by_entry = {e.key: list(dict.fromkeys(backlinks[i])) for i, e in ctx.entries.items()}
    return diagnostics, replace(registers, backlinks=by_entry)


class _Place(NamedTuple):
    """One prose field: where its tokens were written, and whose problems they are."""

    doc: Document
    path: Path_
    text: str
    owner: str

    def problem(
        self, token: str, start: int, code: str, message: str, severity: Severity = "error"
    ) -> Diagnostic:
        occurrence = occurrences_before(self.text, token, start)
        mark = self.doc.token_mark(self.path, token, occurrence)
        where = Where(self.doc.file, mark.line, mark.col)
        return Diagnostic.at(where, id=self.owner, code=code, message=message, severity=severity)

    def written(self, segment: Segment) -> str:
        return self.text[segment.start : segment.end]


def _check(
    ref: Segment, ctx: _Context, place: _Place, backlinks: dict[str, list[str]]
) -> Iterator[Diagnostic]:
    ends = [ref.first] + ([ref.last] if ref.last else [])
    prefixes = {prefix_of(end) for end in ends}
    known = ctx.known
    if not prefixes & known:
        # M-3, UTF-8: not a register prefix, so not a reference; but KX-04 beside a
        # register KV is most likely KV-04 mistyped.
        for end in ends:
            if guess := _misspelt_prefix(prefix_of(end), known):
                meant = f"{guess}-{end.rsplit('-', 1)[1]}"
                message = (
                    f"{end}: no register has the prefix {prefix_of(end)}; did you mean {meant}?"
                )
                start = ref.start if end == ref.first else ref.end - len(end)
                yield place.problem(end, start, "unknown-prefix", message, "warning")
        return
    if prefixes <= ctx.pending:
        names = ", ".join(sorted(prefixes))
        written = place.written(ref)
        message = f"{written}: register {names} is not published yet"
        yield place.problem(written, ref.start, "pending-reference", message, "warning")
        return
    missing = [end for end in ends if end not in ctx.entries and prefix_of(end) not in ctx.pending]
    for end in missing:
        # the last end of a range is pointed at where it is written, not where the range starts
        start = ref.start if end == ref.first else ref.end - len(end)
        message = f"{end} does not exist{_nearest(end, ctx)}"
        yield place.problem(end, start, "dangling-reference", message)
    if missing:
        return
    if ref.last:
        yield from _check_range(ref, ctx, place)
    for target in _targets(ref, ctx):
        if target != place.owner:
            backlinks[target].append(place.owner)


def _check_range(ref: Segment, ctx: _Context, place: _Place) -> Iterator[Diagnostic]:
    first, last, written = ref.first, ref.last, place.written(ref)
    registers = {ctx.entries[e].register for e in (first, last) if e in ctx.entries}
    if len(registers) > 1:
        message = f"range {written} spans two registers"
        yield place.problem(written, ref.start, "bad-range", message)
    elif prefix_of(first) == prefix_of(last) and number_of(last) < number_of(first):
        message = f"range {written} is reversed: write {last}..{first}"
        yield place.problem(written, ref.start, "reversed-range", message)


def _targets(ref: Segment, ctx: _Context) -> list[str]:
    """The entries a reference points at: one ID, or every entry a same-prefix range spans."""
    if not ref.last or prefix_of(ref.first) != prefix_of(ref.last):
        return [e for e in (ref.first, ref.last) if e in ctx.entries]
    low, high = number_of(ref.first), number_of(ref.last)
    numbered = ctx.numbered.get(prefix_of(ref.first), [])
    return [entry_id for number, entry_id in numbered if low <= number <= high]


def _nearest(entry_id: str, ctx: _Context) -> str:
    prefix = prefix_of(entry_id)
    siblings = sorted(e for e in ctx.entries if ID.match(e) and prefix_of(e) == prefix)
    if not siblings:
        return ""
    has = f"{ctx.published.get(prefix, prefix)} has {siblings[0]}..{siblings[-1]}"
    numbers = [number_of(e) for e in siblings]
    if not min(numbers) < number_of(entry_id) < max(numbers):
        return f" ({has})"
    # A gap in the range: often an entry written with the ID of another by mistake.
    twice = sorted(e for e in ctx.repeated if prefix_of(e) == prefix)
    if twice:
        return f" ({has}, but not {entry_id}: {twice[0]} is written twice; is one {entry_id}?)"
    return f" ({has}, but not {entry_id})"


def _misspelt_prefix(prefix: str, known: set[str]) -> str | None:
    """The one known prefix one edit (or swap) away from a `prefix` of two letters or more."""
    if len(prefix) < 2:
        return None  # M-3 is one letter from any two-letter prefix: no guess there
    close = sorted(p for p in known if PREFIX.fullmatch(p) and _one_edit(prefix, p))
    return close[0] if len(close) == 1 else None


def _one_edit(a: str, b: str) -> bool:
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
        return len(diff) == 1 or (swapped and a[diff[1]] == b[diff[0]])
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))

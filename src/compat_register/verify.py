"""Resolve-citations stage: every citation against the file at its source's pinned commit.

`judge` is pure (a citation and the file's lines in, an `Outcome` out); `verify` does the
I/O: it finds each source's checkout, resolves the pin, and reads blobs through gitsource.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from .citations import FileText, normalise, normalise_quote
from .diagnostics import Diagnostic
from .gitsource import GitSourceError
from .models import Citation, RegisterSet
from .pins import Checkouts

OUTCOMES = ("ok", "moved", "broken", "missing-file", "out-of-range", "unresolved", "unverified")
"""Every citation gets exactly one of these."""


@dataclass
class Outcome:
    """What verifying one citation found."""

    citation: Citation
    outcome: str
    message: str = ""
    proposed: tuple[int, int] | None = None
    """For `moved`: the lines where the quote is now (the nearest occurrence)."""
    excerpt: list[str] | None = None
    """The cited lines at the pinned commit, when the file was read."""
    first_line: int = 0
    """The line number of `excerpt[0]`."""
    commit: str | None = None
    """The full sha the citation was checked at."""

    @property
    def stale(self) -> bool:
        return self.outcome not in ("ok", "unverified")


def judge(citation: Citation, text: FileText | None, where: str) -> Outcome:
    """The outcome of one citation given its file's text (None: no such file).

    `where` names the file and commit for messages, e.g. `server.go @ 05c78b2`.
    """
    if text is None:
        return Outcome(citation, "missing-file", f"{where} does not exist")
    start, end = citation.start, citation.end
    in_range = end <= len(text.lines)
    excerpt = text.lines[start - 1 : end] if in_range else None
    if in_range and _quoted(citation.quote, excerpt or []):
        return Outcome(citation, "ok", excerpt=excerpt, first_line=start)
    quote = normalise_quote(citation.quote) if citation.quote else ""
    if in_range and quote and quote in normalise(" ".join(excerpt or [])):
        return Outcome(citation, "ok", excerpt=excerpt, first_line=start)
    if quote and (span := text.find_nearest(quote, start)):
        proposed = (span[0], max(span[1], span[0] + end - start))
        message = _moved_message(citation, where, proposed, in_range)
        return Outcome(citation, "moved", message, proposed, excerpt, start)
    if not in_range:
        cited = f"line {citation.start} is" if citation.start == end else f"lines {start}-{end} are"
        message = f"{cited} outside {where}, which has {len(text.lines)} lines"
        return Outcome(citation, "out-of-range", message)
    message = f"quote “{citation.quote}” is not in {where}: the cited text is gone"
    return Outcome(citation, "broken", message, excerpt=excerpt, first_line=start)


def _quoted(quote: str | None, excerpt: list[str]) -> bool:
    # The quick test: most quotes are copied verbatim from one line.
    return not quote or any(quote in line for line in excerpt)


def _moved_message(
    citation: Citation, where: str, proposed: tuple[int, int], in_range: bool
) -> str:
    lines = str(proposed[0]) if proposed[0] == proposed[1] else f"{proposed[0]}-{proposed[1]}"
    was = f"is no longer at line {citation.lines_text}" if in_range else "is past the end"
    return f"quote “{citation.quote}” {was} of {where}; found at {lines} (register fix rewrites it)"


def verify(
    registers: RegisterSet,
    registers_dir: Path,
    *,
    skip: Iterable[str] = (),
    offline: bool = False,
    environ: Mapping[str, str],
) -> tuple[list[Outcome], list[Diagnostic]]:
    """Verify every citation; returns one outcome each and the diagnostics to report."""
    skipped = set(skip)
    checkouts = Checkouts(registers_dir, environ)
    try:
        if not offline:
            _prefetch(registers, checkouts, skipped)
        outcomes = [
            _verify_one(citation, registers, checkouts, offline or citation.source in skipped)
            for citation in registers.citations()
        ]
    finally:
        checkouts.close()
    diagnostics = list(_pin_problems(registers, checkouts, outcomes))
    diagnostics.extend(_stale(outcomes))
    return outcomes, diagnostics


def _prefetch(registers: RegisterSet, checkouts: Checkouts, skipped: set[str]) -> None:
    paths: dict[str, set[str]] = {}
    for citation in registers.citations():
        if citation.source and citation.repo_path and citation.source not in skipped:
            paths.setdefault(citation.source, set()).add(citation.repo_path)
    for alias, wanted in paths.items():
        checkouts.prefetch(registers.sources.sources[alias], wanted)


def _verify_one(
    citation: Citation, registers: RegisterSet, checkouts: Checkouts, skipped: bool
) -> Outcome:
    source = registers.sources.sources.get(citation.source or "")
    if source is None or citation.repo_path is None:
        return Outcome(citation, "unresolved", "no source for this path")
    if skipped:
        return Outcome(citation, "unverified", "skipped")
    pin = checkouts.pin(source)
    if pin.checkout is None or pin.sha is None:
        return Outcome(citation, "unverified", pin.problem or "")
    where = f"{citation.repo_path} @ {source.alias} {source.commit}"
    try:
        text = checkouts.text(pin, citation.repo_path)
    except GitSourceError as err:
        return Outcome(citation, "broken", f"{where}: {err}", commit=pin.sha)
    outcome = judge(citation, text, where)
    outcome.commit = pin.sha
    return outcome


def _pin_problems(
    registers: RegisterSet, checkouts: Checkouts, outcomes: list[Outcome]
) -> Iterator[Diagnostic]:
    """One line per source that could not be verified, at the source in sources.yaml."""
    unverified: dict[str, int] = {}
    for outcome in outcomes:
        if outcome.outcome == "unverified" and outcome.message != "skipped":
            alias = outcome.citation.source or ""
            unverified[alias] = unverified.get(alias, 0) + 1
    for alias, number in unverified.items():
        source = registers.sources.sources[alias]
        where = source.where
        noun = "citation" if number == 1 else "citations"
        message = f"{checkouts.pins[alias].problem}; {number} {noun} unverified"
        yield Diagnostic(
            where.file, where.line, where.col, "error", alias, "source-unavailable", message
        )


def _stale(outcomes: list[Outcome]) -> Iterator[Diagnostic]:
    """One line per stale citation, at the citation in its register file."""
    for outcome in outcomes:
        if outcome.stale and outcome.outcome != "unresolved":  # check already said why
            c = outcome.citation
            code = f"citation-{outcome.outcome}"
            yield Diagnostic(
                c.where.file, c.where.line, c.where.col, "error", c.entry, code, outcome.message
            )


def summary(outcomes: list[Outcome]) -> dict[str, int]:
    """Counts per outcome, every outcome named even when zero."""
    counts = dict.fromkeys(OUTCOMES, 0)
    for outcome in outcomes:
        counts[outcome.outcome] += 1
    return counts

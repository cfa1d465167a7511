"""A citation's outcome: what verifying it found, judged from its file's text alone.

`judge` is pure (a citation, the file's lines and its kind in, an `Outcome` out); `verify`
reads the files and applies the review stamps.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, get_args

from ..citations.compare import Kind, quoted
from ..model.notation import lines_text
from ..model.registers import Citation
from ..sources.filetext import FileText

OutcomeName = Literal[
    "ok",
    "moved",
    "broken",
    "missing-file",
    "out-of-range",
    "unresolved",
    "unverified",
    "changed",
    "unstamped",
]
"""Every citation gets exactly one of these. `changed` and `unstamped` come from the review
stamps (citations.lock): a citation that would be `ok` but whose lines no longer hash to its
stamp is `changed`, one without a stamp `unstamped`; without a lock file neither occurs.
The one home of the names: `verify` gives them, the reports and the site show them."""

OUTCOMES: tuple[OutcomeName, ...] = get_args(OutcomeName)
"""Every outcome, in the order the summaries count them."""

NOT_STALE: frozenset[OutcomeName] = frozenset({"ok", "unverified"})
"""The outcomes that say nothing needs fixing: every other one is stale."""

WARNINGS: frozenset[OutcomeName] = frozenset({"unstamped"})
"""Outcomes reported as warnings, not errors."""

AS_CITED: frozenset[OutcomeName] = frozenset({"ok", "changed", "unstamped"})
"""The outcomes of citations whose lines read as cited (what a review stamp may record)."""


class Outcome(NamedTuple):
    """What verifying one citation found.

    Immutable (the stamps' verdicts and a followed pin's make new ones, `_replace`). A named
    tuple, not a frozen dataclass, whose `__init__` costs four times as much: a large set
    verifies tens of thousands of citations.
    """

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
    file_lines: list[str] | None = None
    """Every line of the cited file (shared, not copied), for context around the excerpt."""

    def __repr__(self) -> str:  # without `file_lines`: a whole file in every message
        fields = self._asdict()
        del fields["file_lines"]
        return f"Outcome({', '.join(f'{name}={value!r}' for name, value in fields.items())})"

    def shown(self, context: int = 3) -> tuple[list[str], int]:
        """The cited lines with up to `context` lines either side, and the first one's number."""
        if self.excerpt is None:
            return [], 0
        if self.file_lines is None:
            return self.excerpt, self.first_line
        first = max(1, self.first_line - context)
        last = min(len(self.file_lines), self.first_line + len(self.excerpt) - 1 + context)
        return self.file_lines[first - 1 : last], first

    @property
    def stale(self) -> bool:
        return self.outcome not in NOT_STALE

    @property
    def failing(self) -> bool:
        """Whether this outcome fails `register verify` (stale, and not a warning)."""
        return self.stale and self.outcome not in WARNINGS


def judge(
    citation: Citation, text: FileText | None, where: str, kind: Kind, commit: str | None = None
) -> Outcome:
    """The outcome of one citation given its file's text (None: no such file), its quote
    compared by the rule of the file's `kind` (`compare.source_kind`), checked at `commit`.

    `where` names the file and commit for messages, e.g. `server.go @ 05c78b2`.
    """
    if text is None:
        return Outcome(citation, "missing-file", f"{where} does not exist", commit=commit)
    start, end = citation.start, citation.end
    in_range = end <= len(text.lines)
    excerpt = text.lines[start - 1 : end] if in_range else None
    quote = citation.quote
    read = _Read(citation, excerpt, start, commit, text.lines)
    if in_range and (not quote or quoted(quote, excerpt or [], kind)):
        return read.outcome("ok")
    if quote and (span := text.find_nearest(quote, start, kind)):
        # As many lines as were cited, where the file has them.
        proposed = (span[0], min(len(text.lines), max(span[1], span[0] + end - start)))
        return read.outcome("moved", _moved_message(citation, where, proposed, in_range), proposed)
    if not in_range:
        cited = f"line {citation.start} is" if citation.start == end else f"lines {start}-{end} are"
        message = f"{cited} outside {where}, which has {len(text.lines)} lines"
        return Outcome(citation, "out-of-range", message, commit=commit)
    return read.outcome("broken", _not_found(citation, where, excerpt or []))


class _Read(NamedTuple):
    """What `judge` read of a file in range, for the outcome it makes of it."""

    citation: Citation
    excerpt: list[str] | None
    first_line: int
    commit: str | None
    lines: list[str]

    def outcome(
        self, name: str, message: str = "", proposed: tuple[int, int] | None = None
    ) -> Outcome:
        file_lines = self.lines if self.excerpt is not None else None
        return Outcome(
            self.citation,
            name,
            message,
            proposed,
            self.excerpt,
            self.first_line,
            self.commit,
            file_lines,
        )


def _not_found(citation: Citation, where: str, excerpt: list[str]) -> str:
    """A quote that is nowhere in the file: never there (mistyped) or removed, which the
    pinned commit alone cannot tell; the cited lines, shown, often tell at a glance."""
    cited = (
        f"line {citation.start} reads" if len(excerpt) == 1 else f"lines {citation.lines_text} read"
    )
    shown = " ".join(line.strip() for line in excerpt)
    shown = shown if len(shown) <= 80 else shown[:79] + "…"
    return (
        f"quote “{citation.quote}” is nowhere in {where} (mistyped, or removed before this "
        f"commit?): {cited} “{shown}”"
    )


def _moved_message(
    citation: Citation, where: str, proposed: tuple[int, int], in_range: bool
) -> str:
    lines = lines_text(*proposed)
    was = f"is no longer at line {citation.lines_text}" if in_range else "is past the end"
    return f"quote “{citation.quote}” {was} of {where}; found at {lines} (register fix rewrites it)"


def summary(outcomes: list[Outcome]) -> dict[str, int]:
    """The number of citations, then the count of each outcome, every outcome named even
    when zero: each citation has one outcome, so the counts add up to the number (an
    `unstamped` citation reads as cited, but is counted there, not under `ok`)."""
    counts: dict[str, int] = {"citations": len(outcomes), **dict.fromkeys(OUTCOMES, 0)}
    for outcome in outcomes:
        counts[outcome.outcome] += 1
    return counts

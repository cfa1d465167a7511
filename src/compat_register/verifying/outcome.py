"""A citation's outcome, judged from its file's text alone (`judge`, pure)."""

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
"""Every citation gets one. `changed` (its lines no longer hash to its stamp) and
`unstamped` (no stamp) come from citations.lock, when there is one."""

OUTCOMES: tuple[OutcomeName, ...] = get_args(OutcomeName)
"""Every outcome, in the order the summaries count them."""

NOT_STALE: frozenset[OutcomeName] = frozenset({"ok", "unverified"})
"""The outcomes that say nothing needs fixing: every other one is stale."""

WARNINGS: frozenset[OutcomeName] = frozenset({"unstamped"})
"""Outcomes reported as warnings, not errors."""

AS_CITED: frozenset[OutcomeName] = frozenset({"ok", "changed", "unstamped"})
"""The outcomes of citations whose lines read as cited (what a review stamp may record)."""


class Outcome(NamedTuple):
    """What verifying one citation found (a named tuple: a dataclass's `__init__` costs
    four times as much, on tens of thousands)."""

    citation: Citation
    outcome: str
    message: str = ""
    proposed: tuple[int, int] | None = None
    """For `moved`: the lines where the quote is now (the nearest occurrence)."""
    first_line: int = 0
    last_line: int = 0
    """The cited lines judged, in `file_lines`."""
    commit: str | None = None
    """The full sha the citation was checked at."""
    file_lines: list[str] | None = None
    """Every line of the cited file when it was read in range (shared, not copied)."""

    def __repr__(self) -> str:  # without `file_lines`: a whole file in every message
        fields = self._asdict()
        del fields["file_lines"]
        return f"Outcome({', '.join(f'{name}={value!r}' for name, value in fields.items())})"

    @property
    def excerpt(self) -> list[str] | None:
        """The cited lines at the pinned commit, when the file was read (a slice made when
        asked: tens of thousands of lists kept would each be walked by the collector)."""
        lines = self.file_lines
        return None if lines is None else lines[self.first_line - 1 : self.last_line]

    def shown(self, context: int = 3) -> tuple[list[str], int]:
        """The cited lines with up to `context` lines either side, and the first one's number."""
        if self.file_lines is None:
            return [], 0
        first = max(1, self.first_line - context)
        last = min(len(self.file_lines), self.last_line + context)
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
    compared by the rule of the file's `kind`, checked at `commit`; `where` names the file
    and commit for messages (`server.go @ 05c78b2`)."""
    if text is None:
        return Outcome(citation, "missing-file", f"{where} does not exist", commit=commit)
    start, end, quote, lines = citation.start, citation.end, citation.quote, text.lines
    excerpt = lines[start - 1 : end] if end <= len(lines) else None
    if excerpt is not None and (not quote or quoted(quote, excerpt, kind)):
        return Outcome(citation, "ok", "", None, start, end, commit, lines)
    if quote and (span := text.find_nearest(quote, start, kind)):
        # As many lines as were cited, where the file has them.
        proposed = (span[0], min(len(lines), max(span[1], span[0] + end - start)))
        at = lines_text(*proposed)
        was = f"no longer at line {citation.lines_text}" if excerpt is not None else "past the end"
        message = f"quote “{quote}” is {was} of {where}; found at {at} (register fix rewrites it)"
        shared = lines if excerpt is not None else None
        return Outcome(citation, "moved", message, proposed, start, end, commit, shared)
    if excerpt is None:
        cited = f"line {start} is" if start == end else f"lines {start}-{end} are"
        message = f"{cited} outside {where}, which has {len(lines)} lines"
        return Outcome(citation, "out-of-range", message, commit=commit)
    message = _not_found(citation, where, excerpt)
    return Outcome(citation, "broken", message, None, start, end, commit, lines)


def _not_found(citation: Citation, where: str, excerpt: list[str]) -> str:
    """A quote nowhere in the file (mistyped, or removed: the pin cannot tell), with the
    cited lines, which often tell at a glance."""
    cited = (
        f"line {citation.start} reads" if len(excerpt) == 1 else f"lines {citation.lines_text} read"
    )
    shown = " ".join(line.strip() for line in excerpt)
    shown = shown if len(shown) <= 80 else shown[:79] + "…"
    return (
        f"quote “{citation.quote}” is nowhere in {where} (mistyped, or removed before this "
        f"commit?): {cited} “{shown}”"
    )


def summary(outcomes: list[Outcome]) -> dict[str, int]:
    """The number of citations, then the count of each outcome (every one named), which
    add up to it."""
    counts: dict[str, int] = {"citations": len(outcomes), **dict.fromkeys(OUTCOMES, 0)}
    for outcome in outcomes:
        counts[outcome.outcome] += 1
    return counts

"""Resolve-citations stage: every citation against the file at its source's pinned commit.

`judge` is pure (a citation and the file's lines in, an `Outcome` out); `verify_against`
does the I/O: it finds each source's checkout, resolves the pin, and reads blobs through
gitsource (`pins.Checkouts`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..checking.safety import check_commit
from ..citations.syntax import normalise, normalise_quote
from ..model.diagnostic import Diagnostic, Severity
from ..model.notation import lines_text
from ..model.registers import Citation, Register, RegisterSet, Sources
from ..sources.filetext import FileText
from ..sources.gitsource import GitSourceError
from ..sources.pins import Checkouts, Pin
from . import stamps
from .follow import Followed, follow

OUTCOMES = (
    "ok",
    "moved",
    "broken",
    "missing-file",
    "out-of-range",
    "unresolved",
    "unverified",
    "changed",
    "unstamped",
)
"""Every citation gets exactly one of these. `changed` and `unstamped` come from the review
stamps (citations.lock): a citation that would be `ok` but whose lines no longer hash to its
stamp is `changed`, one without a stamp `unstamped`; without a lock file neither occurs."""

WARNINGS = frozenset({"unstamped"})
"""Outcomes reported as warnings, not errors."""


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
    file_lines: list[str] | None = field(default=None, repr=False)
    """Every line of the cited file (shared, not copied), for context around the excerpt."""

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
        return self.outcome not in ("ok", "unverified")

    @property
    def failing(self) -> bool:
        """Whether this outcome fails `register verify` (stale, and not a warning)."""
        return self.stale and self.outcome not in WARNINGS


def judge(citation: Citation, text: FileText | None, where: str) -> Outcome:
    """The outcome of one citation given its file's text (None: no such file).

    `where` names the file and commit for messages, e.g. `server.go @ 05c78b2`.
    """
    outcome = _judge(citation, text, where)
    if outcome.excerpt is not None and text is not None:
        outcome.file_lines = text.lines
    return outcome


def _judge(citation: Citation, text: FileText | None, where: str) -> Outcome:
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
        # As many lines as were cited, where the file has them.
        proposed = (span[0], min(len(text.lines), max(span[1], span[0] + end - start)))
        message = _moved_message(citation, where, proposed, in_range)
        return Outcome(citation, "moved", message, proposed, excerpt, start)
    if not in_range:
        cited = f"line {citation.start} is" if citation.start == end else f"lines {start}-{end} are"
        message = f"{cited} outside {where}, which has {len(text.lines)} lines"
        return Outcome(citation, "out-of-range", message)
    message = _not_found(citation, where, excerpt or [])
    return Outcome(citation, "broken", message, excerpt=excerpt, first_line=start)


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


def _quoted(quote: str | None, excerpt: list[str]) -> bool:
    # The quick test: most quotes are copied verbatim from one line.
    return not quote or any(quote in line for line in excerpt)


def _moved_message(
    citation: Citation, where: str, proposed: tuple[int, int], in_range: bool
) -> str:
    lines = lines_text(*proposed)
    was = f"is no longer at line {citation.lines_text}" if in_range else "is past the end"
    return f"quote “{citation.quote}” {was} of {where}; found at {lines} (register fix rewrites it)"


def verify_against(
    registers: RegisterSet,
    registers_dir: Path,
    against: tuple[str, str] | None,
    *,
    skip: Iterable[str] = (),
    offline: bool = False,
    environ: Mapping[str, str],
    checkouts: Checkouts | None = None,
) -> tuple[list[Outcome], list[Diagnostic], Preview | None]:
    """Verify every citation: one outcome each, the diagnostics to report, and with
    `against=(ALIAS, REV)` the outcomes of that source's citations as if its pin were at REV.

    The citations of ALIAS are followed from the pin to REV through git's diff (as
    `register bump` would move them) and judged there; the `Preview` lists those that
    the move would make stale. REV is a commit, a branch, a tag or `HEAD` of the checkout.
    `checkouts` may come from the caller, already reading (`background_reader`); the
    caller then closes them.
    """
    skipped = set(skip)
    owned = checkouts is None
    checkouts = checkouts or Checkouts(registers_dir, environ)
    preview = None
    try:
        if not offline:
            ask(registers.citations(), registers.sources, checkouts, skipped)
            checkouts.collect()
        outcomes = [
            _verify_one(citation, registers, checkouts, offline or citation.source in skipped)
            for citation in registers.citations()
        ]
        if against is not None:
            preview = _preview(registers, checkouts, against, outcomes)
    finally:
        if owned:
            checkouts.close()
    diagnostics = list(_pin_problems(registers, checkouts, outcomes))
    diagnostics.extend(_check_stamps(registers_dir, registers.sources, outcomes, preview))
    diagnostics.extend(_stale(outcomes))
    if preview is not None:
        pairs = zip(preview.baseline, preview.moved, strict=True)
        stale = [new for old, new in pairs if new.failing and not old.failing]
        preview.stale = sorted(stale, key=lambda o: _place(o.citation))
    return outcomes, diagnostics, preview


def background_reader(
    checkouts: Checkouts, skip: Iterable[str]
) -> Callable[[Register, Sources], None]:
    """A function to call with each register as soon as it is read and its citations
    resolved: it starts reading the files they cite, so git reads them while the rest of
    the registers are parsed."""
    skipped = set(skip)

    def read(register: Register, sources: Sources) -> None:
        ask(register.citations(), sources, checkouts, skipped)

    return read


def ask(
    citations: Iterable[Citation], sources: Sources, checkouts: Checkouts, skipped: set[str]
) -> None:
    """Ask each source's checkout for the files `citations` name (not yet asked for)."""
    paths: dict[str, set[str]] = {}
    for citation in citations:
        if citation.source and citation.repo_path and citation.source not in skipped:
            paths.setdefault(citation.source, set()).add(citation.repo_path)
    for alias, wanted in paths.items():
        checkouts.ask(sources.sources[alias], wanted)


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
        if check_commit(source.commit) is not None:
            continue  # the schema's error on `commit:` is the one thing to fix
        where = source.where
        noun = "citation" if number == 1 else "citations"
        message = f"{checkouts.pins[alias].problem}; {number} {noun} unverified"
        yield Diagnostic.at(where, id=alias, code="source-unavailable", message=message)


def _stale(outcomes: list[Outcome]) -> Iterator[Diagnostic]:
    """One line per stale citation, at the citation in its register file."""
    for outcome in outcomes:
        if outcome.stale and outcome.outcome != "unresolved":  # check already said why
            c = outcome.citation
            code = f"citation-{outcome.outcome}"
            severity: Severity = "error" if outcome.failing else "warning"
            yield Diagnostic.at(
                c.where, id=c.entry, code=code, message=outcome.message, severity=severity
            )


def summary(outcomes: list[Outcome]) -> dict[str, int]:
    """Counts per outcome, every outcome named even when zero."""
    counts = dict.fromkeys(OUTCOMES, 0)
    for outcome in outcomes:
        counts[outcome.outcome] += 1
    return counts


# --- verify --against ---------------------------------------------------------------------


class PreviewError(Exception):
    """`--against` cannot be honoured (no checkout, no such revision); one line."""


@dataclass
class Preview:
    """What `register verify --against ALIAS=REV` found."""

    alias: str
    rev: str
    commit: str
    """The full sha REV named."""
    baseline: list[Outcome]
    """The outcomes of the source's citations at the pin."""
    moved: list[Outcome]
    """The same citations followed to REV and judged there (in the same order)."""
    stale: list[Outcome] = field(default_factory=list)
    """The outcomes at REV that fail where they passed at the pin."""


def _preview(
    registers: RegisterSet, checkouts: Checkouts, against: tuple[str, str], outcomes: list[Outcome]
) -> Preview:
    """Replace the outcomes of one source's citations by their outcomes as if moved to REV."""
    alias, rev = against
    pin = checkouts.pin(registers.sources.sources[alias])
    if pin.checkout is None or pin.sha is None:
        raise PreviewError(f"--against {alias}={rev}: {pin.problem}")
    try:
        sha = pin.checkout.resolve_rev(rev)
    except GitSourceError as err:
        raise PreviewError(f"--against {alias}={rev}: {err}") from None
    if sha is None:
        raise PreviewError(f"--against {alias}={rev}: no such commit in {pin.checkout.root}")
    mine = [i for i, o in enumerate(outcomes) if o.citation.source == alias and o.commit]
    followed = follow(pin.checkout, pin.sha, sha, [outcomes[i].citation for i in mine])
    pin.checkout.prefetch(sha, {f.path for f in followed if f.lines})
    preview = Preview(alias, rev, sha, [outcomes[i] for i in mine], [])
    target = Pin(pin.checkout, sha)
    for i, moved in zip(mine, followed, strict=True):
        outcomes[i] = _judge_moved(moved, checkouts, target, f"{alias} {rev} ({sha[:7]})")
        preview.moved.append(outcomes[i])
    return preview


def _place(citation: Citation) -> tuple[str, int, int]:
    return citation.where.file, citation.where.line, citation.where.col


def _judge_moved(followed: Followed, checkouts: Checkouts, target: Pin, label: str) -> Outcome:
    """The outcome of a citation followed to another commit (`label` names it)."""
    citation, lines = followed.citation, followed.lines
    was = f"{citation.repo_path}:{citation.lines_text}"
    if lines is None:
        kind = "missing-file" if followed.file_deleted else "broken"
        return Outcome(citation, kind, f"{was}: {followed.note} at {label}", commit=target.sha)
    moved = replace(citation, repo_path=followed.path, start=lines[0], end=lines[1])
    try:
        text = checkouts.text(target, followed.path)
    except GitSourceError as err:
        return Outcome(citation, "broken", f"{was} at {label}: {err}", commit=target.sha)
    outcome = judge(moved, text, f"{followed.path} @ {label}")
    outcome.citation, outcome.commit = citation, target.sha
    if followed.kind == "changed":
        now = moved.lines_text
        now = now if followed.path == citation.repo_path else f"{followed.path}:{now}"
        outcome.outcome, outcome.message = (
            "changed",
            f"{was}: {followed.note} at {label} (now {now})",
        )
    return outcome


# --- review stamps ------------------------------------------------------------------------


def _check_stamps(
    registers_dir: Path, sources: Sources, outcomes: list[Outcome], preview: Preview | None
) -> list[Diagnostic]:
    """Apply the lock, when there is one, to the outcomes (and the preview's baseline);
    the lock's problems, and one per source whose pin moved by hand since it was written."""
    lock = stamps.read(registers_dir)
    if lock is None:
        return []
    apply_stamps(outcomes, lock.stamps)
    if preview is not None:
        apply_stamps(preview.baseline, lock.stamps)
    # A hand-moved pin under citations that all still read as cited did no harm.
    stale = {o.citation.source for o in outcomes if o.stale and o.outcome != "unstamped"}
    moved = {a: c for a, c in hand_moved_pins(lock.pins, sources).items() if a in stale}
    for outcome in outcomes:
        if outcome.outcome == "changed" and outcome.citation.source in moved:
            outcome.message = _changed_after_hand_move(outcome.citation, moved)
    return [*lock.problems, *_hand_moved(sources, moved)]


def hand_moved_pins(locked: Mapping[str, str], sources: Sources) -> dict[str, str]:
    """alias -> the `commit:` the lock recorded, for each source whose pin is now another
    commit: moved in sources.yaml by hand (bump rewrites the lock's pin as it moves one)."""
    moved = {}
    for alias, commit in locked.items():
        source = sources.sources.get(alias)
        if source is None:
            continue
        old, new = commit.lower(), source.commit.lower()
        if not (old.startswith(new) or new.startswith(old)):
            moved[alias] = commit
    return moved


def _hand_moved(sources: Sources, moved: Mapping[str, str]) -> Iterator[Diagnostic]:
    for alias, old in moved.items():
        new = sources.sources[alias].commit
        message = (
            f"commit moved from {old} to {new} since citations.lock was written, not by "
            "register bump, so no citation's lines followed it: put back "
            f"commit: {old} and run register bump {alias} {new}"
        )
        where = sources.sources[alias].where
        yield Diagnostic.at(where, id=alias, code="pin-moved-by-hand", message=message)


def _changed_after_hand_move(citation: Citation, moved: Mapping[str, str]) -> str:
    return (
        f"{citation.repo_path}:{citation.lines_text} changed since it was stamped at "
        f"{citation.source} {moved[citation.source or '']}, and the pin was moved by hand: "
        f"run register bump (see sources.yaml) before register stamp {citation.entry}"
    )


def apply_stamps(outcomes: list[Outcome], lock: Mapping[stamps.Key, str]) -> None:
    """Turn each `ok` outcome into `changed` or `unstamped` where the lock says so (in place).

    `outcomes` must be in `RegisterSet.citations()` order: a repeated citation's key counts
    its occurrences in that order, as `register stamp` did.
    """
    keys = stamps.keys(stamps.place(o.citation) for o in outcomes)
    for outcome, key in zip(outcomes, keys, strict=True):
        if outcome.outcome != "ok" or key is None or outcome.excerpt is None:
            continue
        stamp = lock.get(key)
        if stamp is None:
            outcome.outcome, outcome.message = "unstamped", _unstamped(outcome.citation)
        elif stamp != stamps.digest(outcome.excerpt):
            outcome.outcome, outcome.message = "changed", _changed(outcome.citation)


def _unstamped(citation: Citation) -> str:
    return (
        f"{citation.repo_path}:{citation.lines_text} has no review stamp in citations.lock "
        f"(read the lines, then run register stamp {citation.entry})"
    )


def _changed(citation: Citation) -> str:
    return (
        f"{citation.repo_path}:{citation.lines_text} changed since it was stamped "
        f"(read the lines, then run register stamp {citation.entry})"
    )

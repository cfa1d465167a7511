"""Resolve-citations stage: every citation against the file at its source's pinned commit,
read through `pins.Checkouts` and judged by `outcome.judge` (pure)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from ..checking.safety import check_commit
from ..citations.compare import Kind, source_kind
from ..following.follow import Followed, follow
from ..model.diagnostic import Diagnostic, Severity
from ..model.registers import Citation, RegisterSet, Source, Sources
from ..reading.folder import BesideFile
from ..sources.git import GitSourceError
from ..sources.pins import Checkouts, Pin
from ..storage.errors import RegisterError
from ..storage.layout import Paths
from ..storage.settings import Settings
from . import stamps
from .outcome import Outcome, judge, summary  # noqa: F401 - verify.summary

JudgedKey = tuple[str, str, str, str, Kind, int, int, str | None]
"""All a judgement reads: the source's alias, pinned commit and its resolved sha, the path
in the repository, the file's kind, and the citation's lines and quote."""

_LAST: dict[JudgedKey, Outcome] = {}
_KEEPING = {"on": False}


def keep_between_builds(on: bool) -> None:
    """Keep each verify's judgements for the next one (a serving process), or keep none."""
    _KEEPING["on"] = on
    _LAST.clear()


def verify_against(
    registers: RegisterSet,
    paths: Paths,
    lock: BesideFile | None,
    against: tuple[str, str] | None,
    *,
    skip: Iterable[str] = (),
    offline: bool = False,
    settings: Settings,
) -> tuple[list[Outcome], list[Diagnostic], Preview | None]:
    """Verify every citation: one outcome each, the diagnostics to report, and with
    `against=(ALIAS, REV)` a `Preview` of that source's citations followed to REV (as
    `register bump` would move them) and judged there."""
    skipped = set(skip)
    checkouts = Checkouts(paths, settings)
    preview = None
    judged: dict[JudgedKey, Outcome] = {}
    try:
        citations = registers.citations()
        keeping = _KEEPING["on"] and not offline
        keys = [
            _judged_key(c, registers, checkouts) if keeping and c.source not in skipped else None
            for c in citations
        ]
        if not offline:
            unkept = [c for c, key in zip(citations, keys, strict=True) if key not in _LAST]
            ask(unkept, registers.sources, checkouts, skipped)
        outcomes = [
            _verify_one(c, key, registers, checkouts, offline or c.source in skipped, judged)
            for c, key in zip(citations, keys, strict=True)
        ]
        if against is not None:
            preview = _preview(registers, checkouts, against, outcomes)
            found = {o.citation.key: o for o in preview.moved}
            outcomes = [found.get(o.citation.key, o) for o in outcomes]
    finally:
        checkouts.close()
    _LAST.clear()
    if _KEEPING["on"]:
        _LAST.update(judged)
    diagnostics = list(_pin_problems(registers, checkouts, outcomes))
    outcomes, preview, problems, hand_moved = _check_stamps(
        lock, registers.sources, outcomes, preview
    )
    diagnostics.extend(problems)
    # A pin moved by hand is the one cause of its citations' staleness: said once, at the
    # source, with their count (their outcomes stay, for --format json and the site).
    diagnostics.extend(_stale([o for o in outcomes if o.citation.source not in hand_moved]))
    if preview is not None:
        now = {o.citation.key: o for o in outcomes}
        moved = [now[o.citation.key] for o in preview.moved]  # stamped with the rest
        pairs = zip(preview.baseline, moved, strict=True)
        stale = [new for old, new in pairs if new.failing and not old.failing]
        stale.sort(key=lambda o: (o.citation.file, o.citation.line, o.citation.col))
        preview = replace(preview, moved=moved, stale=stale)
    return outcomes, diagnostics, preview


def ask(
    citations: Iterable[Citation], sources: Sources, checkouts: Checkouts, skipped: set[str]
) -> None:
    """Ask each source's checkout for the files `citations` name."""
    paths: dict[str, set[str]] = {}
    for citation in citations:
        if citation.source and citation.repo_path and citation.source not in skipped:
            paths.setdefault(citation.source, set()).add(citation.repo_path)
    for alias, wanted in paths.items():
        checkouts.ask(sources.sources[alias], wanted)


def _judged_key(
    citation: Citation, registers: RegisterSet, checkouts: Checkouts
) -> JudgedKey | None:
    """What `judge` reads for this citation; None when it will not be judged (no source,
    no checkout serving the pin)."""
    source = registers.sources.sources.get(citation.source or "")
    if source is None or citation.repo_path is None:
        return None
    sha, path = checkouts.pin(source).sha, citation.repo_path
    if sha is None:
        return None
    kind = source_kind(source, path)
    return (
        source.alias,
        source.commit,
        sha,
        path,
        kind,
        citation.start,
        citation.end,
        citation.quote,
    )


def _verify_one(
    citation: Citation,
    key: JudgedKey | None,
    registers: RegisterSet,
    checkouts: Checkouts,
    skipped: bool,
    judged: dict[JudgedKey, Outcome],
) -> Outcome:
    """The citation's outcome: the last verify's judgement of the same `key` (with this
    citation, whose place may have moved), or judged from its file read anew (and kept in
    `judged` when there is a key: keeping is on)."""
    source = registers.sources.sources.get(citation.source or "")
    if source is None or citation.repo_path is None:
        return Outcome(citation, "unresolved", "no source for this path")
    if skipped:
        return Outcome(citation, "unverified", "skipped")
    pin = checkouts.pin(source)
    if pin.checkout is None or pin.sha is None:
        return Outcome(citation, "unverified", pin.problem or "")
    if key is not None and (kept := _LAST.get(key)) is not None:
        judged[key] = kept
        return kept._replace(citation=citation)
    where = f"{citation.repo_path} @ {source.alias} {source.commit}"
    try:
        text = checkouts.text(pin, citation.repo_path)
    except GitSourceError as err:
        return Outcome(citation, "broken", f"{where}: {err}", commit=pin.sha)
    outcome = judge(citation, text, where, source_kind(source, citation.repo_path), pin.sha)
    if key is not None:
        judged[key] = outcome
    return outcome


def _pin_problems(
    registers: RegisterSet, checkouts: Checkouts, outcomes: list[Outcome]
) -> Iterator[Diagnostic]:
    """One line per source that could not be verified, at the source in sources.yaml."""
    unverified = Counter(
        o.citation.source or ""
        for o in outcomes
        if o.outcome == "unverified" and o.message != "skipped"
    )
    for alias, number in unverified.items():
        source = registers.sources.sources[alias]
        if check_commit(source.commit) is not None:
            continue  # the schema's error on `commit:` is the one thing to fix
        pin = checkouts.pins[alias]
        message = f"{pin.problem}; {number} citation{'' if number == 1 else 's'} unverified"
        # A site build lets the first pass as a notice and fails on the second, as verify.
        code = "source-unavailable" if pin.offline else "checkout-lacks-pin"
        yield Diagnostic.at(source.where, id=alias, code=code, message=message)


def _stale(outcomes: list[Outcome]) -> Iterator[Diagnostic]:
    """One line per stale citation, at the citation in its register file."""
    for outcome in outcomes:
        if outcome.stale and outcome.outcome != "unresolved":  # check said why that one is
            c = outcome.citation
            code = f"citation-{outcome.outcome}"
            severity: Severity = "error" if outcome.failing else "warning"
            yield Diagnostic.at(
                c.where, id=c.entry, code=code, message=outcome.message, severity=severity
            )


# --- verify --against ---------------------------------------------------------------------


class PreviewError(RegisterError):
    """`--against` cannot be honoured (no checkout, no such revision); one line."""

    usage = True


@dataclass(frozen=True)
class Preview:
    """What `register verify --against ALIAS=REV` found: the source's citations at the pin
    (`baseline`), the same followed to REV's full sha `commit` (`moved`), and those of
    them that fail where they passed at the pin (`stale`)."""

    alias: str
    rev: str
    commit: str
    baseline: list[Outcome]
    moved: list[Outcome]
    stale: list[Outcome] = field(default_factory=list)


def _preview(
    registers: RegisterSet, checkouts: Checkouts, against: tuple[str, str], outcomes: list[Outcome]
) -> Preview:
    """The outcomes of one source's citations at the pin and as if moved to REV."""
    alias, rev = against
    source = registers.sources.sources[alias]
    pin = checkouts.pin(source)
    if pin.checkout is None or pin.sha is None:
        raise PreviewError(f"--against {alias}={rev}: {pin.problem}")
    try:
        sha = pin.checkout.resolve_rev(rev)
    except GitSourceError as err:
        raise PreviewError(f"--against {alias}={rev}: {err}") from None
    if sha is None:
        raise PreviewError(f"--against {alias}={rev}: no such commit in {pin.checkout.root}")
    mine = [i for i, o in enumerate(outcomes) if o.citation.source == alias and o.commit]
    cited = [outcomes[i].citation for i in mine]
    followed = follow(
        pin.checkout, pin.sha, sha, cited, source.markdown, registers.sources.revisions
    )
    pin.checkout.prefetch(sha, {f.path for f in followed if f.lines})
    target = Pin(pin.checkout, sha)
    label = f"{alias} {rev} ({sha[:7]})"
    moved = [_judge_moved(f, checkouts, target, label, source) for f in followed]
    return Preview(alias, rev, sha, [outcomes[i] for i in mine], moved)


def _judge_moved(
    followed: Followed, checkouts: Checkouts, target: Pin, label: str, source: Source
) -> Outcome:
    """The outcome of a citation of `source` followed to the commit `label` names."""
    citation, lines = followed.citation, followed.lines
    was = f"{citation.repo_path}:{citation.lines_text}"
    if lines is None:
        kind = "missing-file" if followed.file_deleted else "broken"
        return Outcome(citation, kind, f"{was}: {followed.note} at {label}", commit=target.sha)
    moved = citation._replace(repo_path=followed.path, start=lines[0], end=lines[1])
    try:
        text = checkouts.text(target, followed.path)
    except GitSourceError as err:
        return Outcome(citation, "broken", f"{was} at {label}: {err}", commit=target.sha)
    kind = source_kind(source, followed.path)
    outcome = judge(moved, text, f"{followed.path} @ {label}", kind, target.sha)
    if followed.kind != "changed":
        return outcome._replace(citation=citation)
    now = moved.lines_text
    now = now if followed.path == citation.repo_path else f"{followed.path}:{now}"
    message = f"{was}: {followed.note} at {label} (now {now})"
    return outcome._replace(citation=citation, outcome="changed", message=message)


# --- review stamps ------------------------------------------------------------------------


def _check_stamps(
    read: BesideFile | None, sources: Sources, outcomes: list[Outcome], preview: Preview | None
) -> tuple[list[Outcome], Preview | None, list[Diagnostic], set[str]]:
    """The outcomes (and the preview's baseline) with the lock applied, when there is one,
    its problems and one per source whose pin moved by hand since it was written, and
    those sources."""
    lock = stamps.lock_of(read)
    if lock is None:
        return outcomes, preview, [], set()
    outcomes = apply_stamps(outcomes, lock.stamps, sources)
    if preview is not None:
        preview = replace(preview, baseline=apply_stamps(preview.baseline, lock.stamps, sources))
    # A hand-moved pin under citations that all still read as cited did no harm.
    stale = {o.citation.source for o in outcomes if o.stale and o.outcome != "unstamped"}
    moved = {a: c for a, c in hand_moved_pins(lock.pins, sources).items() if a in stale}
    outcomes = [
        o._replace(message=_changed_after_hand_move(o.citation, moved))
        if o.outcome == "changed" and o.citation.source in moved
        else o
        for o in outcomes
    ]
    found = [*lock.problems, *_hand_moved(sources, moved, outcomes)]
    return outcomes, preview, found, set(moved)


def hand_moved_pins(locked: Mapping[str, str], sources: Sources) -> dict[str, str]:
    """alias -> the `commit:` the lock recorded, for each source whose pin is now another
    (moved by hand: bump rewrites the lock's pin)."""
    moved = {}
    for alias, commit in locked.items():
        if (source := sources.sources.get(alias)) is not None:
            old, new = commit.lower(), source.commit.lower()
            if not (old.startswith(new) or new.startswith(old)):
                moved[alias] = commit
    return moved


def _hand_moved(
    sources: Sources, moved: Mapping[str, str], outcomes: list[Outcome]
) -> Iterator[Diagnostic]:
    for alias, old in moved.items():
        new = sources.sources[alias].commit
        failing = sum(o.failing for o in outcomes if o.citation.source == alias)
        message = (
            f"commit moved from {old} to {new} since citations.lock was written, not by "
            "register bump, so no citation's lines followed it: put back "
            f"commit: {old} and run register bump {alias} {new} "
            f"({failing} citation{'' if failing == 1 else 's'} of {alias} fail at"
            " the new pin; not listed one by one, as bump follows them)"
        )
        where = sources.sources[alias].where
        yield Diagnostic.at(where, id=alias, code="pin-moved-by-hand", message=message)


def _changed_after_hand_move(citation: Citation, moved: Mapping[str, str]) -> str:
    return (
        f"{citation.repo_path}:{citation.lines_text} changed since it was stamped at "
        f"{citation.source} {moved[citation.source or '']}, and the pin was moved by hand: "
        f"run register bump (see sources.yaml) before register stamp {citation.entry}"
    )


def apply_stamps(
    outcomes: list[Outcome], lock: Mapping[stamps.Key, str], sources: Sources
) -> list[Outcome]:
    """The outcomes (in `RegisterSet.citations()` order, as keys count occurrences) with
    each `ok` one turned `changed` or `unstamped` where the lock says so."""
    keys = stamps.keys(stamps.place(o.citation) for o in outcomes)
    return [_stamped(o, key, lock, sources) for o, key in zip(outcomes, keys, strict=True)]


def _stamped(
    outcome: Outcome, key: stamps.Key | None, lock: Mapping[stamps.Key, str], sources: Sources
) -> Outcome:
    if outcome.outcome != "ok" or key is None or outcome.excerpt is None:
        return outcome
    stamp = lock.get(key)
    if stamp is None:
        message = _restamp(outcome.citation, "has no review stamp in citations.lock")
        return outcome._replace(outcome="unstamped", message=message)
    kind = source_kind(sources.sources.get(key.source), key.path)
    if stamp != stamps.digest(outcome.excerpt, kind):
        message = _restamp(outcome.citation, "changed since it was stamped")
        return outcome._replace(outcome="changed", message=message)
    return outcome


def _restamp(citation: Citation, what: str) -> str:
    where = f"{citation.repo_path}:{citation.lines_text}"
    return f"{where} {what} (read the lines, then run register stamp {citation.entry})"

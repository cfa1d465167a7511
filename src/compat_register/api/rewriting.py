"""The commands that rewrite the registers or their lock: fix, sync, bump, stamp."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..checking import rules
from ..model.diagnostic import Diagnostic, sort_diagnostics
from ..model.registers import Citation
from ..model.results import Result
from ..reading import folder
from ..reading.document import Document
from ..rewriting import bump as bumping
from ..rewriting import edit
from ..rewriting import fix as fixing
from ..sources import pins
from ..storage.errors import RegisterError
from ..storage.settings import DEFAULTS, Settings
from ..verifying import stamps, verify
from .loading import (
    Checked,
    Verified,
    Waiting,
    check_at,
    needs_clean_set,
    project_paths,
    verify_at,
    writer_at,
)


@dataclass
class Fixed(Result):
    """What `register fix` rewrote; its diagnostics are the run's but those of the
    citations fixed."""

    verified: Verified
    """The verified set the rewrite was planned from."""
    changes: list[edit.Change]
    """Each token rewritten, file by file."""
    fixed: list[Citation]
    """The moved citations that now point at their proposed lines."""

    @property
    def summary(self) -> dict[str, int]:
        """The counts after the rewrite: a citation re-pointed is no longer `moved`, it is
        `ok` (its quote is on the lines it now cites), and counted as fixed."""
        counts, fixed = self.verified.summary, len(self.fixed)
        moved = counts["moved"] - fixed
        return {**counts, "ok": counts["ok"] + fixed, "moved": moved, "fixed": fixed}


def fix(root: Path, settings: Settings = DEFAULTS, on_wait: Waiting = None) -> Fixed:
    """`register fix`: point every `moved` citation at its proposed lines, in place (but
    those of a source whose pin was moved by hand: `register bump` follows those).

    The register files and citations.lock (the stamps of the citations moved go with
    them) are made in memory, read back, and written all at once or not at all: raises
    `edit.EditError`, having written nothing, when that cannot be done safely.
    """
    paths = project_paths(root, settings)
    with writer_at(paths, "register fix", settings, on_wait) as journal:
        v = verify_at(paths, settings=settings)
        plan = fixing.plan(v.registers, v.documents, v.outcomes, v.diagnostics, v.lock)
        edit.write_texts(plan.files, journal)
    return Fixed(v, plan.changes, plan.fixed, diagnostics=plan.remaining)


@dataclass
class Synced(Result):
    """What `register sync` made readable; its diagnostics: those of sources.yaml (with an
    error there nothing is fetched) and one per source that failed."""

    synced: list[pins.Synced] = field(default_factory=list)
    """Each source synced: alias, full sha, the local checkout when nothing was fetched."""


def sync(
    root: Path,
    aliases: Iterable[str] = (),
    progress: Callable[[str, str], None] | None = None,
    settings: Settings = DEFAULTS,
    on_wait: Waiting = None,
) -> Synced:
    """`register sync`: fetch each source's pinned commit into the cache, but for a source
    whose local checkout already holds it. Reads sources.yaml alone (the register files
    play no part)."""
    paths = project_paths(root, settings)
    problems: list[Diagnostic] = []
    documents: dict[str, Document] = {}
    sources = folder.read_sources(paths, documents, problems)
    problems.extend(rules.check_sources(sources, documents.get(sources.file)))
    if any(p.severity == "error" for p in problems):
        return Synced(diagnostics=sort_diagnostics(problems))
    with writer_at(paths, " ".join(["register sync", *aliases]), settings, on_wait):
        synced, failed = pins.sync_all(sources, paths, list(aliases), progress, settings)
    return Synced(synced, diagnostics=sort_diagnostics([*problems, *failed]))


@dataclass
class Bumped(Result):
    """What `register bump` moved; its diagnostics are `register check`'s."""

    checked: Checked
    bump: bumping.Bump | None
    """The pin's move and each citation's, None when refused."""


def bump(
    root: Path,
    alias: str,
    rev: str | None = None,
    *,
    dry_run: bool = False,
    progress: Callable[[str], None] | None = None,
    settings: Settings = DEFAULTS,
    on_wait: Waiting = None,
) -> Bumped:
    """`register bump`: move the pin of `alias` to `rev` and every citation of it along.

    Refuses (returns no bump) while `register check` reports errors: a file that does not
    load would otherwise keep citations the move never saw. Raises `bump.BumpError` when
    the move cannot be made and `edit.EditError` when a file cannot be rewritten safely;
    in every failure nothing is written.
    """
    paths = project_paths(root, settings)
    with writer_at(paths, f"register bump {alias}", settings, on_wait) as journal:
        checked = check_at(paths, settings=settings)
        if checked.failed:
            refused = needs_clean_set("bump")
            return Bumped(checked, None, diagnostics=checked.diagnostics, refused=refused)
        result = bumping.bump(
            checked.registers,
            checked.documents,
            paths,
            folder.read_lock(paths),
            alias,
            rev,
            dry_run=dry_run,
            settings=settings,
            progress=progress,
            journal=journal,
        )
    return Bumped(checked, result, diagnostics=checked.diagnostics)


class UnknownID(RegisterError):
    """An entry ID named on the command line that has no citations."""

    usage = True


@dataclass
class Stamped(Result):
    """What `register stamp` recorded; its diagnostics are `register verify`'s."""

    verified: Verified
    stamped: list[verify.Outcome] = field(default_factory=list)
    """The citations whose lines were stamped."""
    unstampable: list[verify.Outcome] = field(default_factory=list)
    """Chosen citations that could not be stamped: their lines are not readable as cited."""
    written: bool = False


def stamp(
    root: Path,
    ids: Iterable[str] = (),
    settings: Settings = DEFAULTS,
    on_wait: Waiting = None,
) -> Stamped:
    """`register stamp [ID...]`: record the cited lines of the given entries (every entry
    when none is given) in citations.lock, as reviewed. A citation is stamped only when its
    lines read as cited (`ok`, `changed` or `unstamped`); the others keep any old stamp.

    Refuses (`refused` says why; nothing stamped, nothing written) while `register check`
    reports errors: the stamps of a file that does not load would otherwise be dropped. Raises
    `edit.EditError` when the lock cannot be rewritten safely.
    """
    paths = project_paths(root, settings)
    with writer_at(paths, "register stamp", settings, on_wait) as journal:
        verified = verify_at(paths, settings=settings)
        if verified.check_failed:
            refused = needs_clean_set("stamp")
            return Stamped(verified, diagnostics=verified.diagnostics, refused=refused)
        chosen = set(ids) or None
        known = {c.entry for c in verified.registers.citations()}
        if chosen and (unknown := sorted(chosen - known)):
            raise UnknownID(f"no citations of {', '.join(unknown)} to stamp")
        plan = stamps.plan(verified.outcomes, verified.registers.sources, verified.lock, chosen)
        if plan.changed:
            edit.write_texts({str(paths.lock): (plan.old_text, plan.text)}, journal)
    return Stamped(
        verified, plan.stamped, plan.refused, plan.changed, diagnostics=verified.diagnostics
    )

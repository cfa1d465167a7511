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
from .loading import Verified, Waiting, check, project_paths, verify_citations, writer


@dataclass
class Fixed(Result):
    """What `register fix` rewrote; its diagnostics: the run's but the fixed citations'."""

    verified: Verified
    """The verified set the rewrite was planned from."""
    changes: list[edit.Change]
    """Each token rewritten, file by file."""
    fixed: list[Citation]
    """The moved citations that now point at their proposed lines."""

    @property
    def summary(self) -> dict[str, int]:
        """The counts after the rewrite: a re-pointed citation is `ok`, and counted fixed."""
        counts, fixed = self.verified.summary, len(self.fixed)
        moved = counts["moved"] - fixed
        return {**counts, "ok": counts["ok"] + fixed, "moved": moved, "fixed": fixed}


def fix(root: Path, settings: Settings = DEFAULTS, on_wait: Waiting = None) -> Fixed:
    """`register fix`: every `moved` citation pointed at its proposed lines, its stamp
    along, all files written or none (raises `edit.EditError`, having written nothing)."""
    paths = project_paths(root, settings)
    with writer(paths, "register fix", settings, on_wait) as journal:
        v = verify_citations(paths, settings=settings)
        plan = fixing.plan(v.registers, v.documents, v.outcomes, v.diagnostics, v.lock)
        edit.write_texts(plan.files, journal)
    return Fixed(v, plan.changes, plan.fixed, diagnostics=plan.remaining)


@dataclass
class Synced(Result):
    """What `register sync` made readable; its diagnostics: sources.yaml's, each failure."""

    synced: list[pins.Synced] = field(default_factory=list)


def sync(
    root: Path,
    aliases: Iterable[str] = (),
    progress: Callable[[str, str], None] | None = None,
    settings: Settings = DEFAULTS,
    on_wait: Waiting = None,
) -> Synced:
    """`register sync`: each source's pinned commit fetched into the cache, unless its
    local checkout holds it; reads sources.yaml alone."""
    paths = project_paths(root, settings)
    problems: list[Diagnostic] = []
    documents: dict[str, Document] = {}
    sources = folder.read_sources(paths, documents, problems)
    problems.extend(rules.check_sources(sources, documents.get(sources.file)))
    if any(p.severity == "error" for p in problems):
        return Synced(diagnostics=sort_diagnostics(problems))
    with writer(paths, " ".join(["register sync", *aliases]), settings, on_wait):
        synced, failed = pins.sync_all(sources, paths, list(aliases), progress, settings)
    return Synced(synced, diagnostics=sort_diagnostics([*problems, *failed]))


@dataclass
class Bumped(Result):
    """What `register bump` moved (None when refused); its diagnostics are check's."""

    bump: bumping.Bump | None = None


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
    """`register bump`: the pin of `alias` moved to `rev`, every citation along; refused
    while check reports errors. Raises `bump.BumpError` or `edit.EditError`, writing nothing."""
    paths = project_paths(root, settings)
    with writer(paths, f"register bump {alias}", settings, on_wait) as journal:
        checked = check(paths, settings)
        if checked.failed:
            return Bumped(diagnostics=checked.diagnostics, refused=_needs_clean_set("bump"))
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
    return Bumped(result, diagnostics=checked.diagnostics)


class UnknownID(RegisterError):
    """An entry ID named on the command line that has no citations."""

    usage = True


@dataclass
class Stamped(Result):
    """What `register stamp` recorded; its diagnostics are `register verify`'s."""

    verified: Verified
    stamped: list[verify.Outcome] = field(default_factory=list)
    unstampable: list[verify.Outcome] = field(default_factory=list)
    """Chosen citations whose lines do not read as cited."""
    written: bool = False


def stamp(
    root: Path,
    ids: Iterable[str] = (),
    settings: Settings = DEFAULTS,
    on_wait: Waiting = None,
) -> Stamped:
    """`register stamp [ID...]`: the cited lines of the entries (all by default) recorded
    as reviewed in citations.lock, those that read as cited; refused while check reports
    errors. Raises `edit.EditError` when the lock cannot be rewritten safely."""
    paths = project_paths(root, settings)
    with writer(paths, "register stamp", settings, on_wait) as journal:
        verified = verify_citations(paths, settings=settings)
        if verified.check_failed:
            refused = _needs_clean_set("stamp")
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


def _needs_clean_set(command: str) -> str:
    return f"{command} needs a register set without errors: fix them first"

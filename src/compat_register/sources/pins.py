"""Pinned sources on disk: each source's checkout and resolved pin, and syncing the cache."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from ..checking.safety import check_commit, is_local_path
from ..model.diagnostic import Diagnostic, Severity
from ..model.positions import Where
from ..model.registers import Source, Sources
from ..storage.layout import Paths
from ..storage.settings import Settings, source_variable
from .checkout import Checkout
from .filetext import FileText
from .git import DamagedRepository, GitSourceError, check_alias, require
from .sourcecache import SourceCache


class Pin(NamedTuple):
    """One source's checkout and resolved commit, or why there is none."""

    checkout: Checkout | None
    sha: str | None
    problem: str | None = None
    offline: bool = False
    """No checkout named nor cached: read offline by design (a site built in CI without
    `register sync`), not a checkout that fails to serve the pin."""


class Checkouts:
    """Opens each source's checkout once and resolves its pin; closes them all at the end."""

    def __init__(self, paths: Paths, settings: Settings):
        self.paths = paths
        self.settings = settings
        self.cache = SourceCache(paths.cache)
        self.pins: dict[str, Pin] = {}

    def pin(self, source: Source) -> Pin:
        if source.alias not in self.pins:
            self.pins[source.alias] = self._open(source)
        return self.pins[source.alias]

    def _open(self, source: Source) -> Pin:
        """The first place holding the pinned commit (`checkout_places`); when none does, a
        problem naming each place tried and what to do."""
        try:
            places = checkout_places(source, self.paths, self.cache, self.settings)
        except GitSourceError as err:  # an alias that names no cache (check says why)
            return Pin(None, None, str(err))
        if not places:
            return Pin(None, None, _no_checkout(source), offline=True)
        tried: list[str] = []
        cloned = True
        for root, where in places:
            if where == CACHE_PLACE and (why := self.cache.foreign(source.alias)):
                tried.append(f"{where} {why}, so commit {source.commit} cannot be read")
                continue
            pin, found = _open_at(root, source)
            if pin.checkout is not None:
                return pin
            tried.append(f"{where} {pin.problem}")
            cloned = found if where != CACHE_PLACE else cloned
        remedy = _remedy(source, _named(source, self.paths, self.settings), cloned)
        return Pin(None, None, f"{'; then '.join(tried)}: {remedy}")

    def ask(self, source: Source, paths: Iterable[str]) -> None:
        """Read files at a source's pin in one pass; a failed read is left to `text`, where a
        bad file fails alone."""
        pin = self.pin(source)
        if pin.checkout is None or pin.sha is None:
            return
        with contextlib.suppress(GitSourceError):
            pin.checkout.prefetch(pin.sha, paths)

    def text(self, pin: Pin, path: str) -> FileText | None:
        """A file at a pin (read once per run, its quote index built at most once)."""
        assert pin.checkout is not None and pin.sha is not None
        try:
            return pin.checkout.file_text(pin.sha, path)
        except DamagedRepository as err:
            root = Path(pin.checkout.root)
            if root.parent != self.cache.root:  # a clone of the user's: theirs to repair
                raise
            alias = root.name.removesuffix(".git")
            raise GitSourceError(
                f"the cache of {alias} is damaged: run register sync {alias}"
            ) from err

    def close(self) -> None:
        for pin in self.pins.values():
            if pin.checkout:
                pin.checkout.close()


CACHE_PLACE = "the cache:"


def checkout_places(
    source: Source, paths: Paths, cache: SourceCache, settings: Settings
) -> list[tuple[Path, str]]:
    """Where a source may be read, in order, each with how it was named: the local checkout
    (`_named`), then the cache when it holds anything for it (a link too: refused later)."""
    named = _named(source, paths, settings)
    places = [] if named is None else [named]
    cached = cache.repo_dir(source.alias)
    refused = paths.refused is not None and paths.own_cache  # nothing read through it
    if os.path.lexists(cached) and not refused:
        places.append((cached, CACHE_PLACE))
    return places


def _named(source: Source, paths: Paths, settings: Settings) -> tuple[Path, str] | None:
    """The local checkout REGISTER_SOURCE_<ALIAS> names, else `path:`, with how it was named
    (GitSourceError for an alias that can name no cache)."""
    require(check_alias(source.alias))
    variable = source_variable(source.alias)
    if variable in settings.clones:
        return Path(settings.clones[variable]), f"{variable}={settings.clones[variable]}:"
    return (paths.written(source.path), f"path: {source.path}:") if source.path else None


def _open_at(root: Path, source: Source) -> tuple[Pin, bool]:
    """The checkout at `root` and its pinned commit, or the problem; and whether `root` is a
    repository at all."""
    cannot = f"so commit {source.commit} cannot be read"
    if not root.exists():
        return Pin(None, None, f"{root} does not exist, {cannot}"), False
    try:
        checkout = Checkout(root)
    except GitSourceError as err:
        return Pin(None, None, f"{err}, {cannot}"), False
    try:
        sha = checkout.resolve(source.commit)
    except GitSourceError as err:  # an ambiguous pin
        checkout.close()
        return Pin(None, None, str(err)), True
    if sha is None:
        checkout.close()
        problem = f"the checkout at {root} does not hold commit {source.commit}"
        return Pin(None, None, problem), True
    return Pin(checkout, sha), True


def _remedy(source: Source, local: tuple[Path, str] | None, cloned: bool) -> str:
    """What to run when no place serves the pin: clone or fetch into a named checkout, or
    sync the cache."""
    sync = f"run register sync {source.alias}"
    if local is None:
        return sync
    variable = source_variable(source.alias)
    there = f"fetch it there (git -C {local[0]} fetch)" if cloned else "clone the repository there"
    also = f", or {sync}" if source.repo else ""
    return f"{there}, or set {variable} to a clone that holds it{also}"


def _no_checkout(source: Source) -> str:
    variable = source_variable(source.alias)
    how = f"run register sync {source.alias}, " if source.repo else ""
    return f"no checkout to read ({how}set {variable} to a clone, or add path: to sources.yaml)"


class Synced(NamedTuple):
    """A source `register sync` made readable at its pin: in a local `checkout` that held it
    (nothing fetched), or the cache (None)."""

    alias: str
    sha: str
    checkout: Path | None = None


def sync_all(
    sources: Sources,
    paths: Paths,
    aliases: list[str],
    progress: Callable[[str, str], None] | None,
    settings: Settings,
) -> tuple[list[Synced], list[Diagnostic]]:
    """Fetch the pinned commit of each named source (all with a repo when none is named)
    into the cache, but for one whose local checkout holds it, which is read there."""
    cache = SourceCache(paths.cache)
    synced: list[Synced] = []
    problems: list[Diagnostic] = []
    for source in _chosen(sources, aliases, problems):
        local = _held_locally(source, paths, settings)
        if local is not None:
            synced.append(local)
            continue
        report = (lambda line, alias=source.alias: progress(alias, line)) if progress else None
        try:
            sha = cache.sync(source.alias, _repo(source, paths), source.commit, report)
            synced.append(Synced(source.alias, sha))
        except GitSourceError as err:
            problems.append(_said(source, "sync-failed", str(err)))
        if source.alias in cache.rebuilt:
            why = f"{cache.rebuilt[source.alias]}: removed and fetched anew"
            problems.append(_said(source, "cache-rebuilt", why, "info"))
    return synced, problems


def _said(source: Source, code: str, message: str, severity: Severity = "error") -> Diagnostic:
    return Diagnostic.at(
        source.where, id=source.alias, code=code, message=message, severity=severity
    )


def _held_locally(source: Source, paths: Paths, settings: Settings) -> Synced | None:
    local = _named(source, paths, settings)
    if local is None:
        return None
    pin, _ = _open_at(local[0], source)
    if pin.checkout is None or pin.sha is None:
        return None
    pin.checkout.close()
    return Synced(source.alias, pin.sha, local[0])


def _chosen(sources: Sources, aliases: list[str], problems: list[Diagnostic]) -> list[Source]:
    for alias in aliases:
        if alias not in sources.sources:
            message = f"no source '{alias}' in sources.yaml (known: {', '.join(sources.sources)})"
            top = Where(sources.file, 1, 1)
            problems.append(Diagnostic.at(top, id=alias, code="unknown-source", message=message))
    if aliases:
        return [sources.sources[a] for a in aliases if a in sources.sources]
    return [s for s in sources.sources.values() if s.repo]


def _repo(source: Source, paths: Paths) -> str:
    if source.repo is None:
        raise GitSourceError(
            f"source {source.alias} has no repo to fetch from: set "
            f"{source_variable(source.alias)} to a local clone instead"
        )
    # A relative local path in sources.yaml is relative to the registers directory.
    if is_local_path(source.repo) and not os.path.isabs(source.repo):
        return str(paths.written(source.repo))
    return source.repo


def open_moved(
    source: Source,
    paths: Paths,
    rev: str | None,
    settings: Settings,
    progress: Callable[[str], None] | None = None,
) -> tuple[Checkout, str, str]:
    """A checkout holding `source`'s pin and `rev`, and their full shas: a local checkout as
    it is (`rev` by default HEAD), else the cache, both fetched (`rev` the default branch)."""
    local = _named(source, paths, settings)
    if local is not None:  # used as it is
        return _open_local(local[0], source, rev or "HEAD")
    cache = SourceCache(paths.cache)
    repo = _repo(source, paths)
    old = cache.sync(source.alias, repo, source.commit, progress)
    if rev is not None and check_commit(rev) is None:
        new = cache.sync(source.alias, repo, rev, progress)
    else:
        new = cache.fetch_ref(source.alias, repo, rev or "HEAD", progress)
    return Checkout(cache.repo_dir(source.alias)), old, new


def _open_local(root: Path, source: Source, rev: str) -> tuple[Checkout, str, str]:
    checkout = Checkout(root)
    try:
        old = checkout.resolve(source.commit)
        new = checkout.resolve_rev(rev)
        if old is None or new is None:
            missing = source.commit if old is None else rev
            raise GitSourceError(f"the checkout at {root} holds no commit {missing} (fetch it)")
    except GitSourceError:
        checkout.close()
        raise
    return checkout, old, new

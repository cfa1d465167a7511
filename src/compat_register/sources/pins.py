"""Pinned sources on disk: each source's checkout and resolved pin, and syncing the cache."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from ..checking.safety import check_commit, is_local_path
from ..model.diagnostic import Diagnostic
from ..model.positions import Where
from ..model.registers import Source, Sources
from ..storage.layout import Paths
from ..storage.settings import Settings, source_variable
from .checkout import Checkout
from .filetext import FileText
from .git import DamagedRepository, GitSourceError
from .sourcecache import SourceCache


class Pin(NamedTuple):
    """One source's checkout and resolved commit, or why there is none."""

    checkout: Checkout | None
    sha: str | None
    problem: str | None = None
    offline: bool = False
    """No checkout at all, and none named (no `REGISTER_SOURCE_<ALIAS>`, no `path:`, no
    cache): the source is read offline by design, as a site built in CI without `register
    sync`. Any other problem is a checkout that should serve the pin and does not."""


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
        """The first place holding the pinned commit: the local checkout (REGISTER_SOURCE_<ALIAS>
        or `path:`), then the synced cache; when none does, a problem naming each place tried,
        in that order, and what to do."""
        try:
            places = checkout_places(source, self.paths, self.cache, self.settings)
        except GitSourceError as err:  # an alias that names no cache (check says why)
            return Pin(None, None, str(err))
        if not places:
            return Pin(None, None, _no_checkout(source), offline=True)
        tried: list[str] = []
        cloned = True
        for root, where in places:
            why = self.cache.foreign(source.alias) if where == CACHE_PLACE else None
            if why:
                why = f"{why}, so commit {source.commit} cannot be read"
            pin, found = (Pin(None, None, why), True) if why else _open_at(root, source)
            if pin.checkout is not None or pin.problem is None:
                return pin
            tried.append(f"{where} {pin.problem}")
            if where != CACHE_PLACE:
                cloned = found
        return Pin(None, None, f"{'; then '.join(tried)}: {_remedy(source, places, cloned)}")

    def ask(self, source: Source, paths: Iterable[str]) -> None:
        """Read files at a source's pin in one pass (when it has a checkout); a failed read
        is left to `text`, where a bad file fails alone."""
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
    """Where a source may be read, in the order tried, each with how it was named: its local
    checkout (REGISTER_SOURCE_<ALIAS>, else `path:` relative to the registers folder), then
    the cache when it holds anything for the source (a link too: `Checkouts` refuses it)."""
    places: list[tuple[Path, str]] = []
    variable = source_variable(source.alias)
    if variable in settings.clones:
        named = settings.clones[variable]
        places.append((Path(named), f"{variable}={named}:"))
    elif source.path:
        places.append((paths.written(source.path), f"path: {source.path}:"))
    cached = cache.repo_dir(source.alias)
    refused = paths.refused is not None and paths.own_cache  # nothing read through it
    if os.path.lexists(cached) and not refused:
        places.append((cached, CACHE_PLACE))
    return places


def _open_at(root: Path, source: Source) -> tuple[Pin, bool]:
    """The checkout at `root` and its pinned commit, or the problem; and whether `root` is
    a repository at all."""
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


def _remedy(source: Source, places: list[tuple[Path, str]], cloned: bool) -> str:
    """What to run when no place serves the pin: in a checkout the project names, clone or
    fetch (`register sync` fills only the cache, read when that checkout lacks the pin);
    with the cache alone, sync."""
    local = [root for root, where in places if where != CACHE_PLACE]
    sync = f"run register sync {source.alias}"
    if not local:
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
    """A source `register sync` made readable at its pin."""

    alias: str
    sha: str
    checkout: Path | None = None
    """The local checkout that already holds the pin (nothing fetched); None: the cache."""


def sync_all(
    sources: Sources,
    paths: Paths,
    aliases: list[str],
    progress: Callable[[str, str], None] | None,
    settings: Settings,
) -> tuple[list[Synced], list[Diagnostic]]:
    """Fetch the pinned commit of each named source (all with a repo when none is named)
    into the cache, but for a source whose local checkout already holds it: that one is
    read there (`Checkouts` tries it first), so nothing is fetched and sync works offline."""
    cache = SourceCache(paths.cache)
    synced: list[Synced] = []
    problems: list[Diagnostic] = []
    for source in _chosen(sources, aliases, problems):
        local = _held_locally(source, paths, cache, settings)
        if local is not None:
            synced.append(local)
            continue
        report = (lambda line, alias=source.alias: progress(alias, line)) if progress else None
        try:
            sha = cache.sync(source.alias, _repo(source, paths), source.commit, report)
            synced.append(Synced(source.alias, sha))
        except GitSourceError as err:
            problems.append(
                Diagnostic.at(source.where, id=source.alias, code="sync-failed", message=str(err))
            )
        if source.alias in cache.rebuilt:
            problems.append(_rebuilt(source, cache.rebuilt[source.alias]))
    return synced, problems


def _rebuilt(source: Source, why: str) -> Diagnostic:
    """The info line of a cached repository removed and fetched anew."""
    message = f"{why}: removed and fetched anew"
    return Diagnostic.at(
        source.where, id=source.alias, code="cache-rebuilt", message=message, severity="info"
    )


def _held_locally(
    source: Source, paths: Paths, cache: SourceCache, settings: Settings
) -> Synced | None:
    """The source's local checkout, when it holds the pinned commit."""
    places = checkout_places(source, paths, cache, settings)
    local = [root for root, where in places if where != CACHE_PLACE]
    if not local:
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
    """A checkout of `source` holding both its pinned commit and `rev`, and their full
    shas: a local checkout as it is (`rev` by default its HEAD), else the cache, the pin
    synced and `rev` fetched (by default the remote's default branch)."""
    cache = SourceCache(paths.cache)
    places = checkout_places(source, paths, cache, settings)
    if places and places[0][1] != CACHE_PLACE:  # a local checkout, used as it is
        return _open_local(places[0][0], source, rev or "HEAD")
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

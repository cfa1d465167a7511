"""Which files of a source hold statements, of which revision, and how to cite them. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..following.paths import revision_folder
from ..model.claims import claimants, glob_matches
from ..model.registers import Source, Sources
from ..statements.extract import reader


def revision_of(path: str, revisions: Sequence[str]) -> str | None:
    """The revision whose folder holds `path` (`docs/specification/2025-06-18/x.mdx`)."""
    folder = revision_folder(path, revisions)
    return folder.rstrip("/").rsplit("/", 1)[-1] if folder else None


def statement_files(
    source: Source, paths: Iterable[str], revisions: Sequence[str]
) -> dict[str, str]:
    """path -> revision of each readable file matching `coverage.statements`, no changelog,
    in a revision's folder."""
    found: dict[str, str] = {}
    for path in paths:
        if not any(glob_matches(glob, path) for glob in source.statements):
            continue
        if is_changelog(source, path) or reader(path, source.markdown) is None:
            continue
        if (revision := revision_of(path, revisions)) is not None:
            found[path] = revision
    return found


def is_changelog(source: Source, path: str) -> bool:
    return source.changelog is not None and glob_matches(source.changelog, path)


def changelog_files(
    source: Source, paths: Iterable[str], revisions: Sequence[str]
) -> dict[str, str]:
    """revision -> the path of its changelog page, where the source names one."""
    found: dict[str, str] = {}
    for path in paths:
        if is_changelog(source, path) and (revision := revision_of(path, revisions)):
            found.setdefault(revision, path)
    return found


def cited_as(alias: str, path: str, sources: Sources) -> str:
    """A file's path as a citation writes it: relative to its source's claim when that
    reads back alone (`2025-06-18/basic/index.mdx`), else `ALIAS:PATH`."""
    source = sources.sources.get(alias)
    for claim in source.claims if source else ():
        if path.startswith(claim.under):
            relative = path[len(claim.under) :]
            if claimants(relative, sources.claims()) == [(alias, path)]:
                return relative
    return f"{alias}:{path}"

"""Which files of a source hold statements, of which revision, and how to cite them. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..following.paths import revision_folder
from ..model.claims import claimants, glob_matches
from ..model.registers import Source, Sources
from ..statements.extract import reader


def statement_files(
    source: Source, paths: Iterable[str], revisions: Sequence[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """path -> revision of each readable file in a revision's folder matching
    `coverage.statements`, and revision -> its changelog page, where the source names one."""
    files: dict[str, str] = {}
    changelogs: dict[str, str] = {}
    for path in paths:
        changelog = source.changelog is not None and glob_matches(source.changelog, path)
        if not changelog and not (
            any(glob_matches(glob, path) for glob in source.statements)
            and reader(path, source.markdown) is not None
        ):
            continue
        if not (folder := revision_folder(path, revisions)):
            continue  # `docs/specification/2025-06-18/x.mdx`: revision 2025-06-18
        revision = folder.rstrip("/").rsplit("/", 1)[-1]
        if changelog:
            changelogs.setdefault(revision, path)
        else:
            files[path] = revision
    return files, changelogs


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

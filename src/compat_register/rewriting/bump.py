"""`register bump`: move a source's pin and carry every citation of it along (`follow`);
the register files, sources.yaml and citations.lock made anew, read back, written all or none.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ..citations.syntax import is_citation_path
from ..following.follow import Followed, every_followed, follow_touched
from ..following.remap import KINDS
from ..following.track import Rename
from ..model.claims import claimants
from ..model.registers import Citation, RegisterSet, Source
from ..reading.document import Document
from ..reading.folder import BesideFile
from ..sources.checkout import Checkout
from ..sources.git import GitSourceError
from ..sources.pins import open_moved
from ..storage.errors import RegisterError
from ..storage.journal import Journal
from ..storage.layout import Paths
from ..storage.settings import Settings
from ..verifying import stamps
from . import edit
from .edit import Edit, Planned

# A path the compact and in-prose forms can hold, unquoted, in any YAML scalar style.
_WRITABLE = re.compile(r"[A-Za-z0-9_.][\w.\-/]*\Z")


class BumpError(RegisterError):
    """A bump that cannot be made; nothing was written. One line."""


class UnknownSource(BumpError):
    """The alias names no source (a usage error)."""

    usage = True


@dataclass
class Bump:
    """What moving one source's pin from full sha `old` to `new` (written `pin`) did, or
    would do: where its citations (`cited`, in file order) whose file the move touched
    went (`touched`, `follow_touched`), and each file that changes: (old text, new text)."""

    alias: str
    old: str
    new: str
    pin: str
    cited: list[Citation]
    touched: list[Followed]
    files: dict[str, tuple[str, str]] = field(default_factory=dict)
    written: bool = False

    @cached_property
    def followed(self) -> list[Followed]:
        """Where every citation went, in file order (made only when all are asked for)."""
        return every_followed(self.cited, self.touched)

    @cached_property
    def moved(self) -> list[Followed]:
        """The citations that did not stay as they were: what is planned and reported."""
        return [f for f in self.touched if f.kind != "carried"]

    def counts(self) -> dict[str, int]:
        """How many citations of each kind, every kind named."""
        counts = {**dict.fromkeys(KINDS, 0), **Counter(f.kind for f in self.moved)}
        return {**counts, "carried": len(self.cited) - len(self.moved)}

    def flagged(self) -> int:
        """How many citations bump could not decide for (`Followed.flags`)."""
        return sum(bool(f.flags) for f in self.moved)

    def renames(self) -> list[Rename]:
        """Every rename a cited file went through, once each, in the order met."""
        return list(dict.fromkeys(r for f in self.moved for r in f.renames))


def bump(
    registers: RegisterSet,
    documents: Mapping[str, Document],
    paths: Paths,
    lock: BesideFile | None,
    alias: str,
    rev: str | None = None,
    *,
    dry_run: bool = False,
    settings: Settings,
    progress: Callable[[str], None] | None = None,
    journal: Journal | None = None,
) -> Bump:
    """Move the pin of `alias` to `rev` (default: the newest commit), its citations and
    their stamps in `lock` along; written through `journal` unless `dry_run`."""
    source = registers.sources.sources.get(alias)
    if source is None:
        raise UnknownSource(
            f"no source '{alias}' in sources.yaml ({', '.join(registers.sources.sources)})"
        )
    try:
        checkout, old, new = open_moved(source, paths, rev, settings, progress)
        with checkout:
            result = _plan(registers, documents, lock, source, checkout, old, new)
    except GitSourceError as err:
        raise BumpError(f"cannot bump {alias}: {err}") from None
    if not dry_run and result.files:
        edit.write_texts(result.files, journal)
        result.written = True
    return result


def _plan(
    registers: RegisterSet,
    documents: Mapping[str, Document],
    lock: BesideFile | None,
    source: Source,
    checkout: Checkout,
    old: str,
    new: str,
) -> Bump:
    every = registers.citations()
    citations = [c for c in every if c.source == source.alias and c.repo_path]
    touched = follow_touched(
        checkout, old, new, citations, source.markdown, registers.sources.revisions
    )
    # A carried citation stays as written: only the others are planned.
    plans = {f.citation.key: _edits(f, source, registers) for f in touched if f.kind != "carried"}
    if unwritable := {key for key, found in plans.items() if found is None}:
        touched = [_unwritable(f) if f.citation.key in unwritable else f for f in touched]
    pin = short_sha(checkout, new, source.commit)
    result = Bump(source.alias, old, new, pin, citations, touched)
    edits = {key: found for key, found in plans.items() if found is not None and found[0]}
    result.files, _ = edit.rewrite_set(registers, documents, edits)
    # each rewritten citation's stamp goes with it (hash kept: a changed one is reported)
    places = {
        f.citation.key: (f.path, *f.lines)
        for f in result.moved
        if f.lines and f.citation.key in edits
    }
    pins = {source.alias: result.pin}
    if carried := stamps.carry_lock(lock, every, places, pins):
        result.files[carried[0]] = carried[1:]
    _rewrite_pin(result, documents[registers.sources.file], source)  # written last
    return result


# --- one citation -------------------------------------------------------------------------


def _edits(followed: Followed, source: Source, registers: RegisterSet) -> Planned | None:
    """How to rewrite one citation; ([], as before) when it stays; None when its new path
    cannot be written in its form (reported for a hand edit)."""
    citation, lines = followed.citation, followed.lines
    where = (citation.start, citation.end)
    if lines is None or (followed.path == citation.repo_path and lines == where):
        return [], (citation.alias, citation.path, *where)
    written = _written_path(citation, followed.path, source, registers)
    return None if written is None else edit.move_lines(citation, lines, *written)


def _written_path(
    citation: Citation, new_path: str, source: Source, registers: RegisterSet
) -> tuple[str | None, str] | None:
    """(alias prefix, path) as the citation must now be written, or None if it cannot be:
    an unprefixed path must stay claimed by its source alone, else it gets `ALIAS:`."""
    if new_path == citation.repo_path:
        return citation.alias, citation.path
    if citation.alias:
        return (citation.alias, new_path) if _writable(citation, new_path) else None
    for claim in source.claims:
        relative = new_path.removeprefix(claim.under)
        owners = claimants(relative, registers.sources.claims())
        if new_path.startswith(claim.under) and owners == [(source.alias, new_path)]:
            return (None, relative) if _writable(citation, relative) else None
    if edit.is_mapping(citation):
        return None
    return (source.alias, new_path) if _writable(citation, new_path) else None


def _writable(citation: Citation, path: str) -> bool:
    return bool(_WRITABLE.match(path)) and (not citation.in_prose or is_citation_path(path))


def _unwritable(followed: Followed) -> Followed:
    note = f"{followed.note}; {followed.path} cannot be written in this form: edit it by hand"
    return Followed(followed.citation, "changed", followed.path, followed.lines, note.lstrip("; "))


# --- files --------------------------------------------------------------------------------


def _rewrite_pin(result: Bump, doc: Document, source: Source) -> None:
    if result.pin == source.commit:
        return
    change = Edit(("sources", source.alias, "commit"), source.commit, result.pin, source.alias)
    text = edit.rewrite(doc.text, edit.plan_edits(doc, [change]))
    edit.check_yaml(doc.file, text)
    result.files[doc.file] = (doc.text, text)


def short_sha(checkout: Checkout, sha: str, written: str) -> str:
    """`sha` cut to as many hex digits as `written` has (at least 7), longer if ambiguous."""
    for length in range(max(7, len(written)), 40):
        try:
            if checkout.resolve(sha[:length]) == sha:
                return sha[:length]
        except GitSourceError:  # ambiguous at this length
            continue
    return sha

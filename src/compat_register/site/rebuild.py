"""What a site build keeps for the next one (`mkdocs serve`), as a value: `Memory`.

Equal inputs, equal pages. A build remembers what it read (the options, the content of every
file under the registers folder and the templates, the registers' history head, the commit
each pin resolves to), the site it made, and each register page and health page with the
digest of what it was rendered from (`page_inputs`); what it holds, it holds in the smallest
form the next build can use (digests, compressed text), since it is held while the next
build loads the registers again (a served site's peak memory). The next build gives the
same site back when nothing it read changed; otherwise it loads and verifies every register
again (a fraction of a build) but renders a register page or a health page again only when
its inputs changed; the overview, the revision pages and the priorities show every register
and are always rendered again. tests/site/test_incremental.py holds every incremental build
to a cold one, byte for byte. Pure but for `file_states`, which reads the files.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import pickle
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.registers import Citation, CitationKey, RegisterSet, Sources
from ..storage import regular
from .urls import Layout

if TYPE_CHECKING:
    from ..verifying.verify import Outcome
    from .excerpts import Highlighter
    from .values import Site

FileState = tuple[str, str]
"""(path, digest of its bytes) of a file, as `file_states` reads them."""


def file_states(folder: Path | None) -> tuple[FileState, ...]:
    """(path, the digest of its bytes) of every file under `folder`, in a stable order.

    By content, not modification time: an edit that keeps a file's size within the file
    system's clock tick would leave the time alone and the page stale. Read as every file
    of a pull request is (`storage.regular`): a FIFO or a device is skipped, never opened
    for reading (the reader of the registers reports it)."""
    if folder is None:
        return ()
    state = []
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(top, name)
            try:
                data = regular.read_bytes(Path(path), regular.MAX_BYTES)
            except OSError:
                continue  # removed while walking, or no regular file: not part of the key
            state.append((path, hashlib.sha1(data, usedforsecurity=False).hexdigest()))
    return tuple(state)


@dataclass(frozen=True)
class Key:
    """Everything a build reads but the checkouts: equal keys and pins, equal sites."""

    settings: tuple[Any, ...]
    """The options, the Markdown extensions' fingerprint, the registers folder, the
    commit the registers' history ends at."""
    registers: tuple[FileState, ...]
    """Every file under the registers folder."""
    templates: tuple[tuple[FileState, ...], ...]
    """Every file of the site's templates and of the packaged ones."""


@dataclass(frozen=True)
class Kept:
    """A register page or a health page as a build rendered it, and from what."""

    inputs: bytes
    """The digest of what it was rendered from (`page_inputs`)."""
    text: str
    excerpts: bytes | None = None
    """A register page's excerpt file, rendered with it, packed (`excerptmodel.pack`; None:
    it has none)."""
    download: tuple[int, int] | None = None
    """Where a register page's register stands in the site's download (`build._downloads`):
    the next build takes it from there, so the memory holds it once."""


@dataclass
class Memory:
    """What one build leaves for the next: tested without MkDocs (tests/site)."""

    key: Key
    pins: tuple[tuple[str, str | None], ...] | None
    """(alias, the full sha its pin resolves to in its checkout, or None); None when the
    checkouts could not be asked (then the next build renders again)."""
    site: Site
    """The site made, but its downloads (`downloads`): `whole_site` gives it whole."""
    sources: Sources
    """The sources the pins were read for."""
    kept: dict[str, Kept] = field(default_factory=dict)
    """Each register page and health page rendered, by path."""
    highlighter: tuple[tuple[str, Path | None], Highlighter] | None = None
    """Highlights the excerpts, with the extensions' fingerprint and the cache folder it
    was made for; kept between builds, so an edit highlights only what it changed."""
    excerpts: dict[str, bytes] = field(default_factory=dict)
    """What the options' excerpt folder holds, by path: the excerpt file written to it,
    packed (`excerptmodel.pack`).
    The next build writes again only those whose excerpts changed."""

    downloads: dict[str, bytes] = field(default_factory=dict)
    """The site's downloads, compressed (`zlib`): the next build reads from one only the
    registers it does not dump again, and held as text it is there twice at the end of the
    next build, beside the one made (some 13 MB each at 5,000 entries)."""

    @classmethod
    def of(cls, site: Site, **rest: Any) -> Memory:
        """The memory of a build that made `site` (`rest`: the other fields)."""
        packed = {
            path: zlib.compress(text.encode("utf-8"), 1) for path, text in site.downloads.items()
        }
        return cls(site=dataclasses.replace(site, downloads={}), downloads=packed, **rest)

    def whole_site(self) -> Site:
        """The site this memory was made for, its downloads too."""
        return dataclasses.replace(self.site, downloads=self.download_texts())

    def download_texts(self) -> dict[str, str]:
        return {
            path: zlib.decompress(packed).decode("utf-8") for path, packed in self.downloads.items()
        }

    def fresh(self, key: Key, pins: tuple[tuple[str, str | None], ...] | None) -> bool:
        """Whether a build of `key` at `pins` would make this memory's site again."""
        return self.key == key and self.pins is not None and self.pins == pins

    def reusable(self, inputs: dict[str, bytes]) -> dict[str, Kept]:
        """The pages rendered last time from the same inputs: taken as they are."""
        return {
            uri: kept
            for uri, page_key in inputs.items()
            if (kept := self.kept.get(uri)) is not None and kept.inputs == page_key
        }


def page_inputs(
    registers: RegisterSet,
    outcomes: Sequence[Outcome],
    layout: Layout,
    root: Path,
    files: Sequence[FileState],
    shared: tuple[Any, ...],
) -> dict[str, bytes]:
    """What each register page and the health page depend on, by page, as a digest
    (`digest`): a served site holds these between builds, and as values they would hold
    the last build's citations (every health row) alive beside the next build's.

    Every page depends on what is common to all: `shared` (the options, the checkouts'
    pinned commits, the templates), every file under the registers folder `root` that is
    not a register (sources.yaml, the lock), the page of every entry ID (links) and every
    register's title (a backlink to a register's summary shows it). A register page also
    shows its own register file and the backlinks of its entries; its outcomes need no place
    of their own, since the same file verified at the same pinned commits gives the same
    ones. The health page shows every citation, where it is written and its outcome, and a
    register's own health page its register's.
    """
    listed = registers.registers
    state = dict(files)
    file_of = {r.slug: os.path.join(root, f"{r.slug}.yaml") for r in listed}  # as file_states
    register_files = set(file_of.values())
    common = digest(
        (
            shared,
            tuple(item for item in files if item[0] not in register_files),
            tuple((r.slug, r.title, tuple(e.id for e in r.entries)) for r in listed),
        )
    )
    inputs = {
        layout.page_of(register.slug): digest(
            (
                common,
                state.get(file_of[register.slug]),
                tuple(tuple(registers.backlinks_of(entry)) for entry in register.entries),
            )
        )
        for register in listed
    }
    found = {o.citation.key: (o.outcome, o.message) for o in outcomes}
    inputs[layout.health] = digest((common, health_rows(registers.citations(), found)))
    for register in listed:
        rows = health_rows(register.citations(), found)
        inputs[layout.health_of(register.slug)] = digest((common, rows))
    return inputs


def digest(value: Any) -> bytes:
    """A digest of `value` (plain data: tuples, text, numbers, paths, dataclasses): equal
    digests, equal values. Pickled without its memo, so that two equal values whose parts
    are shared differently (one string object twice, or two equal ones) pickle alike."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True  # no memo: the bytes depend on the value alone
    pickler.dump(value)
    return hashlib.sha256(buffer.getbuffer()).digest()


def health_rows(
    citations: Sequence[Citation], outcomes: dict[CitationKey, tuple[str, str]]
) -> tuple[Any, ...]:
    """Each citation as a health page shows it: what it cites, where, and its outcome."""
    return tuple(
        (c.text, c.source, c.repo_path, c.start, c.end, c.entry, c.where, outcomes.get(c.key))
        for c in citations
    )

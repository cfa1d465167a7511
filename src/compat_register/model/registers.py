"""The register set as typed data. Built by `reading.registerfile` from validated YAML."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any
from urllib.parse import quote

from .citation import Citation as Citation  # most stages import the two from here
from .citation import CitationKey as CitationKey
from .claims import Claim, Claims, Scope
from .concepts import Concepts
from .exclusions import Exclusions
from .patterns import Regex
from .positions import Path_, Where
from .prose import Prose
from .vocabulary import PROSE


class Meta(dict[str, Any]):
    """A `_meta` map as written, equal to another only when it prints the same: a dict's `==`
    holds `1 == True` and ignores the keys' order, which the download and a site's own
    templates print apart (`site.memo` keeps a page while its inputs are equal)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, dict) and json.dumps(self) == json.dumps(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]  # a dict's: none


@dataclass(frozen=True)
class RequirementFiles:
    """A conformance suite's requirement files in its repository (`requirements:`)."""

    seps: str
    """A glob of the SEP traceability files (`src/seps/sep-*.yaml`)."""
    traceability: str | None
    """The traceability manifest (`src/seps/traceability.json`), if any."""
    sets: str
    """A glob of the requirement sets (`requirements/*.yaml`), each named by its revision."""


@dataclass
class Source:
    """A pinned repository that citations point into."""

    alias: str
    title: str
    repo: str | None
    """https, ssh or local path; None when there is no public URL."""
    commit: str
    path: str | None
    """A local checkout, relative to the registers directory."""
    claims: tuple[Claim, ...]
    where: Where
    meta: dict[str, Any] = field(default_factory=dict)
    markdown: tuple[str, ...] = ()
    """Globs of the files besides `*.md` whose cited text is compared as Markdown."""
    statements: tuple[str, ...] = ()
    """`coverage.statements`: globs of the files whose normative statements count."""
    changelog: str | None = None
    """`coverage.changelog`: a glob of each revision's changelog page."""
    scope: Scope | None = None
    """`coverage.scope`: the pages and headings the project covers; None: every one."""
    requirements: RequirementFiles | None = None
    """`requirements:`: where a conformance suite's repository holds its requirement files."""
    version: str | None = None
    """The release or date the pin stands for, shown beside a subject's name; None: the commit."""

    @property
    def version_text(self) -> str:
        """`version`, else the short commit: what the Matrix page's header says of the pin."""
        return self.version or self.commit[:7]

    def blob_url(self, path: str, start: int, end: int) -> str | None:
        """Permalink to the cited lines at the pinned commit, when the repo is public."""
        base = web_base(self.repo)
        if base is None:
            return None
        anchor = f"#L{start}" if start == end else f"#L{start}-L{end}"
        # Percent-encoded: `#`, `?`, `%`, spaces or parentheses would end a link's path.
        return f"{base}/blob/{quote(self.commit, safe='')}/{quote(path, safe='/')}{anchor}"

    def commit_url(self) -> str | None:
        base = web_base(self.repo)
        return f"{base}/commit/{quote(self.commit, safe='')}" if base else None


def web_base(repo: str | None) -> str | None:
    """The browsable https base of a repo URL (GitHub-style hosts), or None."""
    if not repo or not repo.startswith("https://"):
        return None
    # The rest (spaces, parentheses, quotes, `<>`, `#`, `?`) percent-encoded: one URL in a link.
    return quote(re.sub(r"\.git$", "", repo.rstrip("/")), safe=":/@!$&'*+,;=%~")


@dataclass(frozen=True)
class LinkPattern:
    """An external reference pattern in prose: `SEP-(\\d+)` -> a pull request URL."""

    pattern: Regex[Any]  # compiled by RE2 (`model.patterns`): linear time
    url: str

    def url_for(self, match: Any) -> str:
        """`url` with `{0}` (the match) and `{1}`, `{2}`... (its groups) filled in."""
        url = self.url
        for number, group in enumerate(match.groups(), 1):
            url = url.replace("{" + str(number) + "}", group or "")
        return url.replace("{0}", match.group(0))


@dataclass
class Sources:
    """registers/sources.yaml."""

    file: str
    revisions: list[str]
    sources: dict[str, Source]
    links: list[LinkPattern]
    pending: list[str]
    meta: dict[str, Any] = field(default_factory=dict)

    _claims: Claims | None = field(default=None, init=False, repr=False, compare=False)

    def claims(self) -> Claims:
        """Every source's claims, compiled once (each citation's resolving asks)."""
        if self._claims is None:
            self._claims = Claims({alias: s.claims for alias, s in self.sources.items()})
        return self._claims

    def name_of(self, alias: str) -> str:
        """The name the site shows for a source: its `title`, else its alias."""
        source = self.sources.get(alias)
        return source.title if source is not None and source.title else alias


_RENAMED: dict[Path_, str] = {("where",): "where_text", ("next",): "next_step"}
PROSE_FIELDS = {path: _RENAMED.get(path, ".".join(map(str, path))) for path in PROSE}
"""An entry's prose fields (`vocabulary.PROSE`): path in the YAML entry -> `Entry` attribute."""


@dataclass
class Rated:
    """A status, value or effort: a keyword and an optional Markdown note."""

    key: str
    note: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class Revisions:
    """The specification's revisions (sources.yaml's) that first had an entry's subject
    matter (None: before the first recorded), changed it, and first no longer had it."""

    added: str | None = None
    changed: list[str] = field(default_factory=list)
    removed: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def recorded(self) -> bool:
        return bool(self.added or self.changed or self.removed)

    def as_data(self) -> dict[str, Any]:
        """The fields written, for export."""
        data = {"added": self.added, "changed": list(self.changed), "removed": self.removed}
        return {key: value for key, value in data.items() if value}


@dataclass
class Note:
    title: str
    text: str


@dataclass
class Entry:
    """One row of a register."""

    id: str
    title: str
    what: str
    where_text: str | None
    revisions: Revisions
    status: Rated
    value: Rated
    effort: Rated
    risk: str
    detail: str | None
    notes: list[Note]
    tags: list[str]
    citations: list[Citation]
    """The listed `sources:`."""
    prose_citations: list[Citation]
    register: str
    where: Where
    meta: dict[str, Any] = field(default_factory=dict)
    field: Path_ = ()
    """Where the entry sits in its document: `("entries", index)`."""
    named: bool = True
    """Whether the entry has an `id` string; without one, `id` is a stand-in `slug[index]`."""
    next_step: str | None = None
    texts: tuple[Prose, ...] = ()
    """Its prose fields that hold text, parsed, in file order (each field above is one)."""
    concept: str | None = None
    """The ID of the concept in registers/concepts.yaml it describes (its matrix row)."""

    @property
    def anchor(self) -> str:
        return anchor_of(self.id)

    @property
    def key(self) -> EntryKey:
        """Which entry this is, whatever its ID says (two entries may share one)."""
        return self.register, self.field

    def all_citations(self) -> list[Citation]:
        return self.citations + self.prose_citations

    def prose(self) -> dict[Path_, str | None]:
        """Each prose field by its path in the YAML entry, notes' texts last."""
        texts = {path: attrgetter(name)(self) for path, name in PROSE_FIELDS.items()}
        texts.update({("notes", n, "text"): note.text for n, note in enumerate(self.notes)})
        return texts


@dataclass
class Register:
    slug: str
    file: str
    title: str
    prefix: str
    description: str
    status: str
    tags: list[str]
    created: str
    last_updated: str
    increment: int
    subject: str
    summary: str | None
    entries: list[Entry]
    where: Where
    """Where the `prefix:` value is written (1:1 without one): what names the register."""
    summary_citations: list[Citation] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def citations(self) -> list[Citation]:
        """Every citation in the register: its summary's, then each entry's, in file order."""
        found = list(self.summary_citations)
        for entry in self.entries:
            found.extend(entry.all_citations())
        return found


EntryKey = tuple[str, Path_]
"""An entry's register slug and its place in that register's file (`Entry.key`)."""


@dataclass
class RegisterSet:
    """Everything under registers/: the sources and every register, in file-name order."""

    sources: Sources
    registers: list[Register]
    exclusions: Exclusions | None = None
    concepts: Concepts | None = None
    backlinks: dict[EntryKey, list[str]] = field(default_factory=dict)
    """Entry -> the IDs (or register slugs) whose prose references it (`checking.references`)."""

    def backlinks_of(self, entry: Entry) -> list[str]:
        return self.backlinks.get(entry.key, [])

    def entries(self) -> dict[str, Entry]:
        return {entry.id: entry for register in self.registers for entry in register.entries}

    def citations(self) -> list[Citation]:
        """Every citation in every register, in file order, then the exclusions'."""
        found = [citation for register in self.registers for citation in register.citations()]
        return found + (self.exclusions.citations() if self.exclusions else [])


def anchor_of(entry_id: str) -> str:
    """The page anchor of an entry: `meta-07` for META-07; anything but letters, digits and
    `-` becomes `-`, so any ID makes a plain slug, never markup."""
    return re.sub(r"[^a-z0-9-]+", "-", entry_id.lower()).strip("-") or "entry"

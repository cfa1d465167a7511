"""Pages planned as register files against a registers folder (pure: read texts in).

Each file's text is read back through the loader and the schema before it is planned.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..model.diagnostic import Diagnostic, Severity
from ..model.positions import Where
from ..model.registers import Register, Sources
from ..reading import schema
from ..reading.document import LoadError
from ..reading.folder import owner_of
from ..reading.loader import parse
from ..storage.layout import REGISTER_SUFFIX
from .fields import FILE_KEY, Imported, register_data
from .page import Page, PageError, Spot, parse_page
from .yamlout import register_text

_FILE_STEM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
_TOP = Spot(1, 1)


@dataclass(frozen=True)
class PageText:
    """A page as read: the name to report it by and its text."""

    file: str
    text: str


@dataclass
class Planned:
    """One page's register file, ready to write."""

    page: str
    name: str
    """The register's file stem."""
    file: str
    """The register file, as reported."""
    text: str
    imported: Imported
    """The page's data, and where in its words each entry's state was found (or not)."""
    unstated: list[Diagnostic] = field(default_factory=list)
    """`register check`'s report of each entry the page gives no state, in the new file."""


@dataclass
class Folder:
    """What the registers folder already holds."""

    sources: Sources
    registers: Sequence[Register]
    exists: Callable[[str], bool]
    """Whether the register file of a name exists."""
    file_of: Callable[[str], str]
    """The register file of a name, as reported (`registers/meta.yaml`)."""


def slug(title: str) -> str:
    """A register's file stem from its title: `_meta` -> `meta`, `Plugin API` -> `plugin-api`."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def plan(
    pages: Sequence[PageText], folder: Folder, *, name: str | None = None, force: bool = False
) -> tuple[list[Planned], list[Diagnostic]]:
    """Every page planned as a register file, and every problem (an error: write nothing)."""
    planned: list[Planned] = []
    problems: list[Diagnostic] = []
    taken = _Taken(folder, force)
    for page in pages:
        found, problem = _plan_page(page, name, taken)
        problems.extend(problem)
        if found is not None:
            planned.append(found)
            taken.claim(found)
    return planned, problems


@dataclass
class _Taken:
    """IDs, prefixes and files already held: by the folder, then by the pages planned."""

    folder: Folder
    force: bool
    ids: dict[str, str] = field(default_factory=dict)
    prefixes: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)

    def held(self, replacing: str) -> tuple[dict[str, str], dict[str, str]]:
        """(ID -> file, prefix -> file) of the folder, but the register a page replaces."""
        ids, prefixes = dict(self.ids), dict(self.prefixes)
        for register in self.folder.registers:
            if register.slug != replacing:
                prefixes.setdefault(register.prefix, register.file)
                ids.update({e.id: register.file for e in register.entries if e.named})
        return ids, prefixes

    def claim(self, planned: Planned) -> None:
        data = planned.imported.data
        self.files[planned.file] = planned.page
        self.prefixes[data["prefix"]] = planned.file
        self.ids.update({entry["id"]: planned.file for entry in data["entries"]})


def _plan_page(
    page: PageText, name: str | None, taken: _Taken
) -> tuple[Planned | None, list[Diagnostic]]:
    """The page's register file (None when it has an error), and its problems."""
    try:
        read = parse_page(page.text)
    except PageError as err:
        return None, [_problem(page.file, err.at, err.message, err.id)]
    imported = register_data(read)
    problems = [_problem(page.file, err.at, err.message, err.id) for err in imported.errors]
    stem, misnamed = _stem(read, name)
    if misnamed is not None:
        return None, [*problems, _problem(page.file, misnamed.at, misnamed.message)]
    problems.extend(_folder_problems(page.file, read, imported, stem, taken))
    if any(p.failing for p in problems):
        return None, problems
    return _written(page.file, read, imported, stem, taken.folder.file_of(stem), problems)


def _stem(read: Page, name: str | None) -> tuple[str, PageError | None]:
    """The register file's stem (--name, the page's `file:` line, the title's slug), and
    why a `file:` line is not a name."""
    if name is not None or FILE_KEY not in read.header:
        return name or slug(read.title), None
    value, at = read.header[FILE_KEY]
    stem = value.removesuffix(REGISTER_SUFFIX)
    if stem == value or not _FILE_STEM.fullmatch(stem):
        message = f"file '{value}' is not a register file's name (NAME.yaml, no folder)"
        return "", PageError(at, message)
    return stem, None


def _problem(
    file: str, at: Spot, message: str, id: str = "", severity: Severity = "error"
) -> Diagnostic:
    where, id = Where(file, at.line, at.col), id or "page"
    return Diagnostic.at(where, id=id, code="import-page", message=message, severity=severity)


def _folder_problems(
    file: str, read: Page, imported: Imported, stem: str, taken: _Taken
) -> list[Diagnostic]:
    problems = _subject_problems(file, read, taken.folder.sources)
    target, clash = taken.folder.file_of(stem), ""
    if not stem:
        clash = "no file name in the title: give --name"
    elif target in taken.files:
        clash = f"{target} is written from {taken.files[target]} already"
    elif taken.folder.exists(stem) and not taken.force:
        clash = f"{target} exists: give --force to overwrite it"
    if clash:
        problems.append(_problem(file, _TOP, clash))
    ids, prefixes = taken.held(stem)
    prefix, first = imported.data["prefix"], read.entries[0]
    if prefix in prefixes:
        message = f"prefix {prefix} is the prefix of {prefixes[prefix]}"
        problems.append(_problem(file, first.at, message, first.id))
    problems += [
        _problem(file, entry.at, f"{entry.id} is already in {ids[entry.id]}", entry.id)
        for entry in read.entries
        if entry.id in ids
    ]
    return problems


def _subject_problems(file: str, read: Page, sources: Sources) -> list[Diagnostic]:
    source = sources.sources.get(read.subject)
    if source is None:
        known = ", ".join(sources.sources) or "none"
        message = f"no source '{read.subject}' in sources.yaml (known: {known}): add it first"
        return [_problem(file, read.status_at, message)]
    pinned, said = source.commit.lower(), read.commit.lower()
    if pinned.startswith(said) or said.startswith(pinned):
        return []
    message = (
        f"the page's status column is at {read.commit}, sources.yaml pins {read.subject} at "
        f"{source.commit}: citations are verified at the pin (register bump moves it)"
    )
    return [_problem(file, read.status_at, message, severity="warning")]


def _written(
    file: str, read: Page, imported: Imported, stem: str, target: str, warnings: list[Diagnostic]
) -> tuple[Planned | None, list[Diagnostic]]:
    """The register file's text, read back: the loader must give the data it was made of."""
    text = register_text(
        imported.data, commit=read.commit, unstated=imported.unstated, cues=imported.cues
    )
    try:
        doc = parse(text, target, schema.integer_keys())
    except LoadError as err:
        message = f"internal: the register file would not load: {err.message}"
        return None, [_problem(file, _TOP, message)]
    if doc.data != imported.data:
        message = "internal: the register file would not read back as imported"
        return None, [_problem(file, _TOP, message)]
    found = list(schema.validate(doc, schema.REGISTER, owner_of(doc, stem)))
    unstated = [d for d in found if d.id in imported.unstated and "'state'" in d.message]
    entries = {entry.id: entry.at for entry in read.entries}
    others = [  # a schema problem of the register, at its entry's heading in the page
        _problem(file, entries.get(d.id, _TOP), d.message, d.id) for d in found if d not in unstated
    ]
    if others:
        return None, others
    return Planned(file, stem, target, text, imported, unstated), warnings

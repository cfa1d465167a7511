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
    warnings: list[Diagnostic] = field(default_factory=list)


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
        found = _plan_page(page, folder, name, taken)
        if isinstance(found, Planned):
            planned.append(found)
            problems.extend(found.warnings)
        else:
            problems.extend(found)
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


def _plan_page(
    page: PageText, folder: Folder, name: str | None, taken: _Taken
) -> Planned | list[Diagnostic]:
    try:
        read = parse_page(page.text)
    except PageError as err:
        return [_at(page.file, err)]
    imported = register_data(read)
    problems = [_at(page.file, err) for err in imported.errors]
    stem, misnamed = _stem(read, name)
    if misnamed is not None:
        return [*problems, _at(page.file, misnamed)]
    problems.extend(_folder_problems(page, read, imported, folder, stem, taken))
    if any(p.failing for p in problems):
        return problems
    planned = _written(page, read, imported, stem, folder.file_of(stem))
    if isinstance(planned, list):
        return planned
    planned.warnings = problems
    _claim(taken, planned)
    return planned


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


_FILE_STEM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


def _at(file: str, err: PageError, severity: Severity = "error") -> Diagnostic:
    where, id = Where(file, err.at.line, err.at.col), err.id or "page"
    return Diagnostic.at(where, id=id, code="import-page", message=err.message, severity=severity)


def _folder_problems(
    page: PageText, read: Page, imported: Imported, folder: Folder, stem: str, taken: _Taken
) -> list[Diagnostic]:
    problems = _subject_problems(page, read, folder.sources)
    target = folder.file_of(stem)
    if not stem:
        problems.append(_error(page.file, Spot(1, 1), "no file name in the title: give --name"))
    elif target in taken.files:
        message = f"{target} is written from {taken.files[target]} already"
        problems.append(_error(page.file, Spot(1, 1), message))
    elif folder.exists(stem) and not taken.force:
        message = f"{target} exists: give --force to overwrite it"
        problems.append(_error(page.file, Spot(1, 1), message))
    ids, prefixes = taken.held(stem)
    prefix = imported.data["prefix"]
    if prefix in prefixes:
        at = read.entries[0].at
        message = f"prefix {prefix} is the prefix of {prefixes[prefix]}"
        problems.append(_error(page.file, at, message, read.entries[0].id))
    for entry in read.entries:
        if entry.id in ids:
            message = f"{entry.id} is already in {ids[entry.id]}"
            problems.append(_error(page.file, entry.at, message, entry.id))
    return problems


def _subject_problems(page: PageText, read: Page, sources: Sources) -> list[Diagnostic]:
    source = sources.sources.get(read.subject)
    if source is None:
        known = ", ".join(sources.sources) or "none"
        message = f"no source '{read.subject}' in sources.yaml (known: {known}): add it first"
        return [_error(page.file, read.status_at, message)]
    pinned, said = source.commit.lower(), read.commit.lower()
    if pinned.startswith(said) or said.startswith(pinned):
        return []
    message = (
        f"the page's status column is at {read.commit}, sources.yaml pins {read.subject} at "
        f"{source.commit}: citations are verified at the pin (register bump moves it)"
    )
    return [_error(page.file, read.status_at, message, severity="warning")]


def _error(
    file: str, at: Spot, message: str, id: str = "page", severity: Severity = "error"
) -> Diagnostic:
    return _at(file, PageError(at, message, id), severity)


def _written(
    page: PageText, read: Page, imported: Imported, stem: str, target: str
) -> Planned | list[Diagnostic]:
    """The register file's text, read back: the loader must give the data it was made of."""
    text = register_text(
        imported.data, commit=read.commit, unstated=imported.unstated, cues=imported.cues
    )
    try:
        doc = parse(text, target, schema.integer_keys())
    except LoadError as err:
        message = f"internal: the register file would not load: {err.message}"
        return [_error(page.file, Spot(1, 1), message)]
    if doc.data != imported.data:
        message = "internal: the register file would not read back as imported"
        return [_error(page.file, Spot(1, 1), message)]
    found = list(schema.validate(doc, schema.REGISTER, owner_of(doc, stem)))
    unstated = [d for d in found if d.id in imported.unstated and "'state'" in d.message]
    others = [d for d in found if d not in unstated]
    if others:
        return [_schema_problem(page.file, read, d) for d in others]
    return Planned(page.file, stem, target, text, imported, unstated)


def _schema_problem(file: str, read: Page, found: Diagnostic) -> Diagnostic:
    """A schema problem of the register, located at its entry's heading in the page."""
    entry = next((e for e in read.entries if e.id == found.id), None)
    at = entry.at if entry else Spot(1, 1)
    return _error(file, at, found.message, found.id)


def _claim(taken: _Taken, planned: Planned) -> None:
    data = planned.imported.data
    taken.files[planned.file] = planned.page
    taken.prefixes[data["prefix"]] = planned.file
    taken.ids.update({entry["id"]: planned.file for entry in data["entries"]})

"""The suite's requirement files -> values: `traceability.json` (each check tested or not),
a SEP's `sep-NNNN.yaml` (each requirement's text, check and URL, or why it is excluded) and
`requirements/REVISION.yaml` (the scored scenarios per leg, and those not scored). Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..model.diagnostic import Diagnostic
from ..model.positions import Path_, Where
from ..reading.document import Document, LoadError
from ..reading.loader import parse as parse_yaml
from ..reading.tolerant import value_at
from .jsontext import JsonProblem, parse
from .record import located_problem
from .runs import MODES

TESTED, UNTESTED, EXCLUDED = "tested", "untested", "excluded"
UNLISTED = "not in traceability.json"
"""Why a check the manifest does not list is untested: the suite has not collected it."""


@dataclass(frozen=True)
class Requirement:
    """One requirement of a SEP's traceability file."""

    sep: int
    check: str | None
    """None for an excluded requirement."""
    text: str
    """The specification's sentence, as the suite quotes it."""
    url: str
    """The entry's `url:`, else the SEP's `spec_url:`."""
    status: str
    """tested or untested (traceability.json), or excluded."""
    reason: str | None
    """Why excluded (or untested when the manifest does not list the check)."""
    where: Where


@dataclass(frozen=True)
class NotScored:
    """A scenario a requirement set runs but never counts toward a pass rate."""

    scenario: str
    mode: str
    """The suite's `leg:`."""
    reason: str
    note: str | None


@dataclass(frozen=True)
class RequirementSet:
    """The scenarios conformance to one revision requires."""

    revision: str
    """The file's name without `.yaml`."""
    server: tuple[str, ...]
    client: tuple[str, ...]
    not_scored: tuple[NotScored, ...]
    where: Where

    def scored(self, mode: str) -> tuple[str, ...]:
        return self.server if mode == "server" else self.client


def read_traceability(text: str, file: str) -> tuple[dict[str, str] | None, list[Diagnostic]]:
    """Each check's status (tested or untested) in the manifest `text`."""
    try:
        parsed = parse(text, file)
    except JsonProblem as err:
        return None, [_problem(err.where, err.message)]
    seps = value_at(parsed.data, ("seps",))
    if not isinstance(seps, dict):
        return None, [
            _problem(parsed.at(()), "expected an object with 'seps', as the suite writes")
        ]
    statuses: dict[str, str] = {}
    problems: list[Diagnostic] = []
    for key in seps:
        items = value_at(parsed.data, ("seps", key, "requirements"))
        for index, item in enumerate(items if isinstance(items, list) else [None]):
            status = item.get("status") if isinstance(item, dict) else None
            if status in (TESTED, UNTESTED) and isinstance(item.get("check"), str):
                statuses[item["check"]] = status
                continue
            message = "a manifest requirement is {check, status: tested|untested, text}"
            problems.append(_problem(parsed.at(("seps", key, "requirements", index)), message))
    return (None, problems) if problems else (statuses, [])


def read_sep(
    text: str, file: str, statuses: Mapping[str, str]
) -> tuple[tuple[Requirement, ...] | None, list[Diagnostic]]:
    """The requirements of the SEP file `text`, each check's status from `statuses`."""
    doc, problems = _yaml(text, file)
    if doc is None:
        return None, problems
    data = doc.data
    sep, spec_url = data.get("sep"), data.get("spec_url")
    if not isinstance(sep, int) or isinstance(sep, bool):
        problems.append(_wrong(doc, ("sep",), "'sep' is the SEP's number"))
    if not isinstance(spec_url, str):
        problems.append(_wrong(doc, ("spec_url",), "'spec_url' is the SEP's page URL"))
    items = data.get("requirements")
    if not isinstance(items, list):
        problems.append(_wrong(doc, ("requirements",), "'requirements' is a list"))
    if problems:
        return None, problems
    found = [
        _requirement(doc, sep, spec_url, index, statuses, problems) for index in range(len(items))
    ]
    return (None, problems) if problems else (tuple(item for item in found if item), [])


def _requirement(
    doc: Document,
    sep: int,
    spec_url: str,
    index: int,
    statuses: Mapping[str, str],
    problems: list[Diagnostic],
) -> Requirement | None:
    path: Path_ = ("requirements", index)
    item = doc.data["requirements"][index]
    fields = ("check", "text", "url", "excluded", "issue")
    if not isinstance(item, dict) or not all(isinstance(v, str) for v in item.values()):
        problems.append(_wrong(doc, path, f"a requirement maps {', '.join(fields)} to strings"))
        return None
    unknown = [key for key in item if key not in fields]
    if unknown or "text" not in item or ("check" in item) == ("excluded" in item):
        message = "a requirement has a 'text' and either a 'check' or an 'excluded' reason"
        problems.append(_wrong(doc, (*path, unknown[0]) if unknown else path, message, True))
        return None
    check, url, where = item.get("check"), item.get("url", spec_url), doc.where(path)
    if check is None:
        return Requirement(sep, None, item["text"], url, EXCLUDED, item["excluded"], where)
    status = statuses.get(check)
    reason = None if status else UNLISTED
    return Requirement(sep, check, item["text"], url, status or UNTESTED, reason, where)


def read_set(text: str, file: str) -> tuple[RequirementSet | None, list[Diagnostic]]:
    """The requirement set in `text`; its revision is the file's name without `.yaml`."""
    doc, problems = _yaml(text, file)
    if doc is None:
        return None, problems
    lists = {mode: _names(doc, mode, problems) for mode in MODES}
    not_scored = _not_scored(doc, problems)
    if problems:
        return None, problems
    revision = file.rsplit("/", 1)[-1].removesuffix(".yaml")
    held = RequirementSet(revision, lists["server"], lists["client"], not_scored, Where(file, 1, 1))
    return held, []


def _names(doc: Document, mode: str, problems: list[Diagnostic]) -> tuple[str, ...]:
    names = doc.data.get(mode, [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        problems.append(_wrong(doc, (mode,), f"'{mode}' is a list of scenario names"))
        return ()
    return tuple(names)


def _not_scored(doc: Document, problems: list[Diagnostic]) -> tuple[NotScored, ...]:
    items = doc.data.get("not_scored", [])
    if not isinstance(items, list):
        problems.append(_wrong(doc, ("not_scored",), "'not_scored' is a list"))
        return ()
    found = []
    for index, item in enumerate(items):
        ok = isinstance(item, dict) and all(
            isinstance(item.get(key), str) for key in ("scenario", "leg", "reason")
        )
        if not ok or item["leg"] not in MODES or not isinstance(item.get("note", ""), str):
            message = "a not_scored entry is {scenario, leg: server|client, reason, note?}"
            problems.append(_wrong(doc, ("not_scored", index), message))
            continue
        found.append(NotScored(item["scenario"], item["leg"], item["reason"], item.get("note")))
    return tuple(found)


def _yaml(text: str, file: str) -> tuple[Document | None, list[Diagnostic]]:
    try:
        doc = parse_yaml(text, file, frozenset({"sep"}))
    except LoadError as err:
        return None, [_problem(Where(file, err.mark.line, err.mark.col), err.message)]
    if not isinstance(doc.data, dict):
        return None, [_problem(Where(file, 1, 1), "expected a YAML mapping, as the suite writes")]
    return doc, []


def _wrong(doc: Document, path: Path_, message: str, at_key: bool = False) -> Diagnostic:
    return _problem(doc.where(path, at_key), message)


def _problem(where: Where, message: str) -> Diagnostic:
    return located_problem(where, "requirements-shape", message)

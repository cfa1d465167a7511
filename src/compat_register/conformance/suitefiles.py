"""The suite's requirement files read at its source's pin (`requirements:` in sources.yaml),
the one module of `conformance` reading a checkout; a problem names a file `ALIAS:PATH`."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.claims import glob_matches
from ..model.diagnostic import Diagnostic
from ..model.positions import Where
from ..model.registers import RequirementFiles, Source, Sources
from ..sources.git import GitSourceError
from ..sources.pins import Checkouts, Pin
from .requirements import Requirement, RequirementSet, read_sep, read_set, read_traceability


@dataclass
class SuiteFiles:
    """What the suite's source holds at its pin: every SEP's requirements, each revision's
    requirement set (in sources.yaml's order of revisions), and the problems met."""

    source: str | None = None
    requirements: tuple[Requirement, ...] = ()
    sets: dict[str, RequirementSet] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def suite_source(sources: Sources) -> tuple[Source | None, list[Diagnostic]]:
    """The one source naming requirement files; a second one is an error at its alias."""
    named = [s for s in sources.sources.values() if s.requirements is not None]
    problems = [
        Diagnostic.at(
            other.where,
            id=other.alias,
            code="requirements-twice",
            message=f"{named[0].alias} names the suite's requirement files already: one "
            "suite is read (drop requirements: from one of them)",
        )
        for other in named[1:]
    ]
    return (named[0] if named else None), problems


def read_suite(sources: Sources, checkouts: Checkouts) -> SuiteFiles:
    """The suite's requirement files at its pin; empty when no source names them."""
    source, problems = suite_source(sources)
    if source is None or source.requirements is None:
        return SuiteFiles(diagnostics=problems)
    pin = checkouts.pin(source)
    try:
        found = _read(source.alias, source.requirements, pin, checkouts) if pin.sha else None
    except GitSourceError as err:
        pin, found = Pin(None, None, str(err)), None
    if found is None:
        message = f"cannot read its requirement files at its pin: {pin.problem}"
        at = Diagnostic.at(
            source.where, id=source.alias, code="requirements-unreadable", message=message
        )
        return SuiteFiles(source.alias, diagnostics=[*problems, at])
    order = {revision: index for index, revision in enumerate(sources.revisions)}
    sets = dict(sorted(found.sets.items(), key=lambda item: order.get(item[0], len(order))))
    diagnostics = [*problems, *found.diagnostics]
    return SuiteFiles(source.alias, found.requirements, sets, diagnostics)


def _read(alias: str, files: RequirementFiles, pin: Pin, checkouts: Checkouts) -> SuiteFiles:
    assert pin.checkout is not None and pin.sha is not None
    paths = pin.checkout.paths(pin.sha)

    def text(path: str) -> str:
        found = checkouts.text(pin, path)
        return "\n".join(found.lines) if found is not None else ""

    statuses: dict[str, str] | None = {}
    problems: list[Diagnostic] = []
    if (manifest := files.traceability) is not None and manifest not in paths:
        message = f"no such file at {alias}'s pin {pin.sha[:12]}"
        where = Where(f"{alias}:{manifest}", 1, 1)
        problems.append(Diagnostic.at(where, id=alias, code="requirements-shape", message=message))
    elif manifest is not None:
        statuses, problems = read_traceability(text(manifest), f"{alias}:{manifest}")
    requirements: list[Requirement] = []
    for path in (p for p in paths if glob_matches(files.seps, p)):
        found, said = read_sep(text(path), f"{alias}:{path}", statuses or {})
        requirements.extend(found or ())
        problems.extend(said)
    sets: dict[str, RequirementSet] = {}
    for path in (p for p in paths if glob_matches(files.sets, p)):
        held, said = read_set(text(path), f"{alias}:{path}")
        problems.extend(said)
        if held is not None:
            sets[held.revision] = held
    return SuiteFiles(alias, tuple(requirements), sets, problems)

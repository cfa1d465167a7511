"""The pure diff (`history.diffing`) on generated register sets: a set against itself is
empty, B against A mirrors A against B, and summaries survive the cache's JSON round trip."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import tiers
from compat_register.history.diffing import (
    Diff,
    EntryChange,
    Field,
    RegisterChange,
    SourceChange,
    Unreadable,
    diff_data,
    diff_from_data,
    diff_sets,
    summarise,
)
from compat_register.model.vocabulary import STATES
from registerfiles import register_head

# Small pools, so that generated sets share entries, citations and quotes often.
words = st.sampled_from(["a", "b", "c"])
citation = st.tuples(
    st.sampled_from(["sources.0", "sources.1", "what", "status.note"]),
    st.sampled_from(["up", None]),
    st.sampled_from(["x.go", "y.go"]),
    st.integers(1, 3),
    st.sampled_from(["q", None]),
).map(lambda c: [c[0], f"{c[1] or ''}:{c[2]}:{c[3]} {c[4]}", c[1], c[2], c[3], c[3], c[4]])
entry = st.fixed_dictionaries(
    {
        "title": words,
        "state": st.sampled_from(STATES),
        "level": st.sampled_from(["high", "low"]),
        "size": st.sampled_from(["S", "M"]),
        "revisions": st.dictionaries(st.sampled_from(["added"]), words),
        "tags": st.lists(words, max_size=2),
        "prose": st.dictionaries(st.sampled_from(["what", "risk", "notes"]), words),
        "citations": st.lists(citation, max_size=4),
    }
)
register = st.one_of(
    st.fixed_dictionaries(
        {
            "header": st.fixed_dictionaries(
                {
                    "title": words,
                    "prefix": st.just("T"),
                    "status": words,
                    "subject": words,
                    "tags": st.lists(words, max_size=1),
                    "description": words,
                    "summary": words,
                }
            ),
            "entries": st.dictionaries(st.sampled_from(["T-1", "T-2", "T-3"]), entry),
            "counts": st.just({}),
        }
    ),
    st.builds(
        lambda line: {"problem": {"line": line, "col": 1, "code": "yaml-syntax", "message": "m"}},
        st.integers(1, 3),
    ),
)
sources = st.builds(
    lambda pins: {"pins": pins}, st.dictionaries(st.sampled_from(["up", "v2"]), words)
)
register_set = st.dictionaries(st.sampled_from(["a.yaml", "b.yaml"]), register).flatmap(
    lambda registers: st.one_of(
        st.just(registers), sources.map(lambda s: {**registers, "sources.yaml": s})
    )
)


def canonical(diff: Diff) -> Any:
    """The diff with its lists in a fixed order (each side lists in its own file order)."""
    data = diff_data(diff)
    for entry_data in data["entries"]:
        citations = entry_data["citations"]
        for key in ("added", "removed"):
            citations[key] = sorted(citations[key])
        citations["moved"] = sorted((m["from"], m["to"]) for m in citations["moved"])
    data["entries"].sort(key=lambda e: (e["register"], e["id"]))
    for key in ("registers", "sources", "source_problems"):
        data[key].sort(key=repr)
    return data


def mirrored(diff: Diff) -> Diff:
    """The diff the other way round: what B -> A reports when `diff` is A -> B."""
    return Diff(
        [_mirror_register(r) for r in diff.registers],
        [_mirror_entry(e) for e in diff.entries],
        [_mirror_source(s) for s in diff.sources],
        _mirror_problems(diff.source_problems),
    )


def _mirror_register(change: RegisterChange) -> RegisterChange:
    kind = {"added": "removed", "removed": "added"}.get(change.change, change.change)
    return replace(
        change,
        change=kind,
        fields=_mirror_fields(change.fields),
        problems=_mirror_problems(change.problems),
    )


def _mirror_entry(change: EntryChange) -> EntryChange:
    kind = {"added": "removed", "removed": "added"}.get(change.change, change.change)
    title = change.title
    if change.change == "changed" and (named := change.fields.get("title")):
        title = named[0]
    return EntryChange(
        change.register,
        change.id,
        kind,
        title,
        _mirror_fields(change.fields),
        list(change.removed),
        list(change.added),
        [(b, a) for a, b in change.moved],
    )


def _mirror_fields(fields: dict[str, Field]) -> dict[str, Field]:
    return {name: None if value is None else (value[1], value[0]) for name, value in fields.items()}


def _mirror_source(change: SourceChange) -> SourceChange:
    kind = {"added": "removed", "removed": "added"}.get(change.change, change.change)
    return SourceChange(change.alias, kind, change.new, change.old)


def _mirror_problems(problems: list[Unreadable]) -> list[Unreadable]:
    """The problems with their sides swapped, the `from` side's first as always."""
    return sorted(map(_mirror_problem, problems), key=lambda p: p.side != "from")


def _mirror_problem(problem: Unreadable) -> Unreadable:
    return replace(problem, side="to" if problem.side == "from" else "from")


@given(register_set)
def test_a_set_against_itself_is_empty(registers: dict[str, Any]) -> None:
    assert diff_sets(registers, registers).empty


@settings(max_examples=tiers.examples(300))
@given(register_set, register_set)
def test_the_diff_back_mirrors_the_diff_there(old: dict[str, Any], new: dict[str, Any]) -> None:
    there, back = diff_sets(old, new), diff_sets(new, old)
    assert canonical(back) == canonical(mirrored(there))


@given(register_set, register_set)
def test_a_diff_survives_the_cache(old: dict[str, Any], new: dict[str, Any]) -> None:
    diff = diff_sets(old, new)
    assert diff_from_data(diff_data(diff)) == diff


@given(st.binary(max_size=200))
def test_any_bytes_summarise_without_raising(data: bytes) -> None:
    summary = summarise("r.yaml", data)
    assert "problem" in summary or "entries" in summary


@given(st.text(max_size=200))
def test_any_text_summarises_without_raising(text: str) -> None:
    summary = summarise("sources.yaml", text.encode("utf-8"))
    assert "problem" in summary or "pins" in summary


def register_text(entries: list[tuple[str, str, str, int]]) -> str:
    text = register_head()
    for entry_id, state, title, indent in entries:
        pad = " " * indent
        text += (
            f"{pad}- id: {entry_id}\n{pad}  title: {title}\n{pad}  what: See x.go:{len(title)}.\n"
            f"{pad}  status: {{state: {state}}}\n{pad}  value: {{level: low}}\n"
            f"{pad}  effort: {{size: S}}\n{pad}  risk: None.\n{pad}  sources: [x.go:1]\n"
        )
    return text


register_texts = st.lists(
    st.lists(
        st.tuples(
            st.sampled_from(["T-1", "T-2", "T-3"]),
            st.sampled_from(STATES),
            words,
            st.sampled_from([0, 2]),
        ),
        max_size=3,
    ).map(register_text),
    min_size=1,
    max_size=4,
)


@given(register_texts)
def test_entries_remembered_from_other_versions_change_no_summary(texts: list[str]) -> None:
    memo: dict[Any, Any] = {}
    for text in texts:
        data = text.encode("utf-8")
        assert summarise("t.yaml", data, memo) == summarise("t.yaml", data)

"""What a built register keeps for each citation is plain data, so the garbage collector has
less to walk on tens of thousands (issue 36: `register verify` against its floor)."""

from __future__ import annotations

import gc

from compat_register.model.positions import Where
from compat_register.model.registers import Meta
from compat_register.reading.loader import parse
from compat_register.reading.registerfile import build_register
from compat_register.reading.schema import integer_keys
from registerfiles import register_head

TEXT = (
    register_head()
    + """  - id: T-01
    title: Entry
    what: See up:src/a.go:3 and T-02.
    status: {state: done}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources:
      - up:src/a.go:1-2
  - id: T-02
    title: Other
    what: Nothing cited.
    status: {state: done, _meta: {reviewer: ann}}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources: []
"""
)


def place(token: str) -> Where:
    index = TEXT.index(token)
    return Where("t.yaml", TEXT.count("\n", 0, index) + 1, index - TEXT.rfind("\n", 0, index))


def test_a_citation_carries_its_place_as_plain_fields() -> None:
    register = build_register(parse(TEXT, "t.yaml", integer_keys()), "t", [])
    citations = register.citations()
    assert [(c.where, c.in_prose) for c in citations] == [
        (place("up:src/a.go:1-2"), False),
        (place("src/a.go:3"), True),  # in prose: where its PATH:LINES starts
    ]
    for citation in citations:
        assert not any(isinstance(value, Where) for value in citation)
        assert citation.key.file == citation.file == "t.yaml"


def test_prose_keeps_no_dict_and_an_absent_meta_is_an_untracked_empty_dict() -> None:
    first, second = build_register(parse(TEXT, "t.yaml", integer_keys()), "t", []).entries
    assert first.texts and all(not hasattr(text, "__dict__") for text in first.texts)
    assert first.texts[0].segments and first.texts[0].field == ("entries", 0, "what")
    for meta in (first.meta, first.status.meta, first.revisions.meta, second.meta):
        assert meta == {} and not gc.is_tracked(meta)
    assert isinstance(second.status.meta, Meta) and second.status.meta == {"reviewer": "ann"}


def test_prose_keeps_its_segments_as_data_the_collector_stops_tracking() -> None:
    first, _ = build_register(parse(TEXT, "t.yaml", integer_keys()), "t", []).entries
    what = first.texts[0]
    for _ in range(2):  # a pass untracks a tuple whose items it has untracked before it
        gc.collect()
    kept = [held for held in gc.get_referents(what) if not isinstance(held, type)]
    assert kept and not any(gc.is_tracked(held) for held in kept)
    assert [(s.kind, what[s.start : s.end]) for s in what.segments] == [
        ("citation", "up:src/a.go:3"),
        ("reference", "T-02"),
    ]
    assert what.of_kind("reference") == [what.segments[1]]

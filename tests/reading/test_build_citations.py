"""`register_citations`, the edits' read-back, finds exactly the citations (and the
syntax errors) that `build_register` finds: the same walk, without the rest of the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from compat_register.model.diagnostic import Diagnostic
from compat_register.model.registers import Citation
from compat_register.reading.loader import parse
from compat_register.reading.registerfile import build_register, register_citations
from compat_register.reading.schema import integer_keys
from compat_register.storage.layout import is_register_file
from registerfiles import register_head

MIXED = (
    register_head()
    + """  - id: T-01
    title: Entry
    what: See up:src/a.go:3 and src/b.go:4-6.
    status: {state: done, note: "as src/c.go:7 says"}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources:
      - up:src/a.go:1-2
      - {source: up, path: src/d.go, lines: 9-12, quote: "func D"}
      - src/e.go:99-1
    notes:
      - {title: Why, text: "src/f.go:5 and again src/f.go:5"}
  - title: Unnamed
    what: Nothing cited.
  - not a mapping
"""
)
SUMMARY = MIXED.replace("entries:\n", "summary: Begins at src/g.go:1.\nentries:\n", 1)

Found = tuple[list[Citation], list[Diagnostic]]

ROOT = Path(__file__).resolve().parents[2]


def both(text: str, file: str = "t.yaml") -> tuple[Found, Found]:
    doc = parse(text, file, integer_keys())
    built: list[Diagnostic] = []
    alone: list[Diagnostic] = []
    return (build_register(doc, "t", built).citations(), built), (
        register_citations(doc, "t", alone),
        alone,
    )


@pytest.mark.parametrize("text", [MIXED, SUMMARY], ids=["entries", "with summary"])
def test_the_read_back_finds_what_the_register_build_finds(text: str) -> None:
    (built, built_errors), (alone, alone_errors) = both(text)
    assert alone == built
    assert [c.text for c in alone][:2] in (
        ["up:src/a.go:1-2", "up:src/d.go:9-12 “func D”"],
        ["src/g.go:1", "up:src/a.go:1-2"],
    )
    assert len(alone) >= 7  # listed, mapping, in prose, in a note, twice in one note
    assert alone_errors == built_errors
    assert [d.code for d in alone_errors] == ["bad-citation"]  # src/e.go:99-1


REGISTERS = sorted(p for p in (ROOT / "registers").glob("*.yaml") if is_register_file(p.name))


@pytest.mark.parametrize("path", REGISTERS, ids=lambda p: p.name)
def test_the_projects_own_registers_read_back_alike(path: Path) -> None:
    (built, built_errors), (alone, alone_errors) = both(path.read_text(encoding="utf-8"), str(path))
    assert alone == built and alone
    assert alone_errors == built_errors


def test_every_citation_has_its_own_key() -> None:
    """A key names one citation: the same token twice in one field, the same citation
    listed and in prose, in a summary and in an entry, each its own (stages key outcomes,
    edits and moved stamps by it)."""
    text = SUMMARY.replace("risk: None.", "risk: src/g.go:1 then up:src/a.go:1-2 and src/g.go:1")
    (built, _), _ = both(text)
    keys = [c.key for c in built]
    assert len(set(keys)) == len(keys) == 11
    twice = [c.key for c in built if c.token == "src/f.go:5"]
    assert [k.occurrence for k in twice] == [0, 1]
    assert both(text)[0][0][5].key == built[5].key  # read again, the same keys


def test_a_resolved_citation_is_a_new_one_with_its_source() -> None:
    (built, _), _ = both(MIXED)
    citation = built[0]
    resolved = citation.resolved("up", "src/a.go")
    assert resolved == citation._replace(source="up", repo_path="src/a.go")
    assert (citation.source, citation.repo_path) == (None, None)
    assert resolved.key == citation.key

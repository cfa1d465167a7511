"""A token is found again where it was written: after a code span holding it, or inside a
longer token (`x.go:5` within `x.go:50`), messages and edits still point at the right one."""

from __future__ import annotations

from pathlib import Path

import builder
from compat_register import api

SOURCES = """revisions: [r1]
sources:
  up: {title: Up, repo: null, commit: 1234567, claims: [src/**]}
"""

REGISTER = """title: T
prefix: T
description: D.
status: draft
created: 2026-01-01
last-updated: 2026-01-01
increment: 1
subject: up
entries:
  - id: T-01
    title: One
    what: Not `src/x.go:5`, not src/x.go:50, but src/x.go:5 and T-02; `T-02` is code.
    status: {state: done}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources: [src/x.go:1]
  - id: T-02
    title: Two
    what: T-02 is here, and so is T-01.
    status: {state: done}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources: [src/x.go:2]
"""


def test_prose_tokens_point_where_they_were_written(tmp_path: Path) -> None:
    checked = api.check(builder.registers(tmp_path, SOURCES, {"t.yaml": REGISTER}))
    assert not checked.failed, checked.diagnostics
    entry = checked.registers.entries()["T-01"]
    in_prose = [c for c in entry.prose_citations]
    assert [(c.token, c.where.line) for c in in_prose] == [("src/x.go:50", 12), ("src/x.go:5", 12)]
    line = REGISTER.splitlines()[11]
    assert in_prose[1].where.col == line.index("src/x.go:5 and") + 1
    doc = checked.documents[entry.where.file]
    c = in_prose[1]
    offset = doc.find(c.field, c.token, c.occurrence)
    assert offset is not None and doc.text[offset : offset + 14] == "src/x.go:5 and"
    assert checked.registers.backlinks_of(checked.registers.entries()["T-02"]) == ["T-01"]

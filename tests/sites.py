"""The sites the browser tests read (tests/conftest.py serves them as the fixtures `site`
and `excerpt_site`): the repository's own site with a hostile register, and the golden
registers pinned to a real checkout so that their citations have excerpts, edge cases
(blank lines, CR, CRLF, tabs, no final newline) among them."""

from __future__ import annotations

import shutil
from pathlib import Path

import builder
from compat_register.site.extensions import mkdocs_yaml

REPO = Path(__file__).resolve().parents[1]

EXCERPT_SITE = """\
site_name: excerpts
theme:
  name: material
  palette:
    - scheme: default
    - scheme: slate
plugins:
  - search
  - register
"""

HOSTILE = """\
title: Hostile
prefix: XSS
description: An entry that tries to run a script.
status: draft
created: 2026-01-01
last-updated: 2026-01-01
increment: 1
subject: v1
entries:
  - id: XSS-01
    title: <script>window.__pwned = "title"</script>
    what: >-
      <script>window.__pwned = "what"</script>
      <img src=x onerror="window.__pwned = 'img'">
      [click me](javascript:window.__pwned='link')
    where: 'Here {: onmouseover="window.__pwned = 1" }'
    status: {state: missing}
    value: {level: none}
    effort: {size: S}
    risk: |-
      <svg onload="window.__pwned = 'svg'"></svg> and

      ~~~
      <img src=x onerror="window.__pwned = 'cell'">
      ~~~
    detail: |-
      [d]:
          javascript:window.__pwned='definition'

      [d]

      > [q]: javascript:window.__pwned='quote'
      >
      > [q]
    notes:
      - title: Fence
        text: |-
          ~~~
          <img src=x onerror="window.__pwned = 'fence'">
          ~~~
    sources:
      - spec:schema/2024-11-05/schema.ts:21
"""

EDGE_FILES = {
    # 1 "", 2 package, 3-5 "", 6 func, 7 tabs, 8 }, 9-10 "", 11 last (no final newline)
    "internal/edges.go": b"\npackage edges\n\n\n\nfunc a() {\n\tx :=\t1\n}\n\n\nlast",
    "internal/crlf.go": b"\r\nfirst\r\nsecond\r\n\r\n",  # 1 "", 2 first, 3 second, 4 ""
    "internal/cr.go": b"a\rb\nc\n\nd\n",  # 1 a<CR>b, 2 c, 3 "", 4 d
    "internal/spaces.go": b"   \n  x\n   \n",  # 1 and 3 spaces only, 2 "  x"
    "internal/blank.go": b"\n",  # one blank line
    "internal/whole.go": b"\na\n\n",  # 1 "", 2 a, 3 ""
    "internal/tail.go": b"a\nb\nc\n\n\n",  # 1 a, 2 b, 3 c, 4-5 "" to the end
    "internal/long.go": b"// start\n// " + b"a long cited line " * 12 + b"end\n// after\n",
}
LONG = "// " + "a long cited line " * 12 + "end"
"""internal/long.go's line 2: wider than a phone (tests/site/test_browser.py)."""
EDGE_CITATIONS = {
    # citation: (the line numbers shown, the lines marked, their text as a reader sees it)
    "internal/edges.go:1": (range(1, 5), [1], [""]),  # the first line of the file, blank
    "internal/edges.go:2": (range(1, 6), [2], ["package edges"]),  # after a blank first line
    "internal/edges.go:3-5": (range(1, 9), [3, 4, 5], ["", "", ""]),  # all blank
    "internal/edges.go:7": (range(4, 11), [7], ["    x :=    1"]),  # tabs (4 columns)
    "internal/edges.go:11": (range(8, 12), [11], ["last"]),  # the last line, no newline
    "internal/crlf.go:2": (range(1, 5), [2], ["first"]),  # CRLF, after a blank line
    "internal/crlf.go:4": (range(1, 5), [4], [""]),  # CRLF, the last line, blank
    "internal/cr.go:2": (range(1, 5), [2], ["c"]),  # after a carriage return inside a line
    "internal/cr.go:1": (range(1, 5), [1], ["a\u240db"]),  # a carriage return inside it (␍)
    "internal/edges.go:6": (range(3, 10), [6], ["func a() {"]),  # after three blank lines
    "internal/spaces.go:1": (range(1, 4), [1], ["   "]),  # spaces only, the first line
    "internal/spaces.go:2": (range(1, 4), [2], ["  x"]),  # between lines of spaces only
    "internal/blank.go:1": (range(1, 2), [1], [""]),  # a file of one blank line
    "internal/whole.go:1-3": (range(1, 4), [1, 2, 3], ["", "a", ""]),  # first line to last
    "internal/tail.go:3": (range(1, 6), [3], ["c"]),  # blank lines after it to the end
    "internal/long.go:2": (range(1, 4), [2], [LONG]),  # a line wider than a phone
}
EDGES = """\
title: Edges
prefix: EDG
description: Excerpts at the edges of their files.
status: draft
created: 2026-01-01
last-updated: 2026-01-01
increment: 1
subject: impl
entries:
  - id: EDG-01
    title: Edges
    what: Lines at the edges of files.
    status: {state: missing}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources:
""" + "".join(f"      - {citation}\n" for citation in EDGE_CITATIONS)


def repository_site(root: Path) -> Path:
    """The repository's site (docs/, registers/, mkdocs.yml) and the hostile register, in
    `root`."""
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copytree(REPO / "registers", root / "registers")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    (root / "registers" / "xss.yaml").write_text(HOSTILE)
    return root


def excerpt_site(root: Path) -> dict[str, str]:
    """The repository's site on tests/golden/basic's registers, with a checkout of `impl`
    (a real git repository), in `root`; returns the environment naming the checkout."""
    repo, sha = builder.source(root / "impl", {**builder.IMPL, **EDGE_FILES}, "impl")
    builder.site(root, EXCERPT_SITE + mkdocs_yaml())
    builder.golden(root, sha)
    (root / "registers" / "edges.yaml").write_text(EDGES)
    return {"REGISTER_SOURCE_IMPL": str(repo.root)}

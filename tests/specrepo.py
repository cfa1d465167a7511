"""A spec-shaped repository in a tmp dir: two revisions' folders of MDX pages, a schema.ts
per revision, changelogs; and a registers folder citing it (`registers_for`)."""

from __future__ import annotations

from pathlib import Path

import builder
from gitrepo import GitRepo
from registerfiles import register_head

OLD = "2025-01-01"
NEW = "2025-06-01"

BOILERPLATE = (
    'The key words "MUST", "MUST NOT", "REQUIRED", "SHALL", "SHALL NOT", "SHOULD",\n'
    '"SHOULD NOT", "RECOMMENDED", "NOT RECOMMENDED", "MAY", and "OPTIONAL" in this\n'
    "document are to be interpreted as described in BCP 14 when, and only when, they\n"
    "appear in all capitals.\n"
)

OLD_PAGE = f"""---
title: Basics
---

{BOILERPLATE}
## Messages

Requests **MUST** include an
integer ID.

- The ID MUST NOT be `null`.
- Servers SHOULD reply within 10 seconds.

```json
{{"MUST": "not a statement"}}
```

| field | rule |
|---|---|
| `id` | REQUIRED |
"""
# Lines 12-13: the ID sentence (cited by T-01, reworded in NEW); 15: null (the same in
# NEW); 16: reply within 10 seconds (reworded in NEW, uncited); 24: the table's REQUIRED.

NEW_PAGE = f"""---
title: Basics
---

{BOILERPLATE}
## Messages

Requests **MUST** include a
string or integer ID.

- The ID MUST NOT be `null`.
- Servers SHOULD reply within 30 seconds.
- Clients MAY cancel a request.

<Note>
  Proxies **MUST** forward the ID unchanged.
</Note>
"""
# 12-13 reworded (T-01 cited it in OLD: needs a look); 15 the same; 16 reworded; 17 new
# (excluded); 20 new (in a component).

SCHEMA = """export interface Request {
  /**
   * The id. It MUST be unique.
   */
  id: string;
}
"""

OLD_CHANGELOG = "# Changes\n\n## Major\n\n1. First revision (SEP-12).\n"
NEW_CHANGELOG = (
    "# Changes\n\n## Major\n\n1. IDs may be strings (SEP-12).\n2. Cancellation (PR #40).\n"
)


def spec_repo(root: Path) -> tuple[GitRepo, str]:
    """The spec repository and its pinned (first) commit."""
    repo = GitRepo(root)
    for revision, page, changelog in (
        (OLD, OLD_PAGE, OLD_CHANGELOG),
        (NEW, NEW_PAGE, NEW_CHANGELOG),
    ):
        repo.write(f"docs/specification/{revision}/basic/index.mdx", page)
        repo.write(f"docs/specification/{revision}/changelog.mdx", changelog)
        repo.write(f"schema/{revision}/schema.ts", SCHEMA)
        repo.write(f"schema/{revision}/schema.json", '{"MUST": true}\n')
    repo.write("README.md", "Contributors MUST sign (not in a revision folder).\n")
    return repo, repo.commit("two revisions")


SOURCES = """revisions: [{old}, {new}]
sources:
  spec:
    title: Spec
    repo: null
    commit: {commit}
    claims:
      - schema/**
      - {{glob: "20??-??-??/**", under: docs/specification/}}
    coverage:
      statements: ["docs/specification/**/*.mdx", "schema/*/schema.ts", "README.md"]
      changelog: docs/specification/*/changelog.mdx
  up: {{title: Up, repo: null, commit: 89abcde, claims: ['internal/**']}}
links:
  - {{pattern: 'SEP-(\\d+)', url: 'https://example.com/pull/{{1}}'}}
  - {{pattern: 'PR #(\\d+)', url: 'https://example.com/pull/{{1}}'}}
"""

REGISTER = (
    register_head(subject="up")
    + f"""  - id: T-01
    title: Integer IDs
    what: IDs are integers (SEP-12).
    status: {{state: done}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: r.
    sources: ['{OLD}/basic/index.mdx:12-13 “Requests MUST include an”', internal/a.go:1]
  - id: T-02
    title: Schema ids
    what: w.
    status: {{state: done}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: r.
    sources: ['schema/{NEW}/schema.ts:3', internal/b.go:1]
"""
)

EXCLUSIONS = f"""exclusions:
  - statement: '{NEW}/basic/index.mdx:17 “Clients MAY cancel a request.”'
    reason: Cancellation is the host's, not the proxy's.
    link: https://example.com/issues/7
"""


def registers_for(root: Path, commit: str, exclusions: str | None = EXCLUSIONS) -> Path:
    """A registers folder citing the spec at `commit`."""
    files = {"t.yaml": REGISTER}
    if exclusions is not None:
        files["exclusions.yaml"] = exclusions
    return builder.registers(root, SOURCES.format(old=OLD, new=NEW, commit=commit), files)

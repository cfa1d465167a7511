"""bench/requirements.py on the real shapes, small: a spec clone with a revision's pages and
schema.ts, the suite's `src/seps/sep-*.yaml` in its own repository; every kind of alignment
and every class of miss shows in its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gitrepo import GitRepo

BENCH = Path(__file__).parent.parent / "bench" / "requirements.py"
URL = "https://modelcontextprotocol.io/specification/draft/basic/index"
PAGE = """---
title: Basics
---

## Messages

Requests **MUST** include an ID. The ID MUST NOT be `null`.

Server implementors:

- MUST check the origin header.

Both fields are optional. They MUST NOT be sent twice.

The <b>Scope Field</b>, `scope`, is either "public" or "private".

| Case | Client | Server |
|---|---|---|
| Value is null | Client MUST omit the header | Server MUST NOT expect it |

Servers MUST include caching hints on:

- tools/list
- prompts/list
"""
SCHEMA = """/**
 * A session's tokens MUST be kept secret.
 */
export interface Session {
  // Servers MUST echo the request id.
  id: string;
}
"""
SEP = f"""sep: 1
spec_url: {URL}#messages
requirements:
  - check: sep-1-exact
    text: 'Requests MUST include an ID.'
  - check: sep-1-item
    text: 'Server implementors MUST check the origin header.'
  - check: sep-1-spanning
    text: 'Requests MUST include an ID. The ID MUST NOT be null.'
  - check: sep-1-two-sentences
    text: 'Both fields are optional. They MUST NOT be sent twice.'
  - check: sep-1-no-keyword
    text: 'scope is either "public" or "private"'
  - check: sep-1-cell
    text: 'Value is null: Client MUST omit the header.'
  - check: sep-1-schema
    text: "A session's tokens MUST be kept secret."
  - check: sep-1-list
    text: 'Servers MUST include caching hints on prompts/list'
  - check: sep-1-comment
    text: 'Servers MUST echo the request id.'
  - text: 'Requests MUST always include an ID.'
    excluded: 'Reworded by the suite.'
  - text: 'Servers MUST rotate their keys daily.'
    excluded: 'Nowhere in the pages.'
  - text: 'Clients MUST bind the proof to the token.'
    url: https://github.com/o/ext-auth/blob/main/dpop.mdx
    excluded: 'An extension.'
"""


def test_figures_and_classes_on_the_real_shapes(tmp_path: Path) -> None:
    spec = GitRepo(tmp_path / "spec")
    spec.write("docs/specification/draft/basic/index.mdx", PAGE)
    spec.write("schema/draft/schema.ts", SCHEMA)
    spec.commit()
    suite = GitRepo(tmp_path / "suite")
    suite.write("src/seps/sep-1.yaml", SEP)
    suite.write("src/seps/traceability.json", "{}")
    suite.commit()
    args = ["--spec", str(spec.root), "--suite", str(suite.root / ".git"), "--commit", "HEAD"]
    done = subprocess.run(
        [sys.executable, str(BENCH), *args, "--list"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[:4] == [
        "12 texts in 1 SEP files; 11 with a URL in the specification's pages, 1 outside them",
        "verbatim in the pages or schema.ts: 8 (2 in schema.ts only)",
        "recall: in one statement 3/8 (37.5%); in one or more consecutive statements 4/8 (50.0%)",
        "precision: of the 7 statements aligned with a verbatim text, 5 hold it whole (71.4%)",
    ]
    table = out[out.index("class                     verbatim  other") + 1 :][:8]
    assert [line.split()[-2:] for line in table] == [
        ["3", "0"],  # in one statement
        ["2", "0"],  # two sentences
        ["1", "0"],  # no capital keyword
        ["0", "1"],  # a list item
        ["1", "0"],  # a table cell
        ["1", "0"],  # text only in schema.ts
        ["0", "1"],  # reworded by the suite
        ["0", "1"],  # not found
    ]
    listed = dict(line.split(" | ")[0].split(": ") for line in out if " | " in line)
    assert listed == {
        "sep-1-exact": "in one statement",
        "sep-1-item": "in one statement",
        "sep-1-spanning": "two sentences",
        "sep-1-two-sentences": "two sentences",
        "sep-1-no-keyword": "no capital keyword",
        "sep-1-cell": "a table cell",
        "sep-1-schema": "in one statement",
        "sep-1-list": "a list item",
        "sep-1-comment": "text only in schema.ts",
        "sep-1 excluded #10": "reworded by the suite",
        "sep-1 excluded #11": "not found",
    }
    # the other direction: of the 8 statements of its pages (7 on the page, schema.ts's it
    # aligned with), no requirement names the table row's second cell
    seps = out.index(next(line for line in out if line.startswith("SEP file")))
    assert [line.split() for line in out[seps + 1 : seps + 3]] == [
        ["sep-1", "12", "11", "8", "8", "1"],
        ["all", "12", "11", "8", "8", "1"],
    ]

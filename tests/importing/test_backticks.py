"""Quotes of code lines that hold backticks, from pages whose code spans cannot hold them.

A hand-written page writes each citation in a code span, so the quote of a Go struct tag
(``ProgressToken any `json:"progressToken"` ``) or of a TypeScript doc comment naming
`` `_meta` `` loses its backticks. Such a page, plain or Markdown, imports and verifies every
citation against a real repository; the rule that lets a quote omit backticks is the quote
rule's alone: bump and `verify --against` still flag a code line that only gained or lost
backticks, `*` or `_` (docs/pins.md, "What counts as changed").
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import builder
from conftest import RunLine
from gitrepo import GitRepo

GO_FILE, TS_FILE = "mcp/protocol.go", "schema/2025-06-18/schema.ts"
GO = """package mcp

// ProgressNotificationParams is sent from either side to tell progress.
type ProgressNotificationParams struct {
\t// Meta is reserved by the protocol to allow clients and servers to
\t// attach additional metadata to their notifications.
\tMeta `json:"_meta,omitempty"`
\t// ProgressToken is the token of the request that asked for progress.
\tProgressToken any `json:"progressToken"`
\t// Message is an optional message describing the current progress.
\tMessage string `json:"message,omitempty"`
\tProgress float64 `json:"progress"`
}
"""
TS = """export interface Request {
  method: string;
  params?: {
    /**
     * See [General fields: `_meta`](/specification/2025-06-18/basic/index#meta)
     * for notes on `_meta` usage.
     */
    _meta?: {
      /**
       * If specified, the caller is requesting out-of-band progress notifications for
       * this request (as represented by `notifications/progress`).
       */
      progressToken?: ProgressToken;
    };
  };
}
"""
CITED = [
    (GO_FILE, 7, 'Meta json:"_meta,omitempty"'),
    (GO_FILE, 9, 'ProgressToken any json:"progressToken"'),
    (GO_FILE, 11, 'Message string json:"message,omitempty"'),
    (GO_FILE, 12, 'Progress float64 `json:"progress"`'),  # kept, where a page can
    (TS_FILE, 5, "See [General fields: _meta](/specification/2025-06-18/basic/index#meta)"),
    (TS_FILE, 6, "for notes on _meta usage."),
    (TS_FILE, 11, "(as represented by notifications/progress)."),
]
"""(path, line, quote as the page writes it): every backtick of the lines dropped, but one."""

HEADER = """created:      2026-09-30T08:00:00-05:00
last-updated: 2026-09-30T08:00:00-05:00
increment:    1
status:       draft
description:  Progress tokens in the Go SDK.
"""
PLAIN = """Go SDK

{header}
How the Go SDK carries progress tokens.

Status column: gosdk @ {commit}.

GO-01 Progress tokens in _meta

• What. A request asks for progress with _meta.progressToken.
• gosdk @ {commit}. Done. Typed as any.
• Value to gosdk. + low.
• Effort. S.
• Risk. None.
• Sources. {sources}.
"""
MARKDOWN = """# Go SDK

{header}
How the Go SDK carries progress tokens.

Status column: gosdk @ {commit}.

## GO-01 Progress tokens in _meta

- **What.** A request asks for progress with `_meta.progressToken`.
- **gosdk @ {commit}.** Done. Typed as `any`.
- **Value to gosdk.** + low.
- **Effort.** S.
- **Risk.** None.
- **Sources.** {sources}.
"""
SOURCES = """revisions: [2025-06-18]
sources:
  gosdk:
    title: Go SDK
    repo: null
    commit: {commit}
    path: {path}
    claims: ['mcp/**', 'schema/**']
"""


def citation(path: str, line: int, quote: str) -> str:
    return f"{path}:{line} “{quote}”"


def code_span(text: str) -> str:
    """`text` in a code span: of two backticks where it holds one (as `render --plain`)."""
    return f"`` {text} ``" if "`" in text else f"`{text}`"


@pytest.fixture
def go_and_schema(tmp_path: Path) -> GitRepo:
    return builder.source(
        tmp_path / "up", {GO_FILE: GO, TS_FILE: TS}, "the Go SDK and the spec's schema"
    )[0]


def project(root: Path, repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> str:
    """A project whose registers folder pins `repo`'s HEAD; the short commit."""
    commit = repo.git("rev-parse", "--short=7", "HEAD")
    path = Path(os.path.relpath(repo.root, root / "registers")).as_posix()
    builder.registers(root / "registers", SOURCES.format(commit=commit, path=path))
    monkeypatch.chdir(root)
    return commit


@pytest.mark.parametrize("form", ["plain", "markdown"])
def test_a_page_quoting_code_with_backticks_imports_and_verifies(
    form: str, tmp_path: Path, go_and_schema: GitRepo, run_line: RunLine, monkeypatch
) -> None:
    commit = project(tmp_path, go_and_schema, monkeypatch)
    cited = [citation(*c) for c in CITED]
    if form == "plain":
        page = PLAIN.format(header=HEADER, commit=commit, sources="; ".join(cited))
    else:
        spans = "; ".join(code_span(c) for c in cited)
        page = MARKDOWN.format(header=HEADER, commit=commit, sources=spans)
    (tmp_path / "go.md").write_text(page, encoding="utf-8")
    imported = run_line(["import", "go.md"])
    assert imported.exit_code == 0, imported.output
    verified = run_line(["verify", "--format", "json"])
    assert verified.exit_code == 0, verified.output
    report = json.loads(verified.stdout)
    outcomes = {c["text"]: c["outcome"] for c in report["citations"] if not c["in_prose"]}
    assert outcomes == dict.fromkeys(cited, "ok")


def test_a_quote_without_backticks_cited_at_the_wrong_line_is_moved(
    tmp_path: Path, go_and_schema: GitRepo, run_line: RunLine, monkeypatch
) -> None:
    commit = project(tmp_path, go_and_schema, monkeypatch)
    cited = citation(GO_FILE, 3, 'ProgressToken any json:"progressToken"')
    page = PLAIN.format(header=HEADER, commit=commit, sources=cited)
    (tmp_path / "go.md").write_text(page, encoding="utf-8")
    assert run_line(["import", "go.md"]).exit_code == 0
    verified = run_line(["verify", "--format", "json"])
    [found] = [c for c in json.loads(verified.stdout)["citations"] if c["text"] == cited]
    assert (found["outcome"], found["proposed"]) == ("moved", [9, 9])


# --- what bump and verify --against compare keeps every mark --------------------------------

MARKUP_ONLY = {
    (GO_FILE, 7): ('Meta `json:"_meta,omitempty"`', 'Meta json:"_meta,omitempty"'),  # ticks gone
    (GO_FILE, 9): ("ProgressToken any", "ProgressToken *any"),  # an asterisk
    (GO_FILE, 11): ("\tMessage string", "\t_Message string"),  # an underscore
    (TS_FILE, 6): ("on `_meta` usage", "on ``_meta`` usage"),  # ticks doubled
}
"""A cited range (by its first line) -> an edit that adds or removes only backticks, `*`, `_`."""


def _markup_only_edits(repo: GitRepo) -> None:
    texts = {GO_FILE: GO, TS_FILE: TS}
    for (path, _), (old, new) in MARKUP_ONLY.items():
        assert old in texts[path]
        texts[path] = texts[path].replace(old, new)
    for path, text in texts.items():
        repo.write(path, text)


def _imported_register(root: Path, repo: GitRepo, run_line: RunLine, monkeypatch) -> None:
    commit = project(root, repo, monkeypatch)
    cited = "; ".join(citation(*c) for c in CITED)
    (root / "go.md").write_text(
        PLAIN.format(header=HEADER, commit=commit, sources=cited), encoding="utf-8"
    )
    assert run_line(["import", "go.md"]).exit_code == 0


def test_bump_flags_a_code_line_that_only_gained_or_lost_backticks_stars_or_underscores(
    tmp_path: Path, go_and_schema: GitRepo, run_line: RunLine, monkeypatch
) -> None:
    _imported_register(tmp_path / "project", go_and_schema, run_line, monkeypatch)
    _markup_only_edits(go_and_schema)
    go_and_schema.commit("markup only")
    bumped = run_line(["bump", "gosdk", "--format", "json"])
    assert bumped.exit_code == 1, bumped.output
    kinds = {(c["path"], c["lines"][0]): (c["kind"], c["note"]) for c in bumped_citations(bumped)}
    for cited in MARKUP_ONLY:
        assert kinds[cited] == ("changed", "the cited lines were edited"), kinds
    assert kinds[(GO_FILE, 12)][0] != "changed"  # untouched


def test_a_stamp_sees_a_code_line_that_only_gained_or_lost_backticks_stars_or_underscores(
    tmp_path: Path, go_and_schema: GitRepo, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _imported_register(tmp_path / "project", go_and_schema, run_line, monkeypatch)
    assert run_line(["stamp"]).exit_code == 0
    _markup_only_edits(go_and_schema)
    go_and_schema.commit("markup only")
    run_line(["bump", "gosdk"])  # carries each stamp to its new key
    verified = run_line(["verify", "--format", "json"])
    outcomes = {
        (c["path"], c["lines"][0]): c["outcome"] for c in json.loads(verified.stdout)["citations"]
    }
    # a backtick gone or doubled: the quote, which omits them, still reads; the stamp does not
    assert (outcomes[(GO_FILE, 7)], outcomes[(TS_FILE, 6)]) == ("changed", "changed")
    # a `*` or a `_` added: the quote itself no longer reads
    assert (outcomes[(GO_FILE, 9)], outcomes[(GO_FILE, 11)]) == ("broken", "broken")
    assert outcomes[(GO_FILE, 12)] == "ok"


def bumped_citations(result) -> list[dict]:
    return json.loads(result.stdout)["citations"]


def test_verify_against_flags_the_same_edits(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The register lives in the repository it cites (a pull request's check)."""
    repo, _ = builder.source(tmp_path / "up", {GO_FILE: GO, TS_FILE: TS}, "code")
    _imported_register(repo.root, repo, run_line, monkeypatch)
    repo.commit("register")
    _markup_only_edits(repo)
    repo.commit("a pull request")
    checked = run_line(["verify", "--against", "gosdk=HEAD"])
    assert checked.exit_code == 1, checked.output
    assert f"this change makes {len(MARKUP_ONLY)} register citations stale" in checked.output

"""The one builder of what a test runs on: source repositories (real git repositories in a
tmp dir), a registers folder (sources.yaml, register files) and a site around it
(mkdocs.yml, docs/).

    repo, first = source(tmp_path / "up", {"src/a.go": CODE})
    folder = registers(tmp_path / "registers", up_sources(first, "../up"), {"t.yaml": REGISTER})
    site(tmp_path, CONFIG)                      # mkdocs.yml and docs/index.md

Register text comes from tests/registerfiles.py; `register stamp` writes a project's
citations.lock (a test runs it, as a user would).
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

from gitrepo import GitRepo
from registerfiles import GO_SOURCES, done_entry, register_head

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_PIN = "abcdef1"
"""The pin the golden registers' sources.yaml gives `impl`: `golden` replaces it."""
IMPL = {"internal/server.go": "".join(f"func line{n}() {{}}\n" for n in range(1, 61))}
"""A checkout for the golden registers' `impl`: line N of internal/server.go is
`func lineN() {}` (they cite lines 1 to 60)."""


def source(
    root: Path, files: Mapping[str, str | bytes], message: str = "change"
) -> tuple[GitRepo, str]:
    """A git repository at `root` holding `files` (path -> text), committed; the repository
    and its commit."""
    repo = GitRepo(root)
    for path, text in files.items():
        repo.write(path, text)
    return repo, repo.commit(message)


def up_sources(
    commit: str,
    path: str = "",
    claims: Sequence[str] = ("src/**",),
    revisions: Sequence[str] = ("2025-06-18",),
) -> str:
    """sources.yaml with one source, `up` (title Upstream, no `repo:`), pinned at `commit`,
    read from `path` when given (else from REGISTER_SOURCE_UP or the cache)."""
    where = f", path: {path}" if path else ""
    return (
        f"revisions: [{', '.join(revisions)}]\n"
        "sources:\n"
        f"  up: {{title: Upstream, repo: null, commit: {commit}{where}, "
        f"claims: [{', '.join(claims)}]}}\n"
    )


def registers(folder: Path, sources: str, files: Mapping[str, str | bytes] | None = None) -> Path:
    """The registers folder `folder` (created) holding sources.yaml and `files` (name ->
    text), written as given (no newline translation); returns `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for file, text in {"sources.yaml": sources, **(files or {})}.items():
        data = text.encode("utf-8") if isinstance(text, str) else text
        (folder / file).write_bytes(data)
    return folder


def edit_sources(folder: Path, old: str, new: str) -> None:
    """Replace `old` with `new` in the sources.yaml of `folder` (a pin, a `repo:`)."""
    sources = folder / "sources.yaml"
    sources.write_text(sources.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def golden(root: Path, pin: str) -> Path:
    """`root/registers`: a copy of tests/golden/basic's registers, `impl` pinned at `pin`
    (a commit of a checkout the test made)."""
    folder = root / "registers"
    shutil.copytree(GOLDEN / "basic" / "registers", folder)
    edit_sources(folder, GOLDEN_PIN, pin)
    return folder


def site(root: Path, config: str, docs: Mapping[str, str] | None = None) -> Path:
    """`root/mkdocs.yml` (`config`) and `root/docs/` holding `docs` (name -> text), a home
    page linking the registers' overview by default; returns `root`."""
    pages = docs or {"index.md": "# Home\n\nThe [registers](registers/index.md).\n"}
    for name, text in pages.items():
        page = root / "docs" / name
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text, encoding="utf-8")
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root


def go_registers(root: Path) -> Path:
    """`root/registers`: GO_SOURCES and one register of the Go SDK, GO-01 done."""
    head = register_head("Go", "GO", subject="go-sdk")
    go = head + done_entry("[mcp/server.go:1]", "GO-01")
    return registers(root / "registers", GO_SOURCES, {"go.yaml": go})

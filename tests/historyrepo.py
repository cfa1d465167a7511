"""A project repository whose registers/ history holds one of each kind of change.

    history = build_history(tmp_path)
    history.commits["state"]   # the sha of the commit that changed T-01's state

Commits, oldest first (each one kind of change, made the way a user makes it):
`start` (sources.yaml and t.yaml), `register` (ext.yaml added), `state` (T-01 missing ->
partial), `entries` (T-03 added, T-02 removed), `prose` (T-01's `what` edited), `fix`
(`register fix` re-anchors T-01's quoted citation), `bump` (`register bump up`: the pin
moves, T-01's citations follow), `title` (T-03 renamed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import builder
from compat_register import api
from gitrepo import GitRepo
from registerfiles import register_head

SERVER = "package server\n\nfunc handle() error {\n\treturn nil\n}\n"

SOURCES = """revisions: [2025-06-18]
sources:
  up:
    title: Upstream
    repo: null
    commit: {commit}
    path: ../../upstream
    claims: [src/**]
"""

T01 = """  - id: T-01
    title: Handles requests
    what: The server handles requests.
    status: {{state: {state}, note: As it stands.}}
    value: {{level: high}}
    effort: {{size: S}}
    risk: None.
    sources:
      - 'src/server.go:{line} “func handle() error {{”'
      - src/server.go:4
"""

T02 = """  - id: T-02
    title: Goes away
    what: Removed later.
    status: {state: done}
    value: {level: low}
    effort: {size: M}
    risk: None.
    sources: [src/server.go:1]
"""

T03 = """  - id: T-03
    title: {title}
    what: Added later.
    status: {{state: missing}}
    value: {{level: med}}
    effort: {{size: L}}
    risk: None.
    sources: [src/server.go:5]
"""

EXT = (
    register_head("Ext", "E")
    + """  - id: E-01
    title: Extra
    what: An extra register.
    status: {state: partial, note: Half of it.}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources: [src/server.go:2]
"""
)


@dataclass
class History:
    project: GitRepo
    upstream: GitRepo
    registers: Path
    commits: dict[str, str] = field(default_factory=dict)
    pins: tuple[str, str] = ("", "")


def build_history(tmp_path: Path) -> History:
    upstream, first = builder.source(tmp_path / "upstream", {"src/server.go": SERVER}, "first")
    upstream.write("src/server.go", "// a\n// b\n" + SERVER)
    second = upstream.commit("two lines above")
    project = GitRepo(tmp_path / "project")
    history = History(project, upstream, project.root / "registers", pins=(first, second))
    t = register_head()

    def commit(name: str, message: str) -> None:
        history.commits[name] = project.commit(message)

    # line 4 is a wrong line for the quote (it is on line 3): `register fix` re-anchors it
    files = {"t.yaml": t + T01.format(state="missing", line=4) + T02}
    builder.registers(history.registers, SOURCES.format(commit=first[:12]), files)
    commit("start", "Start the registers")
    project.write("registers/ext.yaml", EXT)
    commit("register", "Add the ext register")
    project.write("registers/t.yaml", t + T01.format(state="partial", line=4) + T02)
    commit("state", "T-01 is partial")
    project.write(
        "registers/t.yaml", t + T01.format(state="partial", line=4) + T03.format(title="New")
    )
    commit("entries", "T-03 in, T-02 out")
    text = (history.registers / "t.yaml").read_text(encoding="utf-8")
    project.write("registers/t.yaml", text.replace("handles requests.", "handles every request."))
    commit("prose", "Reword T-01")
    fixed = api.fix(history.registers)
    assert len(fixed.fixed) == 1, fixed
    commit("fix", "register fix")
    bumped = api.bump(history.registers, "up", second).bump
    assert bumped is not None
    commit("bump", "register bump up")
    text = (history.registers / "t.yaml").read_text(encoding="utf-8")
    project.write("registers/t.yaml", text.replace("title: New", "title: Renamed"))
    commit("title", "Rename T-03")
    return history

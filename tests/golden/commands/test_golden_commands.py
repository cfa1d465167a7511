"""Every `register` command's output, byte for byte: the safety net of a refactoring.

Each case below runs one or more `register` command lines (in-process, as the acceptance
tests do, through conftest's `run_line`) over a fixed corpus: tests/cases/, this
repository's registers/, and a project built in a tmp dir beside a real git source whose
commits have fixed names and dates (tests/gitrepo.py), so that every sha is the same on
every machine. The transcript of a case (each command line, its exit code, its stdout and
its stderr, with byte counts so that a missing final newline shows; for the commands that
write files, a listing of what they wrote with each file's sha256, or the file itself) must
equal tests/golden/commands/CASE.txt exactly. Two things are replaced, in the output and in
the files listed (whose sha256 is that of their text so replaced): the tmp dir's path, by
`<tmp>`, and where this copy of compat-register was installed from (the folder or archive
`register init` writes into requirements.txt), by `<install>`; and today's date, by `<today>`.

    REGISTER_UPDATE_GOLDEN=1 python -m pytest -p no:cacheprovider tests/golden/commands

rewrites every CASE.txt from the current output (the same variable rewrites the acceptance
cases' expected.txt); read `git diff tests/golden/commands` before committing it: a change
there is a change of what users' scripts read.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import builder
from compat_register.scaffold import install
from conftest import RunLine
from gitrepo import GitRepo

HERE = Path(__file__).parent
TESTS = HERE.parents[1]
CASES = TESTS / "cases"
REPO = TESTS.parent
UPDATE = os.environ.get("REGISTER_UPDATE_GOLDEN") == "1"
PLACEHOLDER = "<tmp>"


def today() -> set[str]:
    """Today's date as `register init` writes it (local) and as the Changes chart ends
    (UTC): a golden file holds neither, or it would fail the next day."""
    return {datetime.date.today().isoformat(), time.strftime("%Y-%m-%d", time.gmtime())}


def installed_from() -> list[str]:
    """Where this copy was installed from, as `register init` may write it (the URL of
    PEP 610's direct_url.json, and its path): it differs between checkouts and machines."""
    try:
        record = metadata.distribution(install.NAME).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return []
    url = json.loads(record).get("url") if record else None
    if not isinstance(url, str):
        return []
    return [url, unquote(urlsplit(url).path)]


# The source: src/server.go and src/util.go at `first`; `second` puts two lines on top of
# server.go, edits its `Close` line, deletes its last function and renames util.go.
SERVER = """package server

// Handle serves one request.
func Handle(r Request) error {
\tif r.ID == "" {
\t\treturn errMissingID
\t}
\treturn nil
}

// Close ends the session.
func (s conn) Close() error {
\treturn s.c.Close()
}

// Legacy is kept for old clients.
func Legacy() {}
"""
UTIL = """package server

// Join joins two names.
func Join(a, b string) string {
\treturn a + b
}
"""


def second_server() -> str:
    text = "// Copyright.\n// Licensed.\n" + SERVER
    text = text.replace("func (s conn) Close()", "func (s *conn) Close()")
    return text.replace("\n// Legacy is kept for old clients.\nfunc Legacy() {}\n", "")


SOURCES = """revisions: [2025-06-18, 2025-11-25]
sources:
  up:
    title: Upstream
    repo: null
    commit: {commit}
    path: ../../up
    claims: [src/**]
links:
  - {{pattern: 'SEP-(\\d+)', url: 'https://example.org/sep/{{1}}'}}
"""

REGISTER = """title: Server
prefix: T
description: What the server does.
status: draft
created: 2026-01-01
last-updated: 2026-01-02
increment: 1
subject: up
entries:
  - id: T-01
    title: Handles requests
    what: The server handles requests (src/server.go:4) and refuses a missing ID (SEP-7).
    status: {{state: {state}, note: 'checked in src/server.go:5-7.'}}
    value: {{level: high}}
    effort: {{size: S}}
    risk: None.
    sources:
      - 'src/server.go:4 “func Handle(r Request) error {{”'
      - src/server.go:5-7
  - id: T-02
    title: Closes sessions
    what: Close ends the session; see T-01.
    status: {{state: partial, note: Closes the session only.}}
    value: {{level: med}}
    effort: {{size: M}}
    risk: A value receiver.
    revisions: {{added: 2025-11-25}}
    sources:
      - 'src/server.go:12 “func (s conn) Close() error {{”'
      - src/util.go:4
  - id: T-03
    title: Legacy clients
    what: Old clients are served.
    status: {{state: done}}
    value: {{level: low}}
    effort: {{size: L}}
    risk: It may go.
    sources:
      - 'src/server.go:16 “// Legacy is kept for old clients.”'
      - 'src/server.go:14 “func Legacy() {{}}”'
"""


@dataclass
class World:
    """A project (a git repository holding registers/) citing the git source `up`."""

    root: Path
    up: GitRepo
    project: GitRepo
    pins: dict[str, str] = field(default_factory=dict)

    @property
    def registers(self) -> Path:
        return self.project.root / "registers"


def build_world(root: Path) -> World:
    """The source's two commits, and the project's three: the registers, T-01 done, T-04 in.

    T-03's second citation names line 14 for a quote on line 17: `register fix` re-anchors
    it; bumping to `second` moves T-01, changes T-02's `Close` line, renames util.go and
    deletes T-03's lines."""
    files = {"src/server.go": SERVER, "src/util.go": UTIL}
    up, first = builder.source(root / "up", files, "first")
    up.write("src/server.go", second_server())
    up.mv("src/util.go", "src/join.go")
    second = up.commit("second")
    project = GitRepo(root / "project")
    world = World(root, up, project, {"first": first, "second": second})
    files = {"t.yaml": REGISTER.format(state="missing")}
    builder.registers(project.root / "registers", SOURCES.format(commit=first), files)
    world.pins["start"] = project.commit("Start the registers")
    project.write("registers/t.yaml", REGISTER.format(state="done"))
    world.pins["done"] = project.commit("T-01 is done")
    more = """  - id: T-04
    title: Joins names
    what: Names are joined.
    status: {state: missing}
    value: {level: low}
    effort: {size: S}
    risk: None.
    sources: [src/util.go:5]
"""
    project.write("registers/t.yaml", REGISTER.format(state="done") + more)
    world.pins["more"] = project.commit("T-04 in")
    return world


@dataclass
class Transcript:
    """What a case's command lines printed, as one text; `tmp` is replaced by <tmp>."""

    tmp: Path
    run_line: RunLine
    parts: list[str] = field(default_factory=list)

    def clean(self, text: str) -> str:
        for form in (str(self.tmp.resolve()), str(self.tmp)):
            text = text.replace(form, PLACEHOLDER)
        for form in installed_from():
            text = text.replace(form, "<install>")
        for form in today():
            text = text.replace(form, "<today>")
        return text

    def run(self, *args: str) -> None:
        result = self.run_line(list(args))
        assert "Traceback" not in result.output, result.output
        assert isinstance(result.exception, (SystemExit, type(None))), result.exception
        stdout, stderr = self.clean(result.stdout), self.clean(result.stderr)
        self.parts.append(
            f"$ register {self.clean(' '.join(args))}\n"
            f"--- exit {result.exit_code}\n"
            f"--- stdout ({len(stdout.encode())} bytes)\n{stdout}"
            f"--- stderr ({len(stderr.encode())} bytes)\n{stderr}"
        )

    def listing(self, folder: Path) -> None:
        """Every file under `folder`, by relative path, with its size and sha256."""
        lines = []
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            data = path.read_bytes()
            with contextlib.suppress(UnicodeDecodeError):  # not text: as it is
                data = self.clean(data.decode("utf-8")).encode("utf-8")
            sha = hashlib.sha256(data).hexdigest()
            lines.append(f"{sha}  {len(data):>7}  {path.relative_to(folder).as_posix()}\n")
        self.parts.append(f"--- files under {self.clean(str(folder))}\n{''.join(lines)}")

    def file(self, path: Path) -> None:
        """A written file itself (a register, the lock), to read in the golden diff."""
        text = self.clean(path.read_text(encoding="utf-8"))
        self.parts.append(f"--- file {self.clean(str(path))}\n{text}")

    def text(self) -> str:
        return "\n".join(self.parts)


def corpus(folder: Path, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Work in a copy of `folder` (tmp/NAME): a command that takes the writer's lock
    (render, even verify) makes `.register/` beside the registers folder, never in the tree."""
    target = tmp / folder.name
    shutil.copytree(folder, target, symlinks=True)  # editor-files holds a dangling link
    monkeypatch.chdir(target)


Case = Callable[[Transcript, Path, pytest.MonkeyPatch], None]
CASE_FUNCTIONS: dict[str, Case] = {}


def case(func: Case) -> Case:
    CASE_FUNCTIONS[func.__name__.replace("_", "-")] = func
    return func


@case
def check_base(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus(CASES / "base", tmp, monkeypatch)
    for fmt in ("text", "json", "github"):
        t.run("check", "--registers", ".", "--format", fmt)
    t.run("check", "--registers", ".", "--strict")


@case
def check_failing(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exit 1: a register set with many problems, in each format, and verbose."""
    corpus(CASES / "invalid" / "many-problems", tmp, monkeypatch)
    for fmt in ("text", "json", "github"):
        t.run("check", "--registers", ".", "--format", fmt)
    t.run("check", "--registers", ".", "-v")
    corpus(CASES / "invalid" / "dangling-reference", tmp, monkeypatch)
    t.run("verify", "--registers", ".", "--offline", "--format", "json")


@case
def check_valid_cases(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for folder in sorted(p for p in (CASES / "valid").iterdir() if p.is_dir()):
        corpus(folder, tmp, monkeypatch)
        t.run("check", "--registers", ".", "--format", "json")


@case
def usage_errors(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exit 2: a bad option value, an unknown command, a missing folder, a bad --against."""
    corpus(CASES / "base", tmp, monkeypatch)
    t.run("check", "--registers", ".", "--format", "yaml")
    t.run("frobnicate")
    t.run("check", "--registers", str(tmp / "nowhere"))
    t.run("verify", "--registers", ".", "--offline", "--against", "mcpx=HEAD")
    t.run("verify", "--registers", ".", "--against", "mcpx")
    t.run("bump", "--registers", ".")


@case
def own_registers(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This repository's registers/, offline (its sources are not on this machine)."""
    (tmp / "own").mkdir()
    shutil.copytree(REPO / "registers", tmp / "own" / "registers")
    monkeypatch.chdir(tmp / "own")
    t.run("check", "--registers", "registers")
    t.run("check", "--registers", "registers", "--format", "json")
    for fmt in ("text", "json", "github"):
        t.run("verify", "--registers", "registers", "--offline", "--format", fmt)
    t.run("export", "--registers", "registers")


@case
def export_cases(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus(CASES / "base", tmp, monkeypatch)
    t.run("export", "--registers", ".")
    t.run("export", "--registers", ".", "-o", str(tmp / "out.json"))
    t.file(tmp / "out.json")
    corpus(CASES / "valid" / "mapping-citation", tmp, monkeypatch)
    t.run("export", "--registers", ".")


@case
def verify_git(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """verify against the real source, in each format, offline, skipping, and --against."""
    world = build_world(tmp)
    monkeypatch.chdir(world.project.root)
    for fmt in ("text", "json", "github"):
        t.run("verify", "--registers", "registers", "--format", fmt)
    t.run("verify", "--registers", "registers", "--strict", "-v")
    t.run("verify", "--registers", "registers", "--offline")
    t.run("verify", "--registers", "registers", "--skip", "up")
    second = world.pins["second"]
    t.run("verify", "--registers", "registers", "--against", f"up={second}")
    t.run("verify", "--registers", "registers", "--against", "up=HEAD", "--format", "json")


@case
def cite(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    world = build_world(tmp)
    monkeypatch.chdir(world.project.root)
    t.run("cite", "--registers", "registers", "up:src/server.go:4-6")
    t.run("cite", "--registers", "registers", "src/util.go:4")
    t.run("cite", "--registers", "registers", "up:src/server.go:4", "--format", "json")
    t.run("cite", "--registers", "registers", "up", "--grep", "func")
    t.run("cite", "--registers", "registers", "up", "--grep", "CLOSE", "-i", "--format", "json")
    t.run(
        "cite",
        "--registers",
        "registers",
        "up",
        "--grep",
        "func",
        "--path",
        "src/u*",
        "--limit",
        "1",
    )
    t.run("cite", "--registers", "registers", "up", "--grep", "nothing like this")
    t.run("cite", "--registers", "registers", "up:src/server.go:90")


@case
def diff(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    world = build_world(tmp)
    monkeypatch.chdir(world.project.root)
    start, more = world.pins["start"], world.pins["more"]
    for fmt in ("text", "json", "markdown"):
        t.run("diff", "--registers", "registers", start, more, "--format", fmt)
    t.run("diff", "--registers", "registers")
    world.project.write("registers/t.yaml", "title: [broken\n")
    t.run("diff", "--registers", "registers", start)


@case
def stamp(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    world = build_world(tmp)
    monkeypatch.chdir(world.project.root)
    t.run("verify", "--registers", "registers", "--strict")
    t.run("stamp", "--registers", "registers", "T-01")
    t.run("stamp", "--registers", "registers")
    t.file(world.registers / "citations.lock")
    t.run("verify", "--registers", "registers", "--strict", "--format", "json")
    t.run("stamp", "--registers", "registers", "T-99")


@case
def fix(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    world = build_world(tmp)
    monkeypatch.chdir(world.project.root)
    t.run("fix", "--registers", "registers", "--format", "json")
    world.project.git("checkout", "--quiet", "--", "registers")
    t.run("fix", "--registers", "registers", "--format", "github")
    world.project.git("checkout", "--quiet", "--", "registers")
    t.run("fix", "--registers", "registers")
    t.file(world.registers / "t.yaml")
    t.run("fix", "--registers", "registers")


@case
def bump(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    world = build_world(tmp)
    monkeypatch.chdir(world.project.root)
    second = world.pins["second"]
    t.run("stamp", "--registers", "registers")
    t.run("bump", "--registers", "registers", "up", second, "--dry-run")
    t.run("bump", "--registers", "registers", "up", second, "--dry-run", "--format", "json")
    t.run("bump", "--registers", "registers", "up", "nosuchcommit")
    t.run("bump", "--registers", "registers", "up", second)
    for name in ("sources.yaml", "t.yaml", "citations.lock"):
        t.file(world.registers / name)
    t.run("verify", "--registers", "registers")
    t.run("bump", "--registers", "registers", "up")
    t.run("bump", "--registers", "registers", "nosuchalias", second)


@case
def render(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The site's pages (entries, health, priorities, the revision matrix, the Changes page
    from the project's history) verified against the source, then offline, then plain."""
    world = build_world(tmp)
    monkeypatch.chdir(world.project.root)
    t.run("render", "--registers", "registers", "--out", str(tmp / "site"))
    t.listing(tmp / "site")
    for page in ("registers/t.md", "registers/priorities.md", "registers/changes.md"):
        if (tmp / "site" / page).exists():
            t.file(tmp / "site" / page)
    for name in ("revisions", "health"):
        for path in sorted((tmp / "site" / "registers" / name).glob("*.md")):
            t.file(path)
    t.run(
        "render",
        "--registers",
        "registers",
        "--out",
        str(tmp / "offline"),
        "--offline",
        "--no-history",
        "--repo-url",
        "https://example.org/p",
        "--subject",
        "up",
        "--edit-url",
        "https://example.org/p/edit/main/registers/",
        "--legend",
        "legend.md",
    )
    t.listing(tmp / "offline")
    t.run("render", "--registers", "registers", "--out", str(tmp / "plain"), "--plain")
    t.listing(tmp / "plain")
    t.file(tmp / "plain" / "t.md")
    corpus(CASES / "invalid" / "many-problems", tmp, monkeypatch)
    t.run("render", "--registers", ".", "--out", str(tmp / "bad"), "--offline", "--no-history")


@case
def import_pages(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages are copied beside the registers, so that their paths print the same
    wherever the repository is."""
    (tmp / "registers").mkdir()
    shutil.copy(REPO / "registers" / "sources.yaml", tmp / "registers")
    shutil.copytree(TESTS / "pages", tmp / "pages")
    for bad in ("title-missing", "id-clash"):
        shutil.copy(CASES / "import" / bad / "page.md", tmp / "pages" / f"{bad}.md")
    monkeypatch.chdir(tmp)
    t.run("import", "pages/meta.md", "--dry-run")
    t.run("import", "pages/meta.txt", "--dry-run", "--format", "json")
    t.run("import", "pages/meta.md")
    t.listing(tmp / "registers")
    t.file(tmp / "registers" / "meta.yaml")
    t.run("import", "pages/meta.md")
    t.run("import", "pages/tiny.md", "--name", "tiny", "--force")
    t.run("import", "pages/title-missing.md")
    t.run("import", "pages/id-clash.md", "--format", "json")


CONCEPTS = """concepts:
  - {id: mcp.ping, title: Ping, checks: [ping]}
  - {id: mcp.lifecycle, title: Initialization, checks: [server-initialize]}
"""


@case
def conformance(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """conformance import (text, JSON, a malformed file), then verify as it was and with
    --conformance: T-01 done while ping fails, T-04 missing while server-initialize passes."""
    world = build_world(tmp)
    shutil.copytree(TESTS / "fixtures" / "conformance", tmp / "suite")
    registers = world.registers
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    text = text.replace("  - id: T-01\n", "  - id: T-01\n    concept: mcp.ping\n")
    text = text.replace("  - id: T-04\n", "  - id: T-04\n    concept: mcp.lifecycle\n")
    (registers / "t.yaml").write_text(text, encoding="utf-8")
    (registers / "concepts.yaml").write_text(CONCEPTS, encoding="utf-8")
    monkeypatch.chdir(world.project.root)
    results, baseline = tmp / "suite" / "results", tmp / "suite" / "conformance-baseline.yml"
    t.run("conformance", "import", "--subject", "up", "--baseline", str(baseline), str(results))
    t.file(registers / "conformance" / "up.json")
    ping = results / "server-ping-2026-10-02T09-14-04-001Z" / "checks.json"
    t.run("conformance", "import", "--subject", "up", str(ping), "--format", "json")
    t.run("conformance", "import", "--subject", "up", "--baseline", str(baseline), str(results))
    t.run("verify", "--registers", "registers")
    for fmt in ("text", "json"):
        t.run("verify", "--registers", "registers", "--conformance", "--format", fmt)
    ping.write_text(ping.read_text(encoding="utf-8").replace("FAILURE", "FAILED"))
    t.run("conformance", "import", "--subject", "up", str(ping))
    t.run("conformance", "import", "--subject", "nope", str(ping))


@case
def init(t: Transcript, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp)
    t.run("init", "demo", "--name", "Demo site")
    t.listing(tmp / "demo")
    t.file(tmp / "demo" / "requirements.txt")
    t.run("init", "demo")
    monkeypatch.chdir(tmp / "demo")
    t.run("check")


@pytest.fixture
def quiet_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No user or system git config (and, tests/conftest.py, no REGISTER_* or GIT_* variable
    of the caller's): the outputs depend on the corpus alone."""
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("LC_ALL", "C")


@pytest.mark.usefixtures("quiet_environment")
@pytest.mark.parametrize("name", sorted(CASE_FUNCTIONS))
def test_command_output(
    name: str, tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    transcript = Transcript(tmp_path, run_line)
    CASE_FUNCTIONS[name](transcript, tmp_path, monkeypatch)
    assert not list(CASES.rglob(".register")), "a case wrote into tests/cases/"
    golden = HERE / f"{name}.txt"
    text = transcript.text()
    if UPDATE:
        golden.write_bytes(text.encode("utf-8"))
    assert golden.exists(), f"no {golden.name}: run with REGISTER_UPDATE_GOLDEN=1"
    assert text == golden.read_bytes().decode("utf-8")


def test_every_golden_file_has_its_case() -> None:
    """A golden file left behind by a removed case would hold nothing; say so."""
    names = {p.stem for p in HERE.glob("*.txt")}
    assert names == set(CASE_FUNCTIONS)

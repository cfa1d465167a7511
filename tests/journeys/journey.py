"""Journeys as a user walks them: the commands the docs print, read from the docs, run
through the installed console scripts in a project `register init` made.

A `Shell` runs each line with bash, as typed (relative paths, `&&`, `cd`, `VAR=1 cmd`),
from the folder the last `cd` left it in, with the virtual environment's `bin/` first on
PATH: `register`, `mkdocs` and `zensical` are the installed scripts, never the code
imported in-process. `Upstream` is the public repository a new project's example source
names, built in tmp with real history and cloned bare; `stand_in` points the project's
`sources.yaml` at it (the one edit a test makes that no doc prints, made visibly).
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import yaml
from packaging.requirements import Requirement

import specrepo
from gitrepo import GitRepo, git_env

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
"""The virtual environment's scripts: `register`, `mkdocs`, `zensical` as installed."""
FIXTURES = ROOT / "tests" / "fixtures"
INIT_REPO = "https://github.com/modelcontextprotocol/modelcontextprotocol"
"""The `repo:` `register init` writes for its example source."""
TIMEOUT = 300
"""Seconds any one command may take before the test calls it hung: generous on purpose
(a loaded two-core machine); it proves "returns", not speed (bench/ measures that)."""


# --- what the docs print ----------------------------------------------------------------

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(doc: str, language: str) -> list[str]:
    """The fenced blocks of `language` in the doc at `doc` (a path from the repository's
    root), in order, each as its text (indented blocks of a list are not read)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    return [body for lang, body in _FENCE.findall(text) if lang == language]


def sh_lines(doc: str, index: int) -> list[str]:
    """The command lines of the `index`-th ```sh block of `doc`."""
    return [line for line in blocks(doc, "sh")[index].splitlines() if line.strip()]


def table_forms(doc: str = "README.md") -> dict[str, str]:
    """The command forms of the doc's command table, by subcommand:
    `{"bump": "register bump ALIAS [COMMIT]", ...}` (a row's first form)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(register [^`]+)`", text, re.MULTILINE)
    forms: dict[str, str] = {}
    for form in rows:
        forms.setdefault(form.split()[1], form)
    return forms


_GROUP = re.compile(r"\[([^\[\]]*)\]")
_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z0-9_]*\b(?:\.\.\.)?")


def fill(form: str, **values: str) -> str:
    """A form from a doc with its placeholders filled: `fill("register bump ALIAS
    [COMMIT]", ALIAS="spec")` is `register bump spec`. An optional group (`[...]`) whose
    placeholders are all left out is dropped; a placeholder that is required, or one of a
    group filled in part, must be given (KeyError otherwise)."""

    def one(match: re.Match[str]) -> str:
        return values[match[0].removesuffix("...")]

    while (group := _GROUP.search(form)) is not None:
        names = [p.removesuffix("...") for p in _PLACEHOLDER.findall(group[1])]
        given = [name for name in names if name in values]
        form = form[: group.start()] + (group[1] if given else "") + form[group.end() :]
    return " ".join(_PLACEHOLDER.sub(one, form).split())


# --- the upstream repository ------------------------------------------------------------

SCHEMA = "schema/2024-11-05/schema.ts"
HEAD = (FIXTURES / "mcp-schema-2024-11-05-head.ts").read_text(encoding="utf-8")
"""The first 48 lines of the specification's 2024-11-05 schema.ts, as at the pin `register
init` writes: the lines its example register cites."""


@dataclass
class Upstream:
    """The specification's repository, standing in for its public URL: a bare clone with
    four commits, each a kind of change a bump meets (`commits`, oldest first)."""

    bare: Path
    commits: list[str] = field(default_factory=list)


def upstream(root: Path, revisions: list[str]) -> Upstream:
    """Build it under `root`: (1) the schema, a page and a changelog for each of the first
    two revisions (specrepo's, for `register coverage`); (2) two header lines above the
    schema, every citation moves down two; (3) a README only, every citation carried over;
    (4) a field added at the top of `Request`, every citation down one again."""
    repo = GitRepo(root / "spec")
    repo.write(SCHEMA, HEAD)
    pages = (
        (specrepo.OLD_PAGE, specrepo.OLD_CHANGELOG),
        (specrepo.NEW_PAGE, specrepo.NEW_CHANGELOG),
    )
    for revision, (page, changelog) in zip(revisions, pages, strict=False):
        repo.write(f"docs/specification/{revision}/basic/index.mdx", page)
        repo.write(f"docs/specification/{revision}/changelog.mdx", changelog)
    commits = [repo.commit("schema and pages")]
    repo.write(SCHEMA, "// Copyright the authors.\n// SPDX-License-Identifier: MIT\n" + HEAD)
    commits.append(repo.commit("a header"))
    repo.write("README.md", "The specification.\n")
    commits.append(repo.commit("a README"))
    schema = (repo.root / SCHEMA).read_text(encoding="utf-8")
    repo.write(
        SCHEMA, schema.replace("  method: string;\n", "  method: string;\n  id?: string;\n", 1)
    )
    commits.append(repo.commit("a field"))
    bare = root / "spec.git"
    repo.git("clone", "--quiet", "--bare", str(repo.root), str(bare))
    return Upstream(bare, commits)


def stand_in(project: Path, up: Upstream) -> None:
    """Point the example source of a fresh project at `up`, its `repo:` at the bare clone
    and its pin at the first commit, and uncomment the `coverage:` example `register init`
    wrote under it: the edits a user makes by hand, made as text."""
    sources = project / "registers" / "sources.yaml"
    text = sources.read_text(encoding="utf-8")
    pin = yaml.safe_load(text)["sources"]["spec"]["commit"]
    assert INIT_REPO in text and pin in text, "register init's example source changed"
    text = uncommented(text.replace(INIT_REPO, str(up.bare)).replace(pin, up.commits[0]))
    assert "coverage" in yaml.safe_load(text)["sources"]["spec"]
    sources.write_text(text, encoding="utf-8")


def uncommented(text: str) -> str:
    """`text` with its commented `# coverage:` example made YAML: that line and the more
    deeply indented comment lines under it lose their `# `."""
    lines = text.splitlines(keepends=True)
    (at,) = [i for i, line in enumerate(lines) if line.lstrip().startswith("# coverage:")]
    indent = lines[at].index("#")
    lines[at] = lines[at][:indent] + lines[at][indent + 2 :]
    for i in range(at + 1, len(lines)):
        if not lines[i].startswith(" " * indent + "#   "):
            break
        lines[i] = lines[i][:indent] + lines[i][indent + 2 :]
    return "".join(lines)


def revisions(project: Path) -> list[str]:
    """The revisions a project's sources.yaml declares, oldest first."""
    text = (project / "registers" / "sources.yaml").read_text(encoding="utf-8")
    return [str(revision) for revision in yaml.safe_load(text)["revisions"]]


# --- running ----------------------------------------------------------------------------


def environment() -> dict[str, str]:
    """A user's environment: git with no user config, the venv's scripts first on PATH,
    no REGISTER_* variable of whoever runs the tests (REGISTER_SOURCE_SPEC would be read)."""
    env = {k: v for k, v in git_env().items() if not k.startswith("REGISTER_")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.pop("PYTHONPATH", None)
    return env


class Shell:
    """A terminal: the folder it is in, and what it runs there, line by line."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.env = environment()

    def run(
        self, line: str, expect: int | None = 0, **env: str
    ) -> subprocess.CompletedProcess[str]:
        """Run `line` with bash (`-e -o pipefail`, as GitHub Actions does) from `cwd`; a `cd`
        in it moves `cwd` for the lines after. Asserts the exit code when `expect` is not
        None, and that no traceback reached the user."""
        with tempfile.TemporaryDirectory() as scratch:  # outside the project: git sees none
            here = Path(scratch) / "cwd"
            # `-e` does not stop at a failure inside `a && b`: the line's own status is kept.
            script = f'{line}\nstatus=$?\nprintf %s "$PWD" > {shlex.quote(str(here))}\nexit $status'
            done = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                cwd=self.cwd,
                env={**self.env, **env},
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
            shown = f"$ {line}  (in {self.cwd})\n{done.stdout}{done.stderr}"
            assert "Traceback" not in done.stdout + done.stderr, shown
            if expect is not None:
                assert done.returncode == expect, shown
            if here.exists():
                self.cwd = Path(here.read_text(encoding="utf-8"))
        return done

    def at(self, folder: Path) -> Shell:
        """Another terminal, in `folder`, with the same environment."""
        other = Shell(folder)
        other.env = self.env
        return other


def register_parts(line: str) -> list[str]:
    """The `register` commands of a doc line (`a && b  # comment`), but `register init`:
    what a user runs again from another folder of the project. The engine's own commands
    (`mkdocs build`) are not among them: MkDocs reads mkdocs.yml from the working folder."""
    parts = [part.strip() for part in re.sub(r"\s+#.*$", "", line).split("&&")]
    return [p for p in parts if p.startswith("register ") and not p.startswith("register init")]


SERVE_BOUND = 180.0
"""Seconds `mkdocs serve` may take to show a page, or the page edited: a bound that proves
it does not hang, generous for a loaded two-core machine; no speed is asserted."""


def free_port() -> int:
    """A localhost port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- GitHub Actions steps ---------------------------------------------------------------

_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_CONDITION = re.compile(r"(\S+) == '([^']*)'\Z")


def expand(text: str, context: Mapping[str, str]) -> str:
    """`text` with each `${{ expr }}` replaced by `context[expr]` (KeyError for one the
    test does not know: a new expression in a workflow is for the test to learn)."""
    return _EXPRESSION.sub(lambda m: context[m[1]], text)


def holds(condition: str, context: Mapping[str, str]) -> bool:
    """An `if:` of the form `NAME == 'VALUE'`, the one form the workflows use."""
    match = _CONDITION.match(condition.strip())
    assert match is not None, f"an if: the test cannot evaluate: {condition}"
    return context[match[1]] == match[2]


def installed(requirement: str) -> bool:
    """Whether `requirement` (a requirements.txt line, or a folder pip would install) is
    already met by this virtual environment: the distribution is there, at a version the
    line allows, and, for a direct URL or a folder, installed from that very URL (pip's
    `direct_url.json`, PEP 610). The one folder the docs install is compat-register's."""
    if requirement.startswith(("/", ".")) and Path(requirement).is_dir():
        requirement = f"compat-register @ {Path(requirement).resolve().as_uri()}"
    wanted = Requirement(requirement)
    try:
        dist = importlib.metadata.distribution(wanted.name)
    except importlib.metadata.PackageNotFoundError:
        return False
    if wanted.url is not None:
        origin = json.loads(dist.read_text("direct_url.json") or "{}")
        return bool(origin.get("url") == wanted.url.rstrip("/"))
    return wanted.specifier.contains(dist.version, prereleases=True)


def pip_installs_what_is_here(run: str, cwd: Path, env: Mapping[str, str]) -> bool:
    """Whether a step is a `pip install` of what this venv already holds (then the test
    leaves it out rather than reinstall the package under test into its own venv): each
    `-r FILE`'s requirements and each folder named are `installed`. False for any other
    step, and for a pip install of anything missing: that one runs (and fails offline)."""
    words = shlex.split(run)
    if words[:4] != ["python", "-m", "pip", "install"]:
        return False
    words = [re.sub(r"\$\{?(\w+)\}?", lambda m: env.get(m[1], ""), w) for w in words]
    named: list[str] = []
    args = iter(words[4:])
    for word in args:
        if word in ("-r", "--requirement"):
            lines = (cwd / next(args)).read_text(encoding="utf-8").splitlines()
            named += [line for line in lines if line.strip() and not line.startswith("#")]
        elif not word.startswith("-"):
            named.append(word)
    return bool(named) and all(installed(line) for line in named)


GITHUB_ONLY = ("gh ",)
"""Commands that need GitHub itself (its API and a token): `gh pr comment`."""


class Ran(NamedTuple):
    """What `run_steps` ran, in order, and the outputs the steps set (`steps.ID.outputs.X`)."""

    commands: list[str]
    context: dict[str, str]


def run_steps(
    shell: Shell, steps: list[dict[str, object]], context: Mapping[str, str], **env: str
) -> Ran:
    """Run a job's `run:` steps in order, as the runner would: `${{ }}` expanded, `if:`
    evaluated, the step's `env:`, `CI=true`, and a `GITHUB_OUTPUT` file whose outputs the
    later steps see as `steps.ID.outputs.NAME`. Passed over: `uses:` steps (GitHub's own
    actions: checkout, setup-python, cache, pages), a pip install of what the venv holds
    (`pip_installs_what_is_here`) and a command of `GITHUB_ONLY`."""
    ran = Ran([], dict(context))
    for step in steps:
        if "run" not in step or ("if" in step and not holds(str(step["if"]), ran.context)):
            continue
        run = expand(str(step["run"]), ran.context)
        if run.startswith(GITHUB_ONLY):
            continue
        given = {k: expand(str(v), ran.context) for k, v in dict(step.get("env") or {}).items()}
        with tempfile.TemporaryDirectory() as scratch:
            output = Path(scratch) / "output"
            output.write_text("", encoding="utf-8")
            given = {**env, **given, "CI": "true", "GITHUB_OUTPUT": str(output)}
            if pip_installs_what_is_here(run, shell.cwd, {**shell.env, **given}):
                continue
            shell.run(run, **given)
            ran.commands.append(run)
            for line in output.read_text(encoding="utf-8").splitlines():
                name, _, value = line.partition("=")
                ran.context[f"steps.{step.get('id')}.outputs.{name}"] = value
    return ran


class Served(NamedTuple):
    """A server `serving` started: its address, its process, and the file its output goes to."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path


@contextmanager
def serving(shell: Shell, command: str, **env: str) -> Iterator[Served]:
    """`command` (`mkdocs serve`, ...) run from `shell.cwd` on a free localhost port
    (`--dev-addr` added: the docs' default port, 8000, may be taken), its output in a file
    beside the project; its process group is ended when the block leaves."""
    port = free_port()
    log = shell.cwd.parent / f"serve-{port}.log"  # a file, not a pipe nobody drains
    with log.open("wb") as output:
        process = subprocess.Popen(
            ["bash", "-c", f"exec {command} --dev-addr 127.0.0.1:{port}"],
            cwd=shell.cwd,
            env={**shell.env, **env},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, ended below by its id
        )
    try:
        yield Served(f"http://127.0.0.1:{port}/", process, log)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)


def shown(served: Served) -> str:
    """What the server printed so far."""
    return served.log.read_text(encoding="utf-8", errors="replace")


def fetched(served: Served, path: str, wanted: str) -> str:
    """The page at `path` once it holds `wanted`, polled until `SERVE_BOUND` runs out."""
    url = served.url + path
    deadline = time.monotonic() + SERVE_BOUND
    body = ""
    while time.monotonic() < deadline:
        assert served.process.poll() is None, shown(served)
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                body = response.read().decode("utf-8")
        except (urllib.error.URLError, ConnectionError):
            body = ""
        if wanted in body:
            return body
        time.sleep(0.5)
    raise AssertionError(
        f"{url} did not show {wanted!r} within {SERVE_BOUND:g} s:\n{shown(served)}"
    )

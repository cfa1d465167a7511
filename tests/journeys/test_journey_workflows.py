"""The GitHub Actions a project runs, run here: every `run:` step in order, from the
project's root, with `CI=true`, as the runner would (`journey.run_steps`): the workflow
`register init` writes for each engine, this repository's `action.yml` with the inputs
docs/start.md gives it, and the workflows docs/ci.md and docs/publishing.md print.

On the main of issue 34 each of them failed at its `register sync` (item 1)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

import engines
from gitrepo import GitRepo
from journey import ROOT, Shell, blocks, revisions, run_steps, stand_in, upstream

pytestmark = pytest.mark.slow  # each builds a site, some two: the long tier
ENGINES = [
    "mkdocs",
    pytest.param(
        "zensical",
        marks=pytest.mark.skipif(not engines.installed("zensical"), reason="no zensical"),
    ),
]
"""`register init`'s engines; Zensical comes with the `engines` extra (.ci/run installs it)."""


def fresh(tmp_path: Path, engine: str = "mkdocs") -> Shell:
    """A terminal at the root of a project `register init` made for `engine`, its example
    source standing in for the public one, kept in git (the Changes page reads it)."""
    engine_option = "--engine zensical " if engine == "zensical" else ""  # MkDocs: the default
    Shell(tmp_path).run(f"register init {engine_option}project")
    project = tmp_path / "project"
    stand_in(project, upstream(tmp_path / "upstream", revisions(project)))
    GitRepo(project).commit("a new register project")
    return Shell(project)


def built(project: Path) -> bool:
    return (project / "site" / "registers" / "example" / "index.html").is_file()


@pytest.mark.parametrize("engine", ENGINES)
def test_the_workflow_init_writes_runs_green(tmp_path: Path, engine: str) -> None:
    root = fresh(tmp_path, engine)
    workflows = sorted((root.cwd / ".github" / "workflows").glob("*.yml"))
    assert workflows
    ran = []
    for path in workflows:
        for job in yaml.safe_load(path.read_text(encoding="utf-8"))["jobs"].values():
            ran += run_steps(root, job["steps"], {}).commands
    build = ["mkdocs build --strict"]
    if engine == "zensical":
        build = ["register render --out docs", "zensical build --strict"]
    assert ran == ["register sync", "register verify --format github", *build]
    assert built(root.cwd)


def test_the_action_runs_green_with_the_inputs_start_md_gives(tmp_path: Path) -> None:
    root = fresh(tmp_path)
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    (use,) = [
        s
        for block in blocks("docs/start.md", "yaml")
        if "steps:" in block
        for s in yaml.safe_load(block)["steps"]
        if "compat-register@" in s.get("uses", "")
    ]
    inputs.update({name: str(value) for name, value in use["with"].items()})
    assert inputs["verify-args"] == "--strict"
    context = {f"inputs.{name}": value for name, value in inputs.items()}
    ran = run_steps(root, action["runs"]["steps"], context, GITHUB_ACTION_PATH=str(ROOT))
    assert [c.split()[:2] for c in ran.commands if c.startswith(("register", "mkdocs"))] == [
        ["register", "sync"],
        ["register", "verify"],
        ["mkdocs", "build"],
    ]
    # The folder the action caches is where sync put the checkouts.
    cache = ran.context["steps.where.outputs.cache"]
    assert cache == ".register/cache" and (root.cwd / cache / "spec.git").is_dir()
    assert built(root.cwd)


def doc_workflows(doc: str) -> list[dict[str, object]]:
    """The jobs of the workflows a doc prints, in order, a fragment (`  changes: ...`,
    a job of the workflow above it) read as its jobs."""
    jobs = []
    for block in blocks(doc, "yaml"):
        data = yaml.safe_load(textwrap.dedent(block))
        if isinstance(data, dict):
            jobs += list(dict(data.get("jobs", data)).values())
    return [job for job in jobs if isinstance(job, dict) and "steps" in job]


def test_the_workflows_ci_md_prints_run_green(tmp_path: Path) -> None:
    root = fresh(tmp_path)
    base = GitRepo(root.cwd).git("rev-parse", "HEAD")
    example = root.cwd / "registers" / "example.yaml"
    example.write_text(example.read_text().replace("title: Example", "title: Edited"))
    GitRepo(root.cwd).commit("the example's title edited")  # a pull request's change
    verify, changes = doc_workflows("docs/ci.md")
    context = {"github.event.pull_request.base.sha": base}  # the pull request's base
    assert run_steps(root, verify["steps"], context).commands == [  # type: ignore[arg-type]
        "register sync",
        "register verify --format github",
    ]
    ran = run_steps(root, changes["steps"], context).commands  # type: ignore[arg-type]
    assert ran == [f'register diff "{base}" HEAD --format markdown > changes.md']
    assert "Edited" in (root.cwd / "changes.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("engine", ENGINES)
def test_the_pages_workflow_publishing_md_prints_runs_green(tmp_path: Path, engine: str) -> None:
    """The Pages workflow, and for Zensical the same with its build step replaced by the
    two steps the page gives."""
    root = fresh(tmp_path, engine)
    (build,) = doc_workflows("docs/publishing.md")[:1]
    steps = list(build["steps"])  # type: ignore[call-overload]
    if engine == "zensical":
        (replaced,) = [b for b in blocks("docs/publishing.md", "yaml") if "zensical build" in b]
        at = next(i for i, s in enumerate(steps) if s.get("run") == "mkdocs build --strict")
        steps[at : at + 1] = yaml.safe_load(textwrap.dedent(replaced))
    ran = run_steps(root, steps, {}).commands
    assert ran[0] == "register sync" and ran[-1].endswith("build --strict")
    assert built(root.cwd)

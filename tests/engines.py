"""Build a site with each engine the register pages are published by (docs/publishing.md).

    built = build_with("zensical", root, env)   # root/site: the built site

- `mkdocs` and `properdocs`: `build --strict` with the `register` plugin in mkdocs.yml;
- `zensical`: `register render --out docs`, then `zensical build --strict` (Zensical runs
  no MkDocs plugin; its mkdocs.yml names the pages' stylesheet and script).

`config(engine, name)` is the mkdocs.yml `register init --engine` writes for it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from compat_register.cli import main
from compat_register.scaffold import newproject as project

ENGINES = ("mkdocs", "properdocs", "zensical")


def installed(engine: str) -> bool:
    return importlib.util.find_spec(engine) is not None


def config(engine: str, name: str) -> str:
    """mkdocs.yml for `engine`, as `register init` writes it."""
    return project.zensical_config(name) if engine == "zensical" else project.mkdocs_config(name)


def build_with(engine: str, root: Path, env: dict[str, str] | None = None) -> str:
    """Build the site in `root` (mkdocs.yml, docs/, registers/) into `root/site` with
    `engine`; returns what the build printed. Fails the test when a step fails."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    printed = ""
    if engine == "zensical":
        printed = render_into_docs(root, env)
        command = [sys.executable, "-m", "zensical", "build", "--strict"]
    else:
        command = [sys.executable, "-m", engine, "build", "--strict", "-d", str(root / "site")]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{engine}: {done.stdout}{done.stderr}"
    return printed + done.stdout + done.stderr


def render_into_docs(root: Path, env: dict[str, str]) -> str:
    """`register render --out docs` in `root`, as the Zensical workflow runs it."""
    runner = CliRunner()
    args = ["render", "--registers", str(root / "registers"), "--out", str(root / "docs")]
    legend = root / "docs" / "legend.md"
    args += ["--legend", "legend.md"] if legend.exists() else []
    done = runner.invoke(main, args, env=env)
    assert done.exit_code == 0, done.output
    return done.output

"""A real install: the package builds as a wheel and an sdist, and `register init` in a
fresh environment writes a requirements.txt that installs that very copy.

The end-to-end test builds the wheel, installs it into a new virtual environment outside
the repository, and runs the new project's whole loop there. It takes about a minute and
pip may reach the package index for the dependencies, so the suite runs it only with
REGISTER_INSTALL_TEST=1 (`.ci/run` sets it); offline it is skipped, saying so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compat_register.scaffold.install import install_lines
from gitrepo import git_env
from test_init import repin, spec_clone

ROOT = Path(__file__).resolve().parents[1]
WHEEL_URL = "file:///home/me/dist/compat_register-0.1.0-py3-none-any.whl"
OFFLINE = ("Could not find a version", "Temporary failure in name resolution", "NewConnection")


def test_a_registry_install_pins_the_version() -> None:
    text = install_lines("1.2.0", None)
    assert text.splitlines()[-1] == "compat-register==1.2.0"
    assert text.startswith("# The tools CI installs") and "package index" in text


def test_a_vcs_install_pins_the_commit_installed() -> None:
    direct = {
        "url": "https://github.com/example/compat-register",
        "vcs_info": {"vcs": "git", "commit_id": "a" * 40, "requested_revision": "main"},
    }
    lines = install_lines("0.1.0", direct).splitlines()
    url = "git+https://github.com/example/compat-register"
    assert lines[-1] == f"compat-register @ {url}@{'a' * 40}"
    assert "asked for main" in lines[0]


def test_an_archive_or_a_folder_is_named_with_what_ci_needs() -> None:
    wheel = install_lines("0.1.0", {"url": WHEEL_URL, "archive_info": {}}).splitlines()
    assert wheel[-1] == f"compat-register @ {WHEEL_URL}"
    assert "/home/me/dist/compat_register-0.1.0-py3-none-any.whl" in wheel[0]
    assert "CI has it only when" in wheel[1]
    folder = {"url": "file:///src/compat%20register", "dir_info": {"editable": True}}
    lines = install_lines("0.1.0", folder).splitlines()
    assert lines[-1] == "compat-register @ file:///src/compat%20register"
    assert "the folder /src/compat register (installed editable)" in lines[0]
    remote = {"url": "https://example.org/c.tar.gz", "archive_info": {}}
    assert len(install_lines("0.1.0", remote).splitlines()) == 2  # no local-path note


def run(args: list[str], cwd: Path, env: dict[str, str], timeout: int = 600) -> str:
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    if done.returncode != 0 and any(sign in done.stdout + done.stderr for sign in OFFLINE):
        pytest.skip(f"offline: {' '.join(args[:4])} could not reach the package index")
    assert done.returncode == 0, f"{' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.skipif(
    os.environ.get("REGISTER_INSTALL_TEST") != "1",
    reason="builds and installs a wheel into a fresh venv (about a minute, may reach the "
    "package index): set REGISTER_INSTALL_TEST=1, as .ci/run does",
)
def test_the_wheel_installs_and_a_new_project_works_from_it(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy, so that the build writes nothing into the repository
    skipped = shutil.ignore_patterns("*.egg-info", "__pycache__")
    shutil.copytree(ROOT / "src", source / "src", ignore=skipped)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    env = {k: v for k, v in git_env().items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    dist = tmp_path / "dist"  # build makes the sdist, then the wheel from it: both complete
    run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)], tmp_path, env)
    wheel = next(dist.glob("compat_register-*-py3-none-any.whl"))
    assert next(dist.glob("compat_register-*.tar.gz"))

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)], tmp_path, env)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    run([*pip, str(wheel)], tmp_path, env)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"

    run(["register", "init", "proj"], tmp_path, env)
    project = tmp_path / "proj"
    requirements = (project / "requirements.txt").read_text(encoding="utf-8")
    assert requirements.splitlines()[-1] == f"compat-register @ {wheel.as_uri()}"
    # What CI does with it; the copy it names is the wheel, not a registry's.
    run([*pip, "--no-index", "-r", "requirements.txt"], project, env)

    assert run(["register", "check"], project, env) == "0 errors, 0 warnings\n"
    clone = spec_clone(tmp_path / "spec")
    repin(project, clone.git("rev-parse", "HEAD"))
    verify_env = {**env, "REGISTER_SOURCE_SPEC": str(clone.root)}
    verified = run(["register", "verify", "--strict"], project, verify_env)
    assert verified.startswith("4 citations: 4 ok, 0 moved, 0 broken"), verified
    run(["mkdocs", "build", "--strict", "--quiet"], project, verify_env)
    assert (project / "site" / "registers" / "example" / "index.html").is_file()

"""The suite itself, as the README runs it: two tiers (tests/conftest.py), and an outcome
that does not depend on the shell it runs in."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).parent
KILLS = "tests/storage/test_writers.py::test_a_kill_at_a_random_instant_leaves_the_set_old_or_new"


def pytest(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m pytest ARGS` from the repository root, in a shell with `env` added (and no
    PYTEST_* variable of this run's)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0"]
    return subprocess.run(
        [*command, f"--basetemp={tmp_path / 'run'}", *args],
        cwd=TESTS.parent,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def collected(tmp_path: Path, *args: str) -> list[str]:
    done = pytest(tmp_path, "--collect-only", "-q", *args)
    assert done.returncode == 0, done.stdout + done.stderr
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_default_tier_leaves_slow_tests_to_the_long_one(tmp_path: Path) -> None:
    default = collected(tmp_path, "tests/storage/test_writers.py", "tests/statements")
    long = collected(tmp_path, "--long", "tests/storage/test_writers.py", "tests/statements")
    kills = [f"{KILLS}[bump]", f"{KILLS}[fix]"]
    assert not set(kills) & set(default) and "tests/storage/test_writers.py" in default[0]
    properties = [test for test in long if test not in kills]
    assert long[:2] == kills and properties and set(properties) <= set(default)
    assert all(test.startswith("tests/statements/test_prefilter.py::") for test in properties)


def test_the_callers_register_and_git_variables_reach_no_test(tmp_path: Path) -> None:
    """A shell that names a clone of the spec for the site (docs/sources.md) and a GIT_DIR:
    a test that pins its own `spec` source still passes."""
    done = pytest(
        tmp_path,
        "-q",
        "tests/test_init.py::test_a_site_keeps_its_own_permalink_symbol",
        REGISTER_SOURCE_SPEC=str(tmp_path / "no-clone"),
        REGISTER_CACHE=str(tmp_path / "no-cache"),
        GIT_DIR=str(tmp_path / "no-repository"),
    )
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr


def test_the_readme_runs_the_tiers_the_suite_has() -> None:
    """The README's test command runs the default tier (no option picks another), and it
    names the option of the long one and its marker (both run above)."""
    readme = (TESTS.parent / "README.md").read_text("utf-8")
    [line] = [line for line in readme.splitlines() if line.endswith("# the tests")]
    assert line.split(" && ")[-1] == "python3 -m pytest -q  # the tests"
    assert "`python3 -m pytest -q --long`" in readme and "`slow`" in readme
    pyproject = (TESTS.parent / "pyproject.toml").read_text("utf-8")
    assert 'markers = ["slow: ' in pyproject

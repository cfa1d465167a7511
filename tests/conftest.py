"""Shared fixtures: `run_line` runs the `register` command in-process, like a shell would."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import pytest
from click.testing import CliRunner, Result
from hypothesis import settings

from compat_register.cli import main

RunLine = Callable[[Sequence[str]], Result]

# Under CI (CI=true, as .ci/run runs) every property test draws the same examples each run,
# so that a landing is judged on what its author ran; a developer's runs draw new examples
# and keep any failure they find in .hypothesis/ (hypothesis' own database) until it is fixed.
# No deadline in CI: hypothesis's per-example deadline times each example, and a shared
# two-core runner makes a first call slow (a DeadlineExceeded that says nothing about the
# code); tests here time nothing, bench/ measures speed.
settings.register_profile("ci", derandomize=True, print_blob=True, deadline=None)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")


@pytest.fixture
def run_line() -> RunLine:
    """`run_line(["check", "--registers", str(dir)])` -> click's `Result` (stdout, stderr apart),
    under the program name a user types (`Usage: register check ...`)."""

    def run(args: Sequence[str]) -> Result:
        return CliRunner().invoke(main, list(args), prog_name="register")

    return run

"""Shared fixtures: `run_line` runs the `register` command in-process, like a shell would."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from click.testing import CliRunner, Result

from compat_register.cli import main

RunLine = Callable[[Sequence[str]], Result]


@pytest.fixture
def run_line() -> RunLine:
    """`run_line(["check", "--registers", str(dir)])` -> click's `Result` (stdout, stderr apart)."""

    def run(args: Sequence[str]) -> Result:
        return CliRunner().invoke(main, list(args))

    return run

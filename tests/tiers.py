"""What a test runs in each tier (tests/conftest.py): the default tier (`pytest`) draws a
tenth of a property test's examples and, of a test over every combination of a few axes
(pages, colour schemes, widths), a diagonal; the long tier (`pytest --long`) the rest."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest

LONG = False
"""True under `pytest --long`: tests/conftest.py sets it before any test module is read."""


def examples(long: int) -> int:
    """A property test's `max_examples`: `long` in the long tier, a tenth (at least 5) in
    the default one."""
    return long if LONG else max(5, long // 10)


def diagonal(*axes: Sequence[Any]) -> list[Any]:
    """Every combination of the axes' values, for `parametrize("a, b, c", diagonal(A, B, C))`
    (a value that is a tuple gives several arguments); the i-th combination of the diagonal
    takes the i-th value of each axis, wrapping round the shorter ones."""
    longest = max(len(axis) for axis in axes)
    fast = {tuple(axis[i % len(axis)] for axis in axes) for i in range(longest)}
    return [
        pytest.param(
            *_arguments(combination), marks=() if combination in fast else pytest.mark.slow
        )
        for combination in itertools.product(*axes)
    ]


def _arguments(combination: tuple[Any, ...]) -> list[Any]:
    return [
        arg for value in combination for arg in (value if isinstance(value, tuple) else (value,))
    ]

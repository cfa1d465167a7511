"""Every data file the package reads at run time is shipped in the wheel.

The site's templates, their CSS/JS assets, the JSON Schemas and the files `register init`
writes are read from the installed package; a file that `package-data` does not match is
missing from a non-editable install.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+; the check is the same on any version

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "compat_register"


def test_package_data_covers_every_data_file() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = pyproject["tool"]["setuptools"]["package-data"]["compat_register"]
    data = [
        path.relative_to(PACKAGE).as_posix()
        for folder in ("site/templates", "schema", "scaffold/files")
        for path in (PACKAGE / folder).rglob("*")
        if path.is_file()
    ]
    assert data, "no data files found"
    missing = [name for name in data if not any(_glob_match(name, g) for g in globs)]
    assert missing == []


def _glob_match(name: str, glob: str) -> bool:
    # As setuptools globs package data: `*` stays within one folder.
    parts, patterns = name.split("/"), glob.split("/")
    return len(parts) == len(patterns) and all(map(fnmatch.fnmatch, parts, patterns))


@pytest.mark.parametrize("name", ["Markdown", "pymdown-extensions", "nh3"])
def test_installed_parsers_are_the_pinned_ones(name: str) -> None:
    """The prose model is tested against the pinned Markdown and pymdown-extensions: a run
    with other versions installed (`pip install --no-deps`, a site's own pins) says so."""
    from importlib.metadata import version

    from packaging.requirements import Requirement

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = [Requirement(line) for line in pyproject["project"]["dependencies"]]
    pin = next(r for r in pins if r.name.lower() == name.lower())
    assert pin.specifier.contains(version(name)), f"{name} {version(name)} is not {pin}"

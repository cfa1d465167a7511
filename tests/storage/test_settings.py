"""The `REGISTER_*` variables, read in one place (`storage.settings`)."""

from __future__ import annotations

import ast
from pathlib import Path

from compat_register.storage import settings
from compat_register.storage.settings import DEFAULT_WAIT, Settings, source_variable


def test_each_variable_read_and_an_empty_one_unset() -> None:
    read = Settings.read(
        {
            "REGISTER_DIR": "regs",
            "REGISTER_CACHE": "/c",
            "REGISTER_LOCK_WAIT": "2.5",
            "REGISTER_SOURCE_SPEC_V2": "../spec",
            "REGISTER_SOURCE_EMPTY": "",
            "HOME": "/home/x",
        }
    )
    assert (read.registers, read.cache, read.lock_wait) == (Path("regs"), Path("/c"), 2.5)
    assert read.clones == {"REGISTER_SOURCE_SPEC_V2": "../spec"}
    assert source_variable("spec.v2") == "REGISTER_SOURCE_SPEC_V2"
    unset = {"REGISTER_DIR": "", "REGISTER_CACHE": "", "REGISTER_LOCK_WAIT": ""}
    assert Settings.read(unset) == Settings() == Settings.read({})


def test_a_wait_that_is_no_number_is_the_default_and_none_is_negative() -> None:
    assert Settings.read({"REGISTER_LOCK_WAIT": "soon"}).lock_wait == DEFAULT_WAIT
    assert Settings.read({"REGISTER_LOCK_WAIT": "-3"}).lock_wait == 0.0


def test_source_variable() -> None:
    assert source_variable("open-code") == "REGISTER_SOURCE_OPEN_CODE"
    assert source_variable("spec.v2") == "REGISTER_SOURCE_SPEC_V2"


def test_no_other_module_reads_the_environment() -> None:
    """`os.environ`, `os.getenv` and `os.environb` appear in `storage.settings` alone."""
    package = Path(settings.__file__).parent.parent
    readers = {
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute | ast.Name | ast.alias)
        and _named(node) in {"environ", "getenv", "environb", "getenvb"}
    }
    assert readers == {"storage/settings.py"}


def _named(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else getattr(node, "name", "")

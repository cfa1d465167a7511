"""The tree is the pipeline: each stage imports only itself and the stages before it.

Read from the source with `ast`, so a new module or import is held to the same rule.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "src" / "compat_register"

STAGES = [
    "storage",
    "model",
    "citations",
    "reading",
    "checking",
    "sources",
    "following",
    "history",
    "importing",
    "reporting",
    "views",
    "site",
    "scaffold",
    "api",
    "cli",
    "plugin",
]
"""In pipeline order: a module may import from its own stage and the ones before it.
`api` is the public surface; `cli` and `plugin` are the thin shells over it."""


def stage_of(module: str) -> str:
    """`compat_register.reading.loader` -> `reading`; `compat_register.api` -> `api`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.append((name, path))
    return found


def imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import of the package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            names = [alias.name for alias in node.names]
            if not node.module:  # `from . import x`: each name is a module
                found += [(f"{target}.{n}", [], node.lineno) for n in names]
            else:
                found.append((target, names, node.lineno))
        elif isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
    return [(t, n, line) for t, n, line in found if t.startswith("compat_register.")]


ALL = modules()


def test_every_module_belongs_to_a_stage() -> None:
    strays = [name for name, _ in ALL if name != "compat_register" and stage_of(name) not in STAGES]
    assert strays == []


@pytest.mark.parametrize("name, path", ALL, ids=[name for name, _ in ALL])
def test_no_module_imports_a_later_stage(name: str, path: Path) -> None:
    if name == "compat_register":
        return
    mine = STAGES.index(stage_of(name))
    later = [
        f"line {line}: {target}"
        for target, _, line in imports(name, path)
        if STAGES.index(stage_of(target)) > mine
    ]
    assert later == []


@pytest.mark.parametrize("name, path", ALL, ids=[name for name, _ in ALL])
def test_no_module_takes_a_private_name_from_another_module(name: str, path: Path) -> None:
    private = [
        f"line {line}: {target}.{taken}"
        for target, names, line in imports(name, path)
        for taken in names
        if taken.startswith("_")
    ]
    assert private == []


RUNNER = "compat_register.sources.git"
"""The one git runner: every process the package starts, starts there."""

STARTS_A_PROCESS = re.compile(
    r"(subprocess\.(run|Popen|call|check_call|check_output|getoutput|getstatusoutput)"
    r"|os\.(system|popen|exec\w*|spawn\w*|posix_spawn\w*|fork\w*)"
    r"|asyncio\.create_subprocess_\w+)"
)


@pytest.mark.parametrize("name, path", ALL, ids=[name for name, _ in ALL])
def test_git_processes_start_in_the_runner_only(name: str, path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    starts = [
        f"line {node.lineno}: {ast.unparse(node.func)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and STARTS_A_PROCESS.fullmatch(ast.unparse(node.func))
    ]
    taken = [  # `from subprocess import run` would hide the call from the test above
        f"line {line}: from {module} import {taken}"
        for module, names, line in _all_imports(path)
        for taken in names
        if STARTS_A_PROCESS.fullmatch(f"{module}.{taken}")
    ]
    assert (starts + taken == []) or name == RUNNER, starts + taken


def test_nothing_imports_gitpython() -> None:
    """GitPython is not a dependency: the runner starts git itself (its import cost a
    tenth of `register verify`, and its lazy loading reached into `sys.modules`)."""
    users = [
        name
        for name, path in ALL
        if any(t == "git" or t.startswith("git.") for t, _, _ in _all_imports(path))
    ]
    assert users == []


@pytest.mark.parametrize("name, path", ALL, ids=[name for name, _ in ALL])
def test_no_module_is_swapped_into_sys_modules(name: str, path: Path) -> None:
    """Putting a module (a lazy loader, say) into `sys.modules` changes it for the whole
    process: another plugin under `mkdocs serve` would get it too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    swaps = [
        f"line {node.lineno}"
        for node in ast.walk(tree)
        if (
            isinstance(node, ast.Subscript)
            and ast.unparse(node.value) == "sys.modules"
            and isinstance(node.ctx, ast.Store | ast.Del)
        )
        or (
            isinstance(node, ast.Call)
            and ast.unparse(node.func)
            in ("sys.modules.update", "sys.modules.setdefault", "sys.modules.pop")
        )
        or (isinstance(node, ast.Attribute) and node.attr == "LazyLoader")
    ]
    assert swaps == []


def _all_imports(path: Path) -> list[tuple[str, list[str], int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, list[str], int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.append((node.module, [alias.name for alias in node.names], node.lineno))
        elif isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
    return found


def test_every_stage_says_what_it_takes_and_gives() -> None:
    for stage in STAGES[: STAGES.index("api")]:
        doc = ast.get_docstring(ast.parse((PACKAGE / stage / "__init__.py").read_text()))
        assert doc and "Takes" in doc, stage


PROCESS_WIDE = ("gc.disable", "gc.freeze", "os._exit", "sys.setrecursionlimit", "os.chdir")
"""Calls that change the whole process: a library module making them would reach into the
process of whoever imported it (a `mkdocs serve` running for hours, a test runner)."""


@pytest.mark.parametrize("name, path", ALL, ids=[name for name, _ in ALL])
def test_process_wide_switches_only_in_the_console_script(name: str, path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [
        f"line {node.lineno}: {ast.unparse(node.func)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in PROCESS_WIDE
    ]
    allowed = ["gc.disable", "os._exit"] if name == "compat_register.cli" else []
    assert [call.split(": ")[1] for call in calls] == allowed
    if allowed:  # in `run` alone: `main`, which tests and other programs call, makes none
        run = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "run")
        inside = {
            f"line {n.lineno}: {ast.unparse(n.func)}"
            for n in ast.walk(run)
            if isinstance(n, ast.Call)
        }
        assert set(calls) <= inside


def test_every_exception_class_derives_from_the_one_base() -> None:
    """One exception base (`storage.errors.RegisterError`, with its usage flag): the shells
    catch it alone, and turn it into one line and exit 1, or 2 for a usage error."""
    from compat_register.storage.errors import RegisterError

    outside = []
    for name, _ in ALL:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__ == name
                and not issubclass(value, RegisterError)
            ):
                outside.append(f"{name}.{value.__name__}")
    assert outside == []

"""The tree is the pipeline: each stage imports only itself and the stages before it.

Read from the source with `ast`, so a new module or import is held to the same rule.
"""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import click
import pytest

PACKAGE = Path(__file__).parent.parent / "src" / "compat_register"

STAGES = [
    "storage",
    "model",
    "citations",
    "reading",
    "concepts",
    "checking",
    "sources",
    "following",
    "verifying",
    "rewriting",
    "statements",
    "coverage",
    "history",
    "conformance",
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


def modules(package: Path = PACKAGE) -> list[tuple[str, Path]]:
    """(dotted name, path) of every module of the package (a planted tree's, in tests)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
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


def process_starts(path: Path) -> list[str]:
    """Every place a module starts a process: a call of `subprocess.run`, `os.system`, ...
    (under whatever name the module imported them: `import subprocess as sp`, `from os
    import system`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    known: dict[str, str] = {}  # local name -> what it names (`sp` -> `subprocess`)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            known.update({a.asname or a.name: a.name for a in node.names})
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            known.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
    starts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            head, dot, rest = called.partition(".")
            called = known.get(head, head) + dot + rest
            if STARTS_A_PROCESS.fullmatch(called):
                starts.append(f"line {node.lineno}: {called}")
    return starts


@pytest.mark.parametrize("name, path", ALL, ids=[name for name, _ in ALL])
def test_git_processes_start_in_the_runner_only(name: str, path: Path) -> None:
    starts = process_starts(path)
    assert starts == [] or name == RUNNER, starts


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
"""Calls that change the whole process: a module making them would reach into the process
of whoever imported it (a `mkdocs serve` running for hours, a test runner); the console
script makes none either (no speed trick in the shell)."""


@pytest.mark.parametrize("name, path", ALL, ids=[name for name, _ in ALL])
def test_no_process_wide_switch(name: str, path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [
        f"line {node.lineno}: {ast.unparse(node.func)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) in PROCESS_WIDE
    ]
    assert calls == [], name


def exceptions_outside(modules: list[ModuleType], base: type) -> list[str]:
    """Every exception class defined in `modules` that does not derive from `base`."""
    return [
        f"{module.__name__}.{value.__name__}"
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, BaseException)
        and value.__module__ == module.__name__
        and not issubclass(value, base)
    ]


def test_every_exception_class_derives_from_the_one_base() -> None:
    """One exception base (`storage.errors.RegisterError`, with its usage flag): the shells
    catch it alone, and turn it into one line and exit 1, or 2 for a usage error."""
    from compat_register.storage.errors import RegisterError

    modules = [importlib.import_module(name) for name, _ in ALL]
    assert exceptions_outside(modules, RegisterError) == []


# --- issue 19's rules: each is a function over a tree, so that a planted tree can prove it
# fails (test_each_rule_fails_on_a_planted_violation below), and a test holds it over the
# whole tree.

SHELLS = ("cli", "plugin")
SHELL_MAY_IMPORT = ("api", "reporting")
"""The thin shells over `api`: they print or log what `api` returns, nothing of the stages."""


def shell_imports(all_modules: list[tuple[str, Path]]) -> list[str]:
    """Imports by `cli` or `plugin` (their modules, if packages) of any of ours but `api`,
    `reporting` and their own stage; type-only imports (under TYPE_CHECKING) count too."""
    return [
        f"{name} line {line}: {target}"
        for name, path in all_modules
        if stage_of(name) in SHELLS
        for target, _, line in imports(name, path)
        if stage_of(target) not in (*SHELL_MAY_IMPORT, stage_of(name))
    ]


def test_the_shells_import_only_api_and_reporting() -> None:
    assert shell_imports(ALL) == []


def id_calls(path: Path) -> list[str]:
    """Every call of `id()`: its one use here was as a key, and an object's identity names
    the object, not the citation (a citation read again or copied is a new object): key by
    `Citation.key`; compare identities with `is`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id"
    ]


@pytest.mark.parametrize("name, path", ALL, ids=[name for name, _ in ALL])
def test_no_id_is_used_as_a_key(name: str, path: Path) -> None:
    assert id_calls(path) == []


MAX_LINES = 450
"""A module longer than this holds more than one job (STYLE.md): split it by job."""


def long_modules(all_modules: list[tuple[str, Path]]) -> list[str]:
    return [
        f"{name}: {lines} lines"
        for name, path in all_modules
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]


def test_no_module_is_longer_than_the_limit() -> None:
    assert long_modules(ALL) == []


def import_circles(all_modules: list[tuple[str, Path]]) -> list[list[str]]:
    """Every circle of modules importing each other (each a strongly connected group of the
    import graph, found by Tarjan's algorithm), lazy imports in functions included and
    type-only ones (under TYPE_CHECKING, never run) left out. `from .x import y` is an
    import of the module `x.y` when there is one, else of `x`."""
    known = {name for name, _ in all_modules}
    graph = {name: _imported_modules(name, path, known) for name, path in all_modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(group) > 1:
                circles.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return circles


def _imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    typing_only = _type_checking_lines(path)
    found = set()
    for target, taken, line in imports(name, path):
        if line in typing_only:
            continue
        modules_taken = {f"{target}.{t}" for t in taken} & known
        found |= modules_taken
        if len(modules_taken) < len(taken) or not taken:
            found.add(target)
    return (found & known) - {name}


def _type_checking_lines(path: Path) -> set[int]:
    """The lines inside `if TYPE_CHECKING:` blocks."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def test_no_modules_import_each_other() -> None:
    assert import_circles(ALL) == []


ARCHITECTURE = PACKAGE.parent.parent / "docs" / "architecture.md"


def picture_stages(doc: str) -> list[str]:
    """The stages docs/architecture.md's picture of the data flow lists, in its order: the
    first column of its first `text` block, past the heading row (`cli, plugin` is two)."""
    block = doc.split("```text\n", 1)[1].split("```", 1)[0]
    rows = [re.split(r"\s{2,}", line.strip())[0] for line in block.splitlines()[1:]]
    return [stage for row in rows for stage in row.split(", ")]


def listed_modules(doc: str) -> dict[str, set[str]]:
    """Each stage's modules as the page lists them: a line "- `module`: its job" under the
    heading "### `stage`", one module a line."""
    listed: dict[str, set[str]] = {}
    stage = None
    for line in doc.splitlines():
        if heading := re.fullmatch(r"### `(\w+)`\s*", line):
            stage = heading.group(1)
            listed[stage] = set()
        elif line.startswith("## "):
            stage = None
        elif stage and (item := re.match(r"- `(\w+)`", line)):
            listed[stage].add(item.group(1))
    return listed


def unnamed_modules(all_modules: list[tuple[str, Path]], doc: str) -> list[str]:
    """Modules docs/architecture.md does not name: a stage's module must be listed under its
    stage's heading; a top-level module named as `module.py`."""
    listed = listed_modules(doc)
    quoted = set(re.findall(r"`([^`\n]+)`", doc))
    missing = []
    for name, path in all_modules:
        parts = name.split(".")[1:]
        if not parts or path.name == "__init__.py":
            continue
        if len(parts) == 1:
            if f"{parts[0]}.py" not in quoted:
                missing.append(name)
        elif ".".join(parts[1:]) not in listed.get(parts[0], set()):
            missing.append(name)
    return missing


def unknown_modules(all_modules: list[tuple[str, Path]], doc: str) -> list[str]:
    """Modules docs/architecture.md lists that the tree does not hold (moved or gone)."""
    known = {name.split(".", 1)[1] for name, _ in all_modules if "." in name}
    return sorted(
        f"{stage}.{module}"
        for stage, modules in listed_modules(doc).items()
        for module in modules
        if f"{stage}.{module}" not in known
    )


def test_every_module_is_named_in_the_architecture() -> None:
    doc = ARCHITECTURE.read_text(encoding="utf-8")
    assert picture_stages(doc) == STAGES
    assert unnamed_modules(ALL, doc) == []
    assert unknown_modules(ALL, doc) == []


PLANTED = {
    "__init__.py": "",
    "api.py": "from .reading import loader\n",
    "cli.py": "from . import api\nfrom .reporting import report\nfrom .reading import loader\n",
    "reporting/__init__.py": "",
    "reporting/report.py": "",
    "storage/__init__.py": "",
    "storage/errors.py": "class RegisterError(Exception):\n    usage = False\n",
    "reading/__init__.py": "",
    "reading/loader.py": (
        "import subprocess as sp\nfrom os import system\n\n\n"
        "def load(x):\n    sp.run(['git', 'log'])\n    system('git log')\n"
        "    return {id(x): x}\n\n"
        "def fine(id):\n    return id\n"
    ),
    "reading/a.py": "from . import b\n",
    "reading/b.py": "def f():\n    from .a import g\n",
    "reading/typed.py": "import typing\nif typing.TYPE_CHECKING:\n    from . import c\n",
    "reading/c.py": "from . import typed\n",
    "reading/long.py": "x = 1\n" * 451,
}
PLANTED_ERRORS = """class RegisterError(Exception): ...
class LoadError(RegisterError): ...
class Boom(ValueError): ...
class Worse(Boom): ...
class NotAnError: ...
"""
PLANTED_DOC = """# Architecture

```text
stage      takes   gives
reading    x    -> y
storage    x    -> y
```

### `reading`

- `loader`: it
- `a`, `c`: the letters
- `typed`
- `long`
- `gone`: moved away

### `reporting`

- `report`

## Rules

- `b`: not under a stage's heading

Beside them `api.py`.
"""


def test_each_rule_fails_on_a_planted_violation(tmp_path: Path) -> None:
    """A tree with one violation of each rule (and a few look-alikes that are none): each
    rule names exactly what was planted."""
    for relative, text in PLANTED.items():
        (tmp_path / "compat_register" / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "compat_register" / relative).write_text(text, encoding="utf-8")
    (tmp_path / "planted_errors.py").write_text(PLANTED_ERRORS, encoding="utf-8")
    planted = modules(tmp_path / "compat_register")
    loader = tmp_path / "compat_register" / "reading" / "loader.py"
    assert shell_imports(planted) == ["compat_register.cli line 3: compat_register.reading"]
    assert process_starts(loader) == ["line 6: subprocess.run", "line 7: os.system"]
    assert id_calls(loader) == ["line 8: id(x)"]
    sys.path.insert(0, str(tmp_path))
    try:
        errors = importlib.import_module("planted_errors")
    finally:
        sys.path.remove(str(tmp_path))
    assert exceptions_outside([errors], errors.RegisterError) == [
        "planted_errors.Boom", "planted_errors.Worse"
    ]  # fmt: skip
    assert long_modules(planted) == ["compat_register.reading.long: 451 lines"]
    assert import_circles(planted) == [["compat_register.reading.a", "compat_register.reading.b"]]
    assert unnamed_modules(planted, PLANTED_DOC) == [
        "compat_register.cli", "compat_register.reading.b", "compat_register.reading.c",
        "compat_register.storage.errors"
    ]  # fmt: skip
    assert unknown_modules(planted, PLANTED_DOC) == ["reading.gone"]
    assert picture_stages(PLANTED_DOC) == ["reading", "storage"]  # not in STAGES' order


SITE_ONLY = (
    "jinja2",
    "pygments",
    "markdown_it",
    "compat_register.site.build",
    "compat_register.importing",
)
"""What only `render`, the plugin and `import` need: `check` and `verify` start without them."""


@pytest.mark.parametrize("command", ["check", "verify"])
def test_check_and_verify_load_no_site_stage(command: str) -> None:
    script = (
        "import sys\nfrom compat_register.cli import main\n"
        f"try:\n    main([{command!r}, '--help'])\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    loaded = done.stdout.splitlines()[-1].split()
    assert [name for name in loaded if name.startswith(SITE_ONLY)] == []


def test_every_command_is_found_where_the_group_says() -> None:
    from compat_register.cli import COMMANDS, main

    for name in COMMANDS:
        command = main.get_command(click.Context(main), name)
        assert command is not None and command.name == name

"""The catalogue of diagnostic codes (`model.codes`) against the codes the source emits.

The emitted codes are found by reading the source with `ast`, where a code is written: a
`code=` argument, the argument in the place of a parameter named `code` (of any function
or class of the package: `LoadError(mark, code, message)`, `at_lock(file, code, ...)`,
`Described(where, code, ...)`), or a value given to a name or attribute `code`. What such
an expression can hold is read from its literals: a string, both sides of `a if c else b`,
the values of a `{...}.get(key, default)`, what a function of the module returns, an
f-string as a pattern. A code emitted but not catalogued, or catalogued but never
emitted, fails; so does a severity written at the call that the catalogue does not give.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from compat_register.model.codes import CODES
from compat_register.model.diagnostic import Diagnostic
from compat_register.reporting import report
from compat_register.site.values import site_level
from compat_register.verifying.outcome import OUTCOMES, Outcome

PACKAGE = Path(__file__).parent.parent / "src" / "compat_register"
CATALOGUE = PACKAGE / "model" / "codes.py"
DOCS = Path(__file__).parent.parent / "docs" / "diagnostics.md"


@dataclass
class Emitted:
    """What the source says of the codes it emits."""

    codes: dict[str, list[str]] = field(default_factory=dict)
    """code -> where it is written (module:line)."""
    patterns: dict[str, list[str]] = field(default_factory=dict)
    """A regular expression (from an f-string) -> where."""
    severities: dict[str, set[str]] = field(default_factory=dict)
    """code -> the severities written beside it at the call."""


def parameters(trees: dict[Path, ast.Module], name: str) -> dict[str, int]:
    """{callable: position of its parameter `name`} for every function and class of the
    package that has one (a class: its `__init__`, or its fields in order); a private one
    is known by its module too (`_key`), as two modules may each have a `_problem`."""
    found: dict[str, int] = {}
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                names = [a.arg for a in node.args.posonlyargs + node.args.args]
                names = names[1:] if names[:1] in (["self"], ["cls"]) else names
            elif isinstance(node, ast.ClassDef):
                names = _class_parameters(node)
            else:
                continue
            if name in names:
                found[_key(path, node.name)] = names.index(name)
    return found


def _key(path: Path, name: str) -> str:
    return f"{path}:{name}" if name.startswith("_") else name


def _class_parameters(node: ast.ClassDef) -> list[str]:
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            return [a.arg for a in item.args.args][1:]
    return [
        item.target.id
        for item in node.body
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
    ]


def literals(expr: ast.expr, functions: dict[str, ast.FunctionDef]) -> tuple[set[str], set[str]]:
    """(strings, patterns) an expression can hold, as far as its literals tell."""
    if isinstance(expr, ast.Constant):
        return ({expr.value} if isinstance(expr.value, str) else set()), set()
    if isinstance(expr, ast.IfExp):
        return _union(literals(e, functions) for e in (expr.body, expr.orelse))
    if isinstance(expr, ast.JoinedStr):
        parts = [re.escape(v.value) if isinstance(v, ast.Constant) else ".+" for v in expr.values]
        return set(), {"".join(parts)}
    if isinstance(expr, ast.Dict):
        return _union(literals(v, functions) for v in expr.values)
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "get"
    ):
        # {...}.get(key, default)
        return _union(literals(e, functions) for e in [expr.func.value, *expr.args[1:]])
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id in functions:
        returned = [  # what a helper of the module returns
            node.value
            for node in ast.walk(functions[expr.func.id])
            if isinstance(node, ast.Return) and node.value is not None
        ]
        return _union(literals(e, functions) for e in returned)
    return set(), set()


def _union(pairs: Iterator[tuple[set[str], set[str]]]) -> tuple[set[str], set[str]]:
    strings: set[str] = set()
    patterns: set[str] = set()
    for found, shaped in pairs:
        strings |= found
        patterns |= shaped
    return strings, patterns


def emitted() -> Emitted:
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
        if path != CATALOGUE
    }
    code_at = parameters(trees, "code")
    severity_at = parameters(trees, "severity")
    out = Emitted()
    for path, tree in trees.items():
        functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        for expr, severity in _code_expressions(path, tree, code_at, severity_at):
            strings, patterns = literals(expr, functions)
            where = f"{path.relative_to(PACKAGE)}:{expr.lineno}"
            severities = literals(severity, functions)[0] if severity is not None else set()
            for code in strings:
                out.codes.setdefault(code, []).append(where)
                out.severities.setdefault(code, set()).update(severities)
            for pattern in patterns:
                out.patterns.setdefault(pattern, []).append(where)
    return out


def _code_expressions(
    path: Path, tree: ast.Module, code_at: dict[str, int], severity_at: dict[str, int]
) -> Iterator[tuple[ast.expr, ast.expr | None]]:
    """Each expression written where a code goes, and the severity written beside it."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _called(node)
            name = name and _key(path, name)
            given = {k.arg: k.value for k in node.keywords if k.arg}
            for key, place in (("code", code_at), ("severity", severity_at)):
                if key not in given and name in place and len(node.args) > place[name]:
                    given[key] = node.args[place[name]]
            if "code" in given:
                yield given["code"], given.get("severity")
        elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(_named_code(t) for t in targets):
                yield node.value, None
            for target in targets:  # code, message = "bad-path", problem
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    for name, value in zip(target.elts, node.value.elts, strict=False):
                        if _named_code(name):
                            yield value, None


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)


def _named_code(target: ast.expr) -> bool:
    return (isinstance(target, ast.Name) and target.id == "code") or (
        isinstance(target, ast.Attribute) and target.attr == "code"
    )


FOUND = emitted()


def test_the_reading_finds_the_codes_it_should() -> None:
    """The reading itself, on places written each way (so that it cannot pass by finding
    nothing): a keyword, a parameter's place, a value given to `code`, a helper's return,
    an f-string."""
    assert any(w.startswith("reading/citing.py:") for w in FOUND.codes["bad-citation"])
    assert "not-a-file" in FOUND.codes  # code = "..." if ... else "..." (loader)
    assert "tab-indent" in FOUND.codes  # LoadError(where, "tab-indent", message)
    assert "bad-stamp" in FOUND.codes  # at_lock(found.file, "bad-stamp", ...)
    assert "unknown-field" in FOUND.codes  # Described(..., "unknown-field", ...)
    assert "empty-field" in FOUND.codes  # returned by schema._code
    assert any(re.fullmatch(p, "citation-moved") for p in FOUND.patterns)


def test_every_code_emitted_is_catalogued() -> None:
    missing = {code: where for code, where in FOUND.codes.items() if code not in CODES}
    assert missing == {}


def test_every_catalogued_code_is_emitted() -> None:
    def written(code: str) -> bool:
        return code in FOUND.codes or any(re.fullmatch(p, code) for p in FOUND.patterns)

    assert [code for code in CODES if not written(code)] == []


def test_every_pattern_of_codes_is_catalogued() -> None:
    """An f-string makes codes the reading cannot list: each must make some catalogued
    code, and `citation-{outcome}` (verify's stale citations) every one of them."""
    assert all(any(re.fullmatch(p, c) for c in CODES) for p in FOUND.patterns), FOUND.patterns
    stale = [name for name in OUTCOMES if Outcome(None, name).stale]  # type: ignore[arg-type]
    assert {f"citation-{name}" for name in stale} <= set(CODES)


def test_severities_written_at_the_call_are_the_catalogues() -> None:
    wrong = {
        code: sorted(severities - set(CODES[code].severities))
        for code, severities in FOUND.severities.items()
        if code in CODES and severities - set(CODES[code].severities)
    }
    assert wrong == {}


def test_every_code_has_one_line_of_meaning() -> None:
    for code, entry in CODES.items():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", code), code
        assert entry.meaning and "\n" not in entry.meaning and len(entry.meaning) <= 90, code
        assert entry.severities and set(entry.severities) <= {"error", "warning", "info"}, code


def test_the_docs_list_every_code() -> None:
    """docs/diagnostics.md: one table row per code, as the catalogue says it."""
    rows = re.findall(r"^\| `([^`]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", DOCS.read_text(), re.M)
    documented = {
        code: (sev.strip(), site.strip(), meaning.strip()) for code, sev, site, meaning in rows
    }
    expected = {
        code: (" or ".join(c.severities), c.site or " or ".join(c.severities), c.meaning)
        for code, c in CODES.items()
    }
    assert documented == expected


def test_a_site_reports_each_code_at_its_catalogued_level() -> None:
    def level(code: str, severity: str = "error") -> str:
        return site_level(
            Diagnostic(
                file="f",
                line=1,
                col=1,
                severity=severity,
                id="x",
                code=code,
                message="m",  # type: ignore[arg-type]
            )
        )

    assert level("pending-reference", "warning") == "info"
    assert level("source-unavailable") == "info"
    assert level("citation-moved") == "warning"
    assert level("checkout-lacks-pin") == "error"
    assert level("no-evidence", "warning") == "warning"


def test_the_json_report_carries_each_diagnostics_code() -> None:
    diagnostic = Diagnostic(
        file="registers/a.yaml",
        line=3,
        col=5,
        severity="error",
        id="A-1",
        code="bad-date",
        message="m",
    )
    data = json.loads(report.format_report([diagnostic], "json"))
    assert data["diagnostics"][0]["code"] == "bad-date"

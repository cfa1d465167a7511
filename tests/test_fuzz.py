"""Hostile input never costs a traceback, a hang or an odd exit code.

Hypothesis mutates a valid register set (a register file, sources.yaml) and an import
page, with the kinds of edits a pull request can make (text cut, lines doubled, swapped,
hostile values spliced in: escape sequences, bidi controls, nested brackets, 5,000-digit
numbers, non-canonical paths, YAML tags, anchors), then runs `check`, `verify --offline`,
`export`, `render --offline` and `import` on it. Each run must end within its time bound,
with exit 0, 1 or 2, and print no traceback and no `internal error`. Bounded (a few dozen
examples) so that the suite stays quick; the named cases the red-team pass found are run
every time."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tiers
from compat_register.cli import main

CASES = Path(__file__).parent / "cases"
PAGE = (Path(__file__).parent / "pages" / "tiny.md").read_text("utf-8")
SECONDS = 120.0
"""Seconds after which a command counts as hung (it fails the test): far above the second or
so one takes on these small sets, loaded machine included; speed is bench/'s to measure."""

HOSTILE = [
    "\x1b]0;owned\x07",
    "\x1b]52;c;aGk=\x07",
    "\x9b2J",
    "\u202e\u2066",
    "\x00",
    "\ufeff",
    "\t",
    "\r\n",
    "[" * 300,
    "[" * 50 + "]" * 50,
    "![a](https://e.org/p.gif)",
    "1" * 5000,
    "META-" + "9" * 5000,
    "a" * 300,
    "./internal/a.go:1",
    "internal//a.go:1",
    "internal/a.go:99999999999",
    "internal/a.go:0",
    "../x:1",
    "&anchor x",
    "*anchor",
    "!!python/object:os.system",
    "{",
    "[",
    ": :",
    "- - -",
    "'",
    '"',
    "~",
    "null",
    "? x",
    "%",
    "%0A::error::x",
    "<script>x</script>",
    "`" * 20,
    "-1",
    "1e999",
    "2026-13-45",
]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """`text` after one to three edits a hostile pull request could make."""
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        edit = draw(st.sampled_from(["splice", "replace", "cut", "double", "swap", "chars"]))
        if edit == "splice":
            line = lines[at]
            col = draw(st.integers(0, len(line)))
            lines[at] = line[:col] + draw(st.sampled_from(HOSTILE)) + line[col:]
        elif edit == "replace" and ":" in lines[at]:
            key = lines[at].split(":", 1)[0]
            lines[at] = f"{key}: {draw(st.sampled_from(HOSTILE))}"
        elif edit == "cut":
            del lines[at : at + draw(st.integers(1, 4))]
        elif edit == "double":
            lines.insert(at, lines[at])
        elif edit == "swap" and len(lines) > 1:
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif edit == "chars":
            lines[at] = draw(st.text(min_size=0, max_size=40))
        text = "\n".join(lines)
    return text


def project(root: Path, changed: dict[str, str]) -> Path:
    registers = root / "registers"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(CASES / "base", registers)
    (root / "page.md").write_text(PAGE, "utf-8")
    for name, text in changed.items():
        (root / name).write_text(text, "utf-8", errors="surrogatepass")
    return registers


def bounded(args: list[str]) -> Result:
    """Run `register ARGS` in-process; fail on a traceback, a hang or an odd exit code."""
    found: list[Result] = []
    thread = threading.Thread(
        target=lambda: found.append(CliRunner().invoke(main, args)), daemon=True
    )
    thread.start()
    thread.join(SECONDS)
    assert found, f"register {' '.join(args[:1])} still running after {SECONDS} s"
    result = found[0]
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.output, result.output
    assert "internal error" not in result.output, result.output
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    return result


def run_all(root: Path) -> None:
    registers = str(root / "registers")
    bounded(["check", "--registers", registers])
    bounded(["verify", "--registers", registers, "--offline", "--format", "github"])
    bounded(["export", "--registers", registers])
    bounded(["import", "--registers", registers, "--dry-run", str(root / "page.md")])
    out = str(root / "site")
    bounded(["render", "--registers", registers, "--offline", "--no-history", "--out", out])


FUZZ = settings(
    max_examples=tiers.examples(25),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
BASE = {name: (CASES / "base" / name).read_text("utf-8") for name in ("meta.yaml", "sources.yaml")}


@FUZZ
@given(st.sampled_from(["registers/meta.yaml", "registers/sources.yaml", "page.md"]), st.data())
def test_mutated_inputs_end_in_one_located_report(
    tmp_path: Path, name: str, data: st.DataObject
) -> None:
    original = PAGE if name == "page.md" else BASE[Path(name).name]
    text = data.draw(mutated(original))
    root = tmp_path / "fuzz"
    project(root, {name: text})
    run_all(root)


@pytest.mark.parametrize(
    ("name", "old", "new"),
    [
        ("meta.yaml", "id: META-01", "id: META-" + "1" * 5000),
        ("sources.yaml", "  mcpx:", "  " + "a" * 300 + ":"),
        ("sources.yaml", "  spec:", "  'bad alias!':"),
        ("sources.yaml", "  mcpx:", "  'mcpx ../../x':"),
    ],
)
def test_what_the_red_team_found_is_located(tmp_path: Path, name: str, old: str, new: str) -> None:
    assert old in BASE[name]
    root = tmp_path / "case"
    project(root, {f"registers/{name}": BASE[name].replace(old, new, 1)})
    run_all(root)
    result = bounded(["verify", "--registers", str(root / "registers")])
    assert result.exit_code == 1 and f"registers/{name}:" in result.output

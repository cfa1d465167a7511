"""Every value reaches its channel escaped for it: a GitHub annotation, a terminal line, a
JSON string. A register set comes from a pull request; none of it may write a workflow
command of its choosing, set a terminal's title or write its clipboard."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from compat_register.cli import main
from compat_register.model import display
from compat_register.model.diagnostic import Diagnostic
from compat_register.reporting.report import as_github, github_property
from registerfiles import register_head

CASES = Path(__file__).parent.parent / "cases"
OSC = "\x1b]52;c;aGk=\x07"  # OSC 52: write the clipboard
FORGED = "x\n::warning file=forged.yaml::owned,:"


def registers_with(tmp_path: Path, name: str, text: str) -> Path:
    registers = tmp_path / "registers"
    shutil.copytree(CASES / "base", registers)
    (registers / name).write_text(text, "utf-8")
    return registers


def run(args: list[str], stream: str = "output") -> str:
    result = CliRunner().invoke(main, args)
    assert "Traceback" not in result.output
    return str(getattr(result, stream))


def test_a_file_name_cannot_forge_a_workflow_command(tmp_path: Path) -> None:
    registers = registers_with(tmp_path, f"{FORGED}.yaml", "title: [\n")
    out = run(["check", "--registers", str(registers), "--format", "github"])
    [annotation, summary] = out.splitlines()
    assert annotation.startswith("::error file=")
    assert "file=" + github_property(str(registers / FORGED)) in annotation
    assert "%0A%3A%3Awarning file=forged.yaml%3A%3Aowned%2C%3A.yaml," in annotation
    assert summary == "1 errors, 0 warnings"


def test_github_escapes_as_its_toolkit_does() -> None:
    assert github_property("a%b\r\nc:d,e") == "a%25b%0D%0Ac%3Ad%2Ce"
    d = Diagnostic(
        file="f,1:2.yaml",
        line=3,
        col=4,
        severity="warning",
        id="X-01",
        code="c",
        message="100% of\nit: a, b\x1b",
    )
    expected = "::warning file=f%2C1%3A2.yaml,line=3,col=4::X-01: 100%25 of%0Ait: a, b\\x1b"
    assert as_github(d) == expected


def test_escape_sequences_and_bidi_controls_are_shown_never_obeyed(tmp_path: Path) -> None:
    registers = registers_with(tmp_path, f"{OSC}\u202e.yaml", "title: [\n")
    out = run(["check", "--registers", str(registers)])
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    assert "\\x1b]52;c;aGk=\\x07\\u202e.yaml:2:1: error: " in out


def test_json_escapes_every_control(tmp_path: Path) -> None:
    title = f"T{OSC}\x9b2J\u2066"
    text = (CASES / "base" / "meta.yaml").read_text("utf-8")
    text = text.replace(text.splitlines()[0], f"title: {json.dumps(title)}", 1)
    registers = registers_with(tmp_path, "meta.yaml", text)
    out = run(["export", "--registers", str(registers)], "stdout")
    assert not any(char in out for char in "\x1b\x07\x9b\u2066")
    [register] = json.loads(out)["registers"]
    assert register["title"] == title  # the value itself is unchanged


def test_a_line_keeps_tabs_and_shows_every_other_control() -> None:
    assert display.line("a\tb\nc\rd\x00\x7f\x85") == "a\tb\\nc\\rd\\x00\\x7f\\x85"
    assert display.lines("one\ntwo\x1b[2J") == "one\ntwo\\x1b[2J"


def test_a_bidi_control_in_prose_is_a_located_warning(tmp_path: Path) -> None:
    entry = """  - id: T-01
    title: Entry
    what: "access = \\"user\\u202e \\u2066// admin\\u2069\\u2066\\""
    status: {state: missing}
    value: {level: low}
    effort: {size: S}
    risk: None.
"""
    registers = registers_with(tmp_path, "t.yaml", register_head(subject="mcpx") + entry)
    out = run(["check", "--registers", str(registers)])
    assert (
        "t.yaml:12:11: warning: T-01: bidi control character U+202E, U+2066, U+2069 in prose" in out
    ), out


def test_a_rewritten_token_s_line_shows_what_its_file_name_holds() -> None:
    from compat_register.rewriting.edit import Change

    change = Change(f"{OSC}\n.yaml", 3, 4, "T-01", "a.go:1", "a.go:2")
    assert change.as_text() == "\\x1b]52;c;aGk=\\x07\\n.yaml:3:4: fixed: T-01: a.go:1 -> a.go:2"

"""`register import`: hand-written pages in, register files in the house style out.

Bad pages are folders under cases/import/: `page.md` and `expected.txt`, the exact lines
`register import page.md` prints (the closing `nothing written` line dropped), run beside
a copy of cases/base/ as the registers folder.

    REGISTER_UPDATE_GOLDEN=1 pytest tests/test_import.py

rewrites every expected.txt from the current output; read the diff before committing it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from compat_register.reading import loader, schema
from conftest import RunLine

TESTS = Path(__file__).parent.parent
PAGES = TESTS / "pages"
CASES = TESTS / "cases" / "import"
BAD = sorted(p.name for p in CASES.iterdir() if p.is_dir())
REPO = TESTS.parent
UPDATE = os.environ.get("REGISTER_UPDATE_GOLDEN") == "1"
UNSTATED = ["META-02", "META-03", "META-04", "META-06", "META-07", "META-08", "META-09"]
UNSTATED += ["META-10", "META-11"]


def load(path: Path) -> Any:
    return loader.parse(path.read_text(encoding="utf-8"), str(path), schema.integer_keys()).data


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding `registers/` with the project's sources.yaml and no register."""
    (tmp_path / "registers").mkdir()
    shutil.copy(REPO / "registers" / "sources.yaml", tmp_path / "registers")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("page", ["meta.txt", "meta.md"])
def test_the_seed_imports_as_registers_meta_yaml(page: str, workdir: Path, run_line: RunLine):
    """Plain text and Markdown alike: every field the page holds, as registers/meta.yaml
    has it; the states the page leaves implicit are not guessed."""
    result = run_line(["import", str(PAGES / page)])
    assert result.exit_code == 0, result.output
    imported, expected = load(workdir / "registers/meta.yaml"), load(REPO / "registers/meta.yaml")
    assert [e["id"] for e in imported["entries"]] == [e["id"] for e in expected["entries"]]
    for got, want in zip(imported["entries"], expected["entries"], strict=True):
        if got["id"] in UNSTATED:
            assert "state" not in got["status"]
            want = {**want, "status": {k: v for k, v in want["status"].items() if k != "state"}}
        # The page says neither: revisions are read from Where by hand, concepts are the
        # registers' own (docs/concepts.md).
        assert got == {k: v for k, v in want.items() if k not in ("revisions", "concept")}
    assert {k: v for k, v in imported.items() if k != "entries"} == {
        k: v for k, v in expected.items() if k != "entries"
    }


def test_the_seed_is_written_in_the_house_style(workdir: Path, run_line: RunLine) -> None:
    """Byte for byte registers/meta.yaml, but for the state lines (and what says why)."""
    run_line(["import", str(PAGES / "meta.txt")])

    def unstated(text: str) -> list[str]:
        return [line for line in text.splitlines() if "state" not in line and "#   " not in line]

    written = (workdir / "registers/meta.yaml").read_text(encoding="utf-8")
    expected = without_revisions((REPO / "registers/meta.yaml").read_text("utf-8"))
    assert unstated(written) == unstated(expected)
    assert '      state: done   # the page: "Effort. S — done."' in written.splitlines()


def without_revisions(text: str) -> str:
    """registers/meta.yaml without its `revisions` and the comments saying why: they were
    read from each entry's Where by hand, and the page has no revisions of its own."""
    kept: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("    concept: "):
            continue  # the page names no concept
        if line.startswith("    revisions: "):
            while kept and kept[-1].startswith("    # "):
                kept.pop()
        elif not line.startswith("    # No revisions"):
            kept.append(line)
    return "".join(kept)


def test_the_report_lists_what_check_then_reports(workdir: Path, run_line: RunLine) -> None:
    result = run_line(["import", str(PAGES / "meta.txt")])
    listed = re.findall(
        r"^  (registers/meta\.yaml:\d+:\d+): (META-\d+): needs a state", result.stdout, re.M
    )
    assert [entry for _, entry in listed] == UNSTATED
    assert result.stdout.splitlines()[-1] == (
        "wrote 1 register file; 9 entries need a state (above): register check fails until given"
    )
    checked = run_line(["check"])
    errors = re.findall(r"^(\S+): error: (\S+): (.*)$", checked.stdout, re.M)
    assert [(where, entry) for where, entry, _ in errors] == listed
    assert {message for _, _, message in errors} == {"missing required field 'state' in 'status'"}


def test_with_its_states_given_the_import_checks_clean(workdir: Path, run_line: RunLine) -> None:
    run_line(["import", str(PAGES / "meta.md")])
    target = workdir / "registers/meta.yaml"
    states = {e["id"]: e["status"]["state"] for e in load(REPO / "registers/meta.yaml")["entries"]}
    text = target.read_text(encoding="utf-8")
    for entry in UNSTATED:
        start = text.index(f"id: {entry}\n")
        comment = text.index("      # state: the page does not say", start)
        end = text.index("      note:", comment)
        text = text[:comment] + f"      state: {states[entry]}\n" + text[end:]
    target.write_text(text, encoding="utf-8")
    checked = run_line(["check"])
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.splitlines()[-1] == "0 errors, 12 warnings"


def test_a_page_with_every_field_and_a_second_entry(workdir: Path, run_line: RunLine) -> None:
    result = run_line(["import", str(PAGES / "tiny.md")])
    assert result.exit_code == 0, result.output
    data = load(workdir / "registers/tiny.yaml")
    assert data["entries"][1] == {
        "id": "TINY-02",
        "title": "Second",
        "what": "More.",
        "status": {"state": "partial"},
        "value": {"level": "med", "note": "some."},
        "effort": {"size": "M", "note": "a note."},
        "risk": "Low.",
        "sources": ["internal/b.go:3-4 “quoted; with a semicolon”"],
    }
    assert data["summary"] == "A tiny summary."
    assert run_line(["check"]).exit_code == 0


@pytest.mark.parametrize("name", BAD)
def test_a_bad_page_is_one_located_error(name: str, tmp_path: Path, run_line: RunLine, monkeypatch):
    shutil.copytree(TESTS / "cases" / "base", tmp_path / "registers")
    shutil.copy(CASES / name / "page.md", tmp_path / "page.md")
    monkeypatch.chdir(tmp_path)
    result = run_line(["import", "page.md"])
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("nothing written: ")
    golden = CASES / name / "expected.txt"
    if UPDATE:
        golden.write_text("".join(f"{line}\n" for line in lines[:-1]), encoding="utf-8")
    assert lines[:-1] == golden.read_text(encoding="utf-8").splitlines()
    assert all(re.match(r"page\.md:\d+:\d+: error: ", line) for line in lines[:-1])
    assert sorted(p.name for p in (tmp_path / "registers").iterdir()) == [
        "meta.yaml",
        "sources.yaml",
    ]


def test_enough_kinds_of_bad_page() -> None:
    assert len(BAD) >= 15


def test_nothing_is_written_when_one_page_of_several_fails(workdir: Path, run_line: RunLine):
    bad = workdir / "bad.md"
    bad.write_text((PAGES / "tiny.md").read_text("utf-8").replace("+ low.", "+ lots."), "utf-8")
    result = run_line(["import", str(PAGES / "meta.txt"), "bad.md"])
    assert result.exit_code == 1
    assert "bad.md:17:22: error: TINY-01: expected '+ LEVEL.'" in result.stdout
    assert sorted(p.name for p in (workdir / "registers").iterdir()) == ["sources.yaml"]


def test_a_failed_write_leaves_every_file_as_it_was(
    workdir: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    (workdir / "registers/tiny.yaml").write_text("old\n", encoding="utf-8")
    real = os.replace
    calls: list[object] = []

    def failing(source: object, target: object) -> None:
        calls.append(target)
        if len(calls) == 2:
            raise OSError(28, "No space left on device", str(target))
        real(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", failing)
    result = run_line(["import", "--force", str(PAGES / "meta.txt"), str(PAGES / "tiny.md")])
    assert result.exit_code == 1
    assert "cannot write" in result.output and "No space left on device" in result.output
    assert (workdir / "registers/tiny.yaml").read_text(encoding="utf-8") == "old\n"
    assert not (workdir / "registers/meta.yaml").exists()
    assert sorted(p.name for p in (workdir / "registers").iterdir()) == [
        "sources.yaml",
        "tiny.yaml",
    ]


def test_an_existing_file_is_overwritten_only_with_force(workdir: Path, run_line: RunLine):
    target = workdir / "registers/tiny.yaml"
    target.write_text("kept\n", encoding="utf-8")
    refused = run_line(["import", str(PAGES / "tiny.md")])
    assert refused.exit_code == 1
    assert f"{PAGES / 'tiny.md'}:1:1: error: page: registers/tiny.yaml exists" in refused.stdout
    assert target.read_text(encoding="utf-8") == "kept\n"
    assert run_line(["import", "--force", str(PAGES / "tiny.md")]).exit_code == 0
    assert load(target)["title"] == "Tiny"


def test_name_and_dry_run(workdir: Path, run_line: RunLine) -> None:
    dry = run_line(["import", "--dry-run", "--name", "small", str(PAGES / "tiny.md")])
    assert dry.exit_code == 0, dry.output
    assert "-> registers/small.yaml: 2 entries, 2 states from the page" in dry.stdout
    assert dry.stdout.splitlines()[-1] == "would write (--dry-run) 1 register file"
    assert not (workdir / "registers/small.yaml").exists()
    assert run_line(["import", "--name", "small", str(PAGES / "tiny.md")]).exit_code == 0
    assert load(workdir / "registers/small.yaml")["prefix"] == "TINY"
    twice = run_line(["import", "--name", "x", str(PAGES / "tiny.md"), str(PAGES / "meta.txt")])
    assert twice.exit_code == 2


def test_two_pages_cannot_share_ids(workdir: Path, run_line: RunLine) -> None:
    copy = workdir / "copy.md"
    copy.write_text((PAGES / "tiny.md").read_text("utf-8").replace("# Tiny", "# Copy"), "utf-8")
    result = run_line(["import", str(PAGES / "tiny.md"), "copy.md"])
    assert result.exit_code == 1
    assert "copy.md:13:4: error: TINY-01: prefix TINY is the prefix of registers/tiny.yaml" in (
        result.stdout
    )
    assert (
        "copy.md:22:4: error: TINY-02: TINY-02 is already in registers/tiny.yaml" in result.stdout
    )


def test_a_commit_other_than_the_pin_is_a_warning(workdir: Path, run_line: RunLine) -> None:
    page = workdir / "page.md"
    page.write_text((PAGES / "tiny.md").read_text("utf-8").replace("05c78b2", "05c78b3"), "utf-8")
    result = run_line(["import", "page.md"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        "page.md:11:16: warning: page: the page's status column is at 05c78b3, sources.yaml "
        "pins mcpx at 05c78b2"
    )


def test_json_report(workdir: Path, run_line: RunLine) -> None:
    result = run_line(["import", "--format", "json", str(PAGES / "meta.txt")])
    report = json.loads(result.stdout)
    assert report["written"] is True
    (register,) = report["registers"]
    assert register["file"] == "registers/meta.yaml" and register["entries"] == 11
    assert register["states"] == {"META-01": "Effort. S — done.", "META-05": "Effort. S — done."}
    assert [u["id"] for u in register["unstated"]] == UNSTATED
    assert register["unstated"][0]["subject"].startswith("mcpx @ 05c78b2. Defines no _meta keys")


def test_an_unreadable_page_is_reported(workdir: Path, run_line: RunLine) -> None:
    (workdir / "latin1.md").write_bytes("caf\xe9".encode("latin-1"))
    result = run_line(["import", "latin1.md", "missing.md"])
    assert result.exit_code == 1
    assert "latin1.md:1:1: error: page: cannot read the page: not UTF-8 text" in result.stdout
    assert "missing.md:1:1: error: page: cannot read the page: No such file or directory" in (
        result.stdout
    )


def test_a_page_with_a_byte_order_mark_and_crlf_lines(workdir: Path, run_line: RunLine) -> None:
    text = (PAGES / "meta.txt").read_text(encoding="utf-8")
    (workdir / "dos.txt").write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    assert run_line(["import", "--name", "dos", "dos.txt"]).exit_code == 0
    unix = workdir / "unix"
    shutil.copytree(workdir / "registers", unix, ignore=shutil.ignore_patterns("dos.yaml"))
    assert run_line(["import", "--registers", "unix", str(PAGES / "meta.txt")]).exit_code == 0
    assert load(workdir / "registers/dos.yaml") == load(unix / "meta.yaml")

"""Review stamps (citations.lock) and `register verify --against`, on real git repositories."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import builder
from compat_register.cli import main
from compat_register.verifying.stamps import Key, carry, digest, format_lock, parse
from gitrepo import GitRepo
from registerfiles import register_head

CODE = "".join(f"line {n}\n" for n in range(1, 11))

ENTRY = """  - id: {id}
    title: Entry
    what: Something.
    status: {{state: done, note: 'see src/a.go:{prose}'}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: None.
    sources: [{sources}]
"""

HEAD = register_head()


def register(*entries: tuple[str, int, str]) -> str:
    return HEAD + "".join(ENTRY.format(id=i, prose=p, sources=s) for i, p, s in entries)


ENTRIES = [("T-01", 2, "src/a.go:5-6, src/a.go:2"), ("T-02", 8, "src/a.go:8")]


@pytest.fixture
def one_source(tmp_path: Path) -> tuple[Path, GitRepo, dict[str, str]]:
    repo, first = builder.source(tmp_path / "up", {"src/a.go": CODE})
    sources = builder.up_sources(first[:7], path="../up")
    registers = builder.registers(tmp_path / "registers", sources, {"t.yaml": register(*ENTRIES)})
    return registers, repo, {}


def run(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, env=env or {})
    assert "Traceback" not in result.output, result.output
    return result.exit_code, result.output


def verify_json(registers: Path, *more: str) -> dict:
    _, out = run(["verify", "--registers", str(registers), "--format", "json", *more])
    return json.loads(out)


def test_stamp_writes_a_sorted_stable_lock(
    one_source: tuple[Path, GitRepo, dict[str, str]],
) -> None:
    registers, _, _ = one_source
    code, out = run(["stamp", "--registers", str(registers)])
    assert code == 0, out
    assert out.strip() == "stamped 5 citations of 2 entries; citations.lock written"
    lock = (registers / "citations.lock").read_text(encoding="utf-8")
    body = [line for line in lock.splitlines() if not line.startswith("#")]
    assert [line.rsplit(" ", 1)[0] for line in body] == [
        "T-01 up src/a.go:2",
        "T-01 up src/a.go:2#2",  # listed and in prose: the second citation of the same line
        "T-01 up src/a.go:5-6",
        "T-02 up src/a.go:8",
        "T-02 up src/a.go:8#2",
    ]
    assert body[0].endswith(f" {digest(['line 2'], 'code')}")
    assert digest(["line 2"], "code").startswith("v2:sha256:")
    assert lock.startswith("# citations.lock: review stamps")
    code, out = run(["stamp", "--registers", str(registers)])
    assert out.strip() == "stamped 5 citations of 2 entries; citations.lock unchanged"
    assert (registers / "citations.lock").read_text(encoding="utf-8") == lock
    report = verify_json(registers)
    assert (report["summary"]["ok"], report["summary"]["changed"]) == (5, 0)
    assert report["summary"]["unstamped"] == 0


def test_without_a_lock_nothing_is_unstamped(
    one_source: tuple[Path, GitRepo, dict[str, str]],
) -> None:
    registers, _, _ = one_source
    report = verify_json(registers)
    assert report["summary"]["ok"] == 5
    assert (report["summary"]["changed"], report["summary"]["unstamped"]) == (0, 0)


def test_a_new_citation_is_unstamped(one_source: tuple[Path, GitRepo, dict[str, str]]) -> None:
    registers, _, _ = one_source
    run(["stamp", "--registers", str(registers)])
    entries = [*ENTRIES, ("T-03", 9, "src/a.go:9")]
    (registers / "t.yaml").write_text(register(*entries), encoding="utf-8")
    code, out = run(["verify", "--registers", str(registers)])
    assert code == 0, out  # a warning
    assert "warning: T-03: src/a.go:9 has no review stamp in citations.lock" in out
    assert out.splitlines()[-1].endswith("0 changed, 2 unstamped, 0 errors, 2 warnings")
    # the counts add up to the citations: an unstamped one is counted there, not under ok
    report = verify_json(registers)
    summary, cited = report["summary"], len(report["citations"])
    outcomes = {name: n for name, n in summary.items() if name not in ("errors", "warnings")}
    assert summary["citations"] == cited == sum(outcomes.values()) - cited
    assert out.splitlines()[-1].startswith(f"{cited} citations: {summary['ok']} ok, ")
    code, _ = run(["verify", "--registers", str(registers), "--strict"])
    assert code == 1
    code, out = run(["stamp", "--registers", str(registers), "T-03"])
    assert out.strip() == "stamped 2 citations of 1 entry; citations.lock written"
    assert verify_json(registers)["summary"]["unstamped"] == 0


def test_an_edited_line_is_changed_after_the_pin_moves(
    one_source: tuple[Path, GitRepo, dict[str, str]],
) -> None:
    registers, repo, _ = one_source
    run(["stamp", "--registers", str(registers)])
    repo.write("src/a.go", CODE.replace("line 8\n", "line eight\n"))
    second = repo.commit()
    builder.edit_sources(
        registers, f"commit: {repo.git('rev-parse', 'HEAD~1')[:7]}", f"commit: {second}"
    )
    code, out = run(["verify", "--registers", str(registers)])
    assert code == 1
    # Moved by hand: the cause is said once, at the source, counting what it affects.
    assert "error: up: commit moved from " in out and "(2 citations of up fail" in out
    assert "error: T-02:" not in out
    assert out.splitlines()[-1].startswith("5 citations: 3 ok, 0 moved")
    assert "2 changed, 0 unstamped" in out.splitlines()[-1]
    code, out = run(["stamp", "--registers", str(registers), "T-02"])
    assert code == 0
    assert verify_json(registers)["summary"]["changed"] == 0


def test_bump_carries_stamps_and_keeps_a_changed_ones_old_hash(
    one_source: tuple[Path, GitRepo, dict[str, str]],
) -> None:
    registers, repo, _ = one_source
    run(["stamp", "--registers", str(registers)])
    repo.write("src/a.go", "new 1\nnew 2\n" + CODE.replace("line 8\n", "line eight\n"))
    repo.commit()
    code, out = run(["bump", "--registers", str(registers), "up"])
    assert code == 1
    assert "changed: T-02: src/a.go:8 -> 10: the cited lines were edited" in out
    lock = (registers / "citations.lock").read_text(encoding="utf-8")
    assert "T-01 up src/a.go:7-8 v2:sha256:" in lock and "T-02 up src/a.go:10 v2:sha256:" in lock
    assert "src/a.go:8 " not in lock and "src/a.go:5-6 " not in lock
    report = verify_json(registers)
    outcomes = {(c["entry"], c["text"]): c["outcome"] for c in report["citations"]}
    assert outcomes[("T-01", "src/a.go:7-8")] == "ok"  # re-anchored: its stamp came along
    assert outcomes[("T-02", "src/a.go:10")] == "changed"  # until someone looks again
    assert "wrote" in out and "citations.lock" in out


def test_stamp_refuses_a_citation_that_does_not_read_as_cited(
    one_source: tuple[Path, GitRepo, dict[str, str]],
) -> None:
    registers, _, _ = one_source
    entries = [("T-01", 2, "src/a.go:2"), ("T-02", 8, "src/a.go:80")]
    (registers / "t.yaml").write_text(register(*entries), encoding="utf-8")
    code, out = run(["stamp", "--registers", str(registers)])
    assert code == 1
    assert "error: T-02: not stamped (out-of-range)" in out
    assert "T-02" in (registers / "citations.lock").read_text(encoding="utf-8")  # the prose one
    code, out = run(["stamp", "--registers", str(registers), "T-99"])
    assert code == 2 and "no citations of T-99" in out


def test_lock_format_round_trips_awkward_paths() -> None:
    stamps = {
        Key("A-01", "up", "dir/sp ace#1%.md", 3, 4, 2): "v2:sha256:0123456789abcdef",
        Key("A-01", "up", "a.md", 10, 10): "v2:sha256:fedcba9876543210",
        Key("A-01", "up", "a.md", 9, 9): "v2:sha256:0000000000000000",
    }
    text = format_lock(stamps)
    assert "A-01 up dir/sp%20ace%231%25.md:3-4#2 v2:sha256:0123456789abcdef" in text
    assert "A-01 up a.md:9 v2:sha256:0000000000000000" in text
    assert text.index("a.md:9 ") < text.index("a.md:10 ")
    assert parse(text, "citations.lock") == (stamps, [])
    _, problems = parse(text + "garbage\n", "citations.lock")
    assert [(p.line, p.code) for p in problems] == [(len(text.splitlines()) + 1, "bad-stamp")]


# --- verify --against: a register kept in the implementation's own repository -----------


@pytest.fixture
def inside(tmp_path: Path) -> tuple[GitRepo, Path]:
    """One repository holding the code and, in registers/, the register citing it."""
    repo, first = builder.source(tmp_path / "impl", {"src/a.go": CODE}, "code")
    sources = builder.up_sources(first[:7], path="..")
    registers = builder.registers(repo.root / "registers", sources, {"t.yaml": register(*ENTRIES)})
    repo.commit("register")
    return repo, registers


def test_against_head_reports_what_a_change_makes_stale(inside: tuple[GitRepo, Path]) -> None:
    repo, registers = inside
    repo.write(
        "src/a.go", "// new\n" + CODE.replace("line 5\n", "line five\n").replace("line 8\n", "")
    )
    repo.commit("a pull request")
    code, out = run(["verify", "--registers", str(registers)])
    assert code == 0, out  # at the pin all is well
    code, out = run(["verify", "--registers", str(registers), "--against", "up=HEAD"])
    assert code == 1
    lines = out.splitlines()
    head = repo.git("rev-parse", "HEAD")[:7]
    assert lines[-4] == f"against up HEAD ({head}): this change makes 3 register citations stale"
    t = registers / "t.yaml"
    assert lines[-3].startswith(f"  {t}:17:")
    assert lines[-3].endswith(
        f"T-01: src/a.go:5-6: the cited lines were edited at up HEAD ({head}) (now 6-7)"
    )
    assert f"T-02: src/a.go:8: the cited lines were deleted at up HEAD ({head})" in lines[-2]
    assert f"T-02: src/a.go:8: the cited lines were deleted at up HEAD ({head})" in lines[-1]
    report = verify_json(registers, "--against", "up=main")
    assert report["against"]["commit"] == repo.git("rev-parse", "HEAD")
    assert [c["lines"] for c in report["against"]["stale"]] == [[5, 6], [8, 8], [8, 8]]
    assert report["summary"]["ok"] == 2  # line 2, re-anchored to 3, is still fine


def test_against_reads_hunks_of_files_git_calls_binary(inside: tuple[GitRepo, Path]) -> None:
    """`-diff` would turn the hunks into "Binary files ... differ": every citation carried."""
    repo, registers = inside
    repo.write(".gitattributes", "*.go -diff\n")
    repo.write("src/a.go", "// new\n" + CODE.replace("line 5\n", "line five\n"))
    repo.commit("a pull request")
    code, out = run(["verify", "--registers", str(registers), "--against", "up=HEAD"])
    assert code == 1
    assert "this change makes 1 register citation stale" in out
    assert "T-01: src/a.go:5-6: the cited lines were edited" in out.splitlines()[-1]


def test_against_a_harmless_change(inside: tuple[GitRepo, Path]) -> None:
    repo, registers = inside
    repo.write("src/a.go", "// new\n" + CODE)
    repo.commit("lines above")
    code, out = run(["verify", "--registers", str(registers), "--against", "up=HEAD"])
    assert code == 0, out
    assert "this change makes 0 register citations stale" in out


def test_against_needs_a_source_and_a_revision(inside: tuple[GitRepo, Path]) -> None:
    _, registers = inside
    for value, message in [
        ("up", "expected ALIAS=REV"),
        ("nope=HEAD", "no source 'nope'"),
        ("up=no-such-branch", "no such commit"),
        ("up=--output=x", "no such commit"),
    ]:
        code, out = run(["verify", "--registers", str(registers), "--against", value])
        assert code == 2, (value, out)
        assert message in out
    code, out = run(["verify", "--registers", str(registers), "--against", "up=HEAD", "--offline"])
    assert code == 2 and "needs that source's checkout" in out


def test_the_site_shows_changed_and_unstamped(
    one_source: tuple[Path, GitRepo, dict[str, str]],
) -> None:
    from compat_register import api
    from compat_register.site import renderer as render

    registers, repo, _ = one_source
    run(["stamp", "--registers", str(registers), "T-02"])
    result = api.verify_citations(registers)
    pages = render.Renderer(result.registers, result.outcomes).pages()
    health = pages["registers/health.md"]
    # T-01 cites src/a.go:2 under sources and again in prose: one row, both places.
    assert "## unstamped (2)" in health
    assert health.count("| `src/a.go:2` |") == 1
    assert re.search(r"t\.yaml:\d+</span>, <span class=\"reg-where\">[^<]*t\.yaml:\d+<", health)
    assert "reg-outcome--unstamped" in pages["registers/t.md"]
    repo.write("src/a.go", CODE.replace("line 8\n", "line eight\n"))
    repo.commit()
    run(["bump", "--registers", str(registers), "up"])
    result = api.verify_citations(registers)
    pages = render.Renderer(result.registers, result.outcomes).pages()
    assert "## changed (1)" in pages["registers/health.md"]  # T-02: listed and in prose
    assert "reg-outcome--changed" in pages["registers/t.md"]


def test_fix_carries_the_stamps_of_the_citations_it_moves(
    one_source: tuple[Path, GitRepo, dict[str, str]],
) -> None:
    registers, repo, _ = one_source
    entries = [("T-01", 2, "'src/a.go:5 “line 5”', src/a.go:2")]
    (registers / "t.yaml").write_text(register(*entries), encoding="utf-8")
    run(["stamp", "--registers", str(registers)])
    lock = registers / "citations.lock"  # an older lock, with no `# pin` lines: fix re-points
    lock.write_text(re.sub(r"(?m)^# pin .*\n", "", lock.read_text("utf-8")), "utf-8")
    repo.write("src/a.go", "new\n" + CODE)
    second = repo.commit()
    builder.edit_sources(
        registers, f"commit: {repo.git('rev-parse', 'HEAD~1')[:7]}", f"commit: {second}"
    )
    assert verify_json(registers)["summary"]["moved"] == 1
    code, out = run(["fix", "--registers", str(registers)])
    assert "src/a.go:5 -> src/a.go:6" in out
    lock = (registers / "citations.lock").read_text(encoding="utf-8")
    assert "T-01 up src/a.go:6 v2:sha256:" in lock and "src/a.go:5 " not in lock
    summary = verify_json(registers)["summary"]
    assert (summary["ok"], summary["unstamped"], summary["changed"]) == (1, 0, 2)


# --- fix keeps the stamps of lines two citations share (issue 18 item 9) -------------------


def test_fix_keeps_both_stamps_of_lines_a_note_and_a_source_cite(
    one_source: tuple[Path, GitRepo, dict[str, str]],
) -> None:
    """The status note and `sources:` cite one line (as the evidence rule encourages);
    the listed one, made stale by hand, comes first: fix puts it back, and its `#1` key is
    the one the note held before the fix."""
    registers, _, _ = one_source
    (registers / "t.yaml").write_text(register(("T-01", 5, "'src/a.go:5 “line 5”'")), "utf-8")
    assert run(["stamp", "--registers", str(registers)])[0] == 0
    lock = (registers / "citations.lock").read_text(encoding="utf-8")
    stale = (registers / "t.yaml").read_text("utf-8").replace("a.go:5 “", "a.go:4 “")
    (registers / "t.yaml").write_text(stale, encoding="utf-8")
    code, out = run(["fix", "--registers", str(registers)])
    assert "src/a.go:4 -> src/a.go:5" in out
    code, out = run(["verify", "--registers", str(registers), "--strict"])
    assert code == 0, out
    assert "no review stamp" not in out
    assert (registers / "citations.lock").read_text(encoding="utf-8") == lock


def test_carry_moves_each_stamp_with_its_citation_and_keeps_spare_ones() -> None:
    def key(line: int, n: int = 1, entry: str = "T-01") -> Key:
        return Key(entry, "up", "a.go", line, line, n)

    def place(line: int, entry: str = "T-01") -> tuple[str, str, str, int, int]:
        return (entry, "up", "a.go", line, line)

    # listed 4 (stale, unstamped) then note 5: the listed one goes back to 5, first
    old = {key(5): "v2:sha256:aaaaaaaaaaaaaaaa", key(5, 2): "v2:sha256:aaaaaaaaaaaaaaaa"}
    assert carry(old, [place(4), place(5)], [place(5), place(5)]) == old
    # one of two shared lines moves away: each keeps its own stamp
    old = {key(5): "v2:sha256:1111111111111111", key(5, 2): "v2:sha256:2222222222222222"}
    carried = carry(old, [place(5), place(5)], [place(6), place(5)])
    assert carried == {key(6): old[key(5)], key(5): old[key(5, 2)]}
    # a stamp of lines nobody cites stays, moved to a free occurrence when a citation arrives
    old = {key(5): "v2:sha256:1111111111111111", key(9): "v2:sha256:9999999999999999"}
    carried = carry(old, [place(5)], [place(9)])
    assert carried == {key(9): old[key(5)], key(9, 2): old[key(9)]}
    # a citation that did not move takes no stamp it never had
    old = {key(5, 2): "v2:sha256:2222222222222222"}
    assert carry(old, [place(5)], [place(5)]) == old
    # other entries' stamps are untouched
    other = {key(5, entry="T-02"): "v2:sha256:3333333333333333"}
    assert carry(other, [place(5)], [place(6)]) == other


def test_a_new_entrys_unstamped_citations_are_one_line(
    one_source: tuple[Path, GitRepo, dict[str, str]],
) -> None:
    """Root cause once: a new entry citing many lines is one warning with a count, not one
    per citation; --verbose and --format json list each."""
    registers, _, _ = one_source
    run(["stamp", "--registers", str(registers)])
    many = ", ".join(f"src/a.go:{n}" for n in range(1, 11))
    text = register(*ENTRIES, ("T-03", 3, many))
    (registers / "t.yaml").write_text(text, encoding="utf-8")
    code, out = run(["verify", "--registers", str(registers)])
    assert code == 0, out
    warnings = [line for line in out.splitlines() if ": warning: T-03: " in line]
    assert len(warnings) == 1, out
    assert warnings[0].endswith(
        "(and 10 more like it on T-03: --verbose lists them)"
    )  # ten listed, one in prose
    assert out.splitlines()[-1].endswith("11 unstamped, 0 errors, 11 warnings")
    code, out = run(["verify", "--registers", str(registers), "--verbose"])
    assert len([line for line in out.splitlines() if ": warning: T-03: " in line]) == 11
    report = verify_json(registers)
    assert len([d for d in report["diagnostics"] if d["id"] == "T-03"]) == 11

"""`register cite` on real git repositories: citations read at the pin, ready to paste,
and verified as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import assume, given
from hypothesis import strategies as st

import builder
from compat_register.citations.compare import KINDS, empty_quote, quoted
from compat_register.cli import main
from compat_register.sources.cite import LONGEST_QUOTE, shortened
from registerfiles import register_head

LONG = (
    "    return fmt.Errorf("
    + "x" * 30
    + " + strings.Repeat(a, b), with the NEEDLE far along the line)"
)
A_GO = f"""package a

func Call(ctx context.Context) error {{ // NEEDLE one
	m := map[string]any{{"key": 1}} // a: b #c
{LONG}
}}
"""


@pytest.fixture
def three_sources(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A registers folder with three sources, each a real repository, and the environment
    that names their checkouts."""
    files = {
        "internal/a.go": A_GO,
        "internal/sub/b.go": "package sub\n\n// NEEDLE two\n",
        "cmd/main.go": "package main // NEEDLE in a file mcpx does not claim\n",
        "internal/blob.bin": b"\0\0NEEDLE\0",
        "README.md": "# up\n\nNEEDLE in a claimed Markdown file\n",
    }
    up, up_sha = builder.source(tmp_path / "up", files, "one")
    up.write("internal/a.go", "changed after the pin: NEEDLE\n")
    up.commit("two")
    page = {"docs/specification/2026-07-28/basic/index.mdx": "\n\nImplementations **SHOULD NOT**\n"}
    spec, spec_sha = builder.source(tmp_path / "spec", page, "spec")
    code = {"packages/core/mcp.ts": "  sessionID: context.sessionID, // NEEDLE\n"}
    other, other_sha = builder.source(tmp_path / "other", code, "other")
    registers = builder.registers(
        tmp_path / "registers",
        f"""revisions: [2026-07-28]
sources:
  spec:
    title: spec
    repo: null
    commit: {spec_sha}
    claims: [{{glob: "20??-??-??/**", under: docs/specification/}}]
  mcpx: {{title: mcpx, repo: null, commit: {up_sha[:7]}, claims: [internal/**, "*.md"]}}
  v2: {{title: v2, repo: null, commit: {other_sha}}}
""",
    )
    env = {
        "REGISTER_SOURCE_MCPX": str(up.root),
        "REGISTER_SOURCE_SPEC": str(spec.root),
        "REGISTER_SOURCE_V2": str(other.root),
        "REGISTER_CACHE": str(tmp_path / "cache"),
    }
    return registers, env


def cite(project: tuple[Path, dict[str, str]], *args: str) -> Result:
    registers, env = project
    return CliRunner().invoke(main, ["cite", "--registers", str(registers), *args], env=env)


def test_lines_cited_at_the_pin(three_sources: tuple[Path, dict[str, str]]) -> None:
    result = cite(three_sources, "mcpx:internal/a.go:3")
    assert result.exit_code == 0, result.output
    assert (
        result.stdout == "internal/a.go:3 “func Call(ctx context.Context) error { // NEEDLE one”\n"
    )


def test_a_quote_yaml_would_misread_is_single_quoted(
    three_sources: tuple[Path, dict[str, str]],
) -> None:
    result = cite(three_sources, "internal/a.go:4")  # unprefixed: mcpx claims it
    assert result.stdout == """'internal/a.go:4 “m := map[string]any{"key": 1} // a: b #c”'\n"""


def test_a_claimed_path_is_written_unprefixed(three_sources: tuple[Path, dict[str, str]]) -> None:
    result = cite(three_sources, "spec:docs/specification/2026-07-28/basic/index.mdx:1-3")
    assert result.stdout == "2026-07-28/basic/index.mdx:1-3 “Implementations **SHOULD NOT**”\n"
    assert cite(three_sources, "v2:packages/core/mcp.ts:1").stdout == (
        "'v2:packages/core/mcp.ts:1 “sessionID: context.sessionID, // NEEDLE”'\n"
    )
    unclaimed = cite(three_sources, "mcpx:cmd/main.go:1")
    assert unclaimed.stdout.startswith("mcpx:cmd/main.go:1 “package main")


def test_a_long_line_is_shortened(three_sources: tuple[Path, dict[str, str]]) -> None:
    result = cite(three_sources, "--format", "json", "mcpx:internal/a.go:5")
    data = json.loads(result.stdout)
    assert data["quote"].endswith("…") and len(data["quote"]) <= LONGEST_QUOTE
    assert data["quote"].startswith("return fmt.Errorf(")
    assert data["lines"] == [5, 5] and data["source"] == "mcpx"


def test_grep_cites_every_hit_in_claimed_files(three_sources: tuple[Path, dict[str, str]]) -> None:
    result = cite(three_sources, "mcpx", "--grep", "NEEDLE")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:2] == [
        "README.md:3 “NEEDLE in a claimed Markdown file”",
        "internal/a.go:3 “func Call(ctx context.Context) error { // NEEDLE one”",
    ]
    assert lines[2].startswith("internal/a.go:5 “") and "NEEDLE" in lines[2]
    assert lines[3:] == [
        "internal/sub/b.go:3 “// NEEDLE two”",
        "4 of 4 hits in 3 files (4 claimed files of mcpx)",
    ]
    assert "cmd/main.go" not in result.stdout  # mcpx does not claim it
    assert "changed after the pin" not in result.stdout


def test_grep_is_case_sensitive_unless_told(three_sources: tuple[Path, dict[str, str]]) -> None:
    assert cite(three_sources, "mcpx", "--grep", "needle").exit_code == 1
    for flag in ("--ignore-case", "-i"):
        result = cite(three_sources, "mcpx", "--grep", "needle TWO", flag)
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines() == [
            "internal/sub/b.go:3 “// NEEDLE two”",
            "1 of 1 hit in 1 file (4 claimed files of mcpx)",
        ]
    alone = cite(three_sources, "mcpx:internal/a.go:3", "-i")
    assert alone.exit_code == 2 and "go with --grep" in alone.output


def test_grep_limit_path_and_json(three_sources: tuple[Path, dict[str, str]]) -> None:
    limited = cite(three_sources, "mcpx", "--grep", "NEEDLE", "--limit", "1")
    assert limited.stdout.splitlines()[-1] == (
        "1 of 4 hits in 3 files (4 claimed files of mcpx); --limit N shows more"
    )
    only = cite(
        three_sources, "mcpx", "--grep", "NEEDLE", "--path", "internal/sub/**", "--format", "json"
    )
    data = json.loads(only.stdout)
    assert [c["citation"] for c in data["citations"]] == ["internal/sub/b.go:3 “// NEEDLE two”"]
    assert (data["shown"], data["total"], data["files"], data["searched"]) == (1, 1, 1, 1)
    unclaimed = cite(three_sources, "v2", "--grep", "NEEDLE")  # no claims: every file, prefixed
    assert unclaimed.stdout.splitlines()[0] == (
        "'v2:packages/core/mcp.ts:1 “sessionID: context.sessionID, // NEEDLE”'"
    )
    none = cite(three_sources, "mcpx", "--grep", "not there")
    assert none.exit_code == 1
    assert none.stdout == "no line holds 'not there' in 4 claimed files of mcpx\n"


def test_the_citations_printed_verify(three_sources: tuple[Path, dict[str, str]]) -> None:
    """Pasted into a register as printed, every citation is `ok` at the pin."""
    registers, env = three_sources
    printed = [
        cite(three_sources, spec).stdout.strip()
        for spec in (
            "mcpx:internal/a.go:3",
            "internal/a.go:4",
            "mcpx:internal/a.go:5",
            "mcpx:internal/a.go:1-2",
            "spec:docs/specification/2026-07-28/basic/index.mdx:1-3",
            "v2:packages/core/mcp.ts:1",
        )
    ]
    printed += cite(three_sources, "mcpx", "--grep", "NEEDLE").stdout.splitlines()[:-1]
    sources = "".join(f"      - {line}\n" for line in printed)
    (registers / "up.yaml").write_text(
        register_head(subject="mcpx")
        + "  - id: T-01\n    title: t\n    what: w\n    status: {state: done}\n"
        + "    value: {level: low}\n    effort: {size: S}\n    risk: r\n"
        + f"    sources:\n{sources}",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["verify", "--registers", str(registers)], env=env)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1].startswith(
        f"{len(printed)} citations: {len(printed)} ok, 0 moved"
    )


def test_without_a_checkout_it_says_what_to_do(three_sources: tuple[Path, dict[str, str]]) -> None:
    registers, env = three_sources
    result = CliRunner().invoke(
        main,
        ["cite", "--registers", str(registers), "mcpx:internal/a.go:3"],
        env={**env, "REGISTER_SOURCE_MCPX": ""},
    )
    assert result.exit_code == 1
    assert result.output == (
        "Error: mcpx: no checkout to read (set REGISTER_SOURCE_MCPX to a clone, or "
        "add path: to sources.yaml)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["mcpx:internal/none.go:1"], "Error: mcpx: no file internal/none.go at the pin\n"),
        (["mcpx:internal/a.go:9-12"], "Error: mcpx: internal/a.go has 6 lines, not line 12\n"),
        (["cmd/main.go:1"], "Error: no source claims cmd/main.go: write it as ALIAS:PATH:LINE"),
        (["nope:a.go:1"], "Error: no source 'nope' in sources.yaml (sources: spec, mcpx, v2)\n"),
        (["mcpx:a.go:0"], "Error: line numbers start at 1 in 'mcpx:a.go:0'\n"),
        (["mcpx:internal/a.go:3 “x”"], "Error: 'mcpx:internal/a.go:3 “x”': name the lines only"),
        (
            ["nope", "--grep", "x"],
            "Error: no source 'nope' in sources.yaml (sources: spec, mcpx, v2), nor one "
            "claiming it: name the source, as in register cite ALIAS --grep TEXT --path 'nope'\n",
        ),
    ],
)
def test_bad_requests(
    three_sources: tuple[Path, dict[str, str]], args: list[str], message: str
) -> None:
    result = cite(three_sources, *args)
    assert result.exit_code == 1
    assert result.output.startswith(message)


def test_grep_in_a_claimed_path_searches_that_file_or_folder(
    three_sources: tuple[Path, dict[str, str]],
) -> None:
    """`register cite --grep _meta 2025-11-25/basic/index.mdx`: the path is resolved
    through the claims, as a citation's is, and only it is searched."""
    spec = cite(three_sources, "2026-07-28/basic/index.mdx", "--grep", "SHOULD")
    assert spec.exit_code == 0, spec.output
    assert spec.stdout.splitlines() == [
        "2026-07-28/basic/index.mdx:3 “Implementations **SHOULD NOT**”",
        "1 of 1 hit in 1 file (1 claimed file of spec)",
    ]
    folder = cite(three_sources, "internal/sub", "--grep", "NEEDLE", "--format", "json")
    assert [c["citation"] for c in json.loads(folder.stdout)["citations"]] == [
        "internal/sub/b.go:3 “// NEEDLE two”"
    ]
    unclaimed = cite(three_sources, "cmd/main.go", "--grep", "NEEDLE")
    assert (unclaimed.exit_code, unclaimed.output) == (
        1,
        "Error: no source 'cmd/main.go' in sources.yaml (sources: spec, mcpx, v2), nor one "
        "claiming it: name the source, as in register cite ALIAS --grep TEXT --path "
        "'cmd/main.go'\n",
    )


def test_usage_errors(three_sources: tuple[Path, dict[str, str]]) -> None:
    assert cite(three_sources, "mcpx:internal/a.go:3", "--limit", "3").exit_code == 2
    assert cite(three_sources, "mcpx:internal/a.go", "--grep", "x").exit_code == 2


def test_shortened_keeps_the_hit_in_view() -> None:
    line = "word " * 30 + "NEEDLE here " + "tail " * 5
    quote = shortened(line, line.index("NEEDLE"))
    assert "NEEDLE" in quote and len(quote) <= LONGEST_QUOTE
    assert shortened("  a \t b  ") == "a b"


@given(
    st.lists(
        st.text(st.sampled_from("ab_*`“”: #\t é"), min_size=1, max_size=12), min_size=1, max_size=30
    ),
    st.data(),
)
def test_a_shortened_quote_matches_its_line(words: list[str], data: st.DataObject) -> None:
    """What verify checks: the quote, by the rule of any file kind and without its `…`,
    is in the line (in code, at word edges)."""
    line = " ".join(words)
    quote = shortened(line, data.draw(st.integers(0, len(line))))
    assert len(quote) <= LONGEST_QUOTE
    assume(not empty_quote(quote))  # refused when read: `“_”` would match any line
    assert all(quoted(quote, [line], kind) for kind in KINDS)

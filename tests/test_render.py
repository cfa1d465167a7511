"""The renderer: golden Markdown pages, prose made safe, excerpts from a real checkout.

Golden cases live in tests/golden/<case>/: `registers/` is the input, `expected/` the pages.
After an intended change, rewrite the expected pages with

    REGISTER_UPDATE_GOLDEN=1 python -m pytest tests/test_render.py

and review the diff like any other change.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from compat_register import api, render
from compat_register.cli import main
from compat_register.markdown import Linker, escape_inline, prose, safe_url
from gitrepo import GitRepo

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "registers").is_dir())
UPDATE = os.environ.get("REGISTER_UPDATE_GOLDEN") == "1"


def rendered(case_dir: Path) -> dict[str, str]:
    """The pages of a golden case, verified offline so no checkout changes them."""
    result = api.verify_citations(Path("registers"), offline=True, environ={})
    pages = render.render_site(result.registers, result.outcomes)
    assert not result.failed, [d.as_text() for d in result.diagnostics]
    return pages


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    case_dir = GOLDEN / case
    monkeypatch.chdir(case_dir)  # diagnostics and health rows name files relative to here
    pages = rendered(case_dir)
    expected_dir = case_dir / "expected"
    if UPDATE:
        shutil.rmtree(expected_dir, ignore_errors=True)
        for uri, text in pages.items():
            (expected_dir / uri).parent.mkdir(parents=True, exist_ok=True)
            (expected_dir / uri).write_text(text, encoding="utf-8")
    expected = {
        p.relative_to(expected_dir).as_posix(): p.read_text(encoding="utf-8")
        for p in expected_dir.rglob("*.md")
    }
    assert sorted(pages) == sorted(expected), "pages added or removed: REGISTER_UPDATE_GOLDEN=1"
    for uri, text in pages.items():
        assert text == expected[uri], f"{case}/{uri} differs: REGISTER_UPDATE_GOLDEN=1 to accept"


@pytest.fixture
def linker(monkeypatch: pytest.MonkeyPatch) -> Linker:
    monkeypatch.chdir(GOLDEN / "basic")
    registers = api.check(Path("registers")).registers
    pages = {e.id: f"registers/{r.slug}.md" for r in registers.registers for e in r.entries}
    return Linker(registers.sources, pages, "registers/alpha.md", render.relative)


@pytest.mark.parametrize(
    "text",
    [
        "<script>window.__pwned = 1</script>",
        '<img src=x onerror="window.__pwned = 2">',
        "[x](javascript:alert(1))",
        "[x]( JavaScript:alert(1) )",
        "[x](<javascript:alert(1)>)",
        "[x](jav&#x61;script:alert(1))",
        "[x](java\tscript:alert(1))",
        "![x](data:text/html,hi)",
        "[x]: javascript:alert(1)\n\n[x]",
        "<javascript:alert(1)>",
        'para {: onclick="alert(1)" }',
    ],
)
def test_hostile_prose_is_defused(text: str, linker: Linker) -> None:
    out = prose(text, linker)
    assert "<script" not in out and "<img" not in out
    assert "](javascript" not in out.lower().replace(" ", "")
    assert "{:" not in out.replace("\\{:", "")
    assert "](jav&#x61;" not in out and "\n[x]:" not in "\n" + out


def test_safe_links_stay_links(linker: Linker) -> None:
    out = prose("[a](https://e.org/?x=1&y=2) [b](../b/) <https://e.org>", linker)
    assert "[a](https://e.org/?x=1&amp;y=2)" in out
    assert "[b](../b/)" in out and "<https://e.org>" in out


def test_nothing_is_linked_inside_code(linker: Linker) -> None:
    out = prose("`ALP-02 internal/server.go:4` and\n\n```\nBET-01 <b>\n```\n", linker)
    assert "](" not in out
    assert "<b>" in out  # fenced code is Markdown's to escape


def test_references_citations_and_patterns_link(linker: Linker) -> None:
    out = prose("ALP-02, BET-01, LV-19..LV-22, SEP-7, GOALP-01, internal/server.go:3", linker)
    assert "[ALP-02](#alp-02)" in out
    assert "[BET-01](beta.md#bet-01)" in out
    assert 'title="register LV is not published yet">LV-19..LV-22</span>' in out
    assert "[SEP-7](https://example.org/seps/7)" in out
    assert "GOALP-01" in out and "[GOALP" not in out
    assert "`internal/server.go:3`" in out  # impl has no public repo: code text


def test_safe_url() -> None:
    assert safe_url("https://x.org/a") and safe_url("../meta/#x") and safe_url("a:b/c") is False
    assert safe_url("meta.md#meta-03") and not safe_url("vbscript:x") and not safe_url("//x.org")


def test_escape_inline_shows_text_as_written() -> None:
    assert escape_inline("_meta?: {a|b} <x> *y*") == r"\_meta?: \{a\|b\} &lt;x&gt; \*y\*"


def test_excerpt_from_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real git repo as the checkout: the excerpt shows the cited lines in context, marked."""
    repo = GitRepo(tmp_path / "impl")
    repo.write("internal/server.go", "".join(f"line {n}\n" for n in range(1, 61)))
    sha = repo.commit("impl")
    registers = tmp_path / "registers"
    shutil.copytree(GOLDEN / "basic" / "registers", registers)
    sources = (registers / "sources.yaml").read_text().replace("abcdef1", sha[:10])
    (registers / "sources.yaml").write_text(sources)
    monkeypatch.chdir(tmp_path)
    result = api.verify_citations(
        Path("registers"), environ={"REGISTER_SOURCE_IMPL": str(repo.root)}
    )
    page = render.render_site(result.registers, result.outcomes)["registers/alpha.md"]
    assert f'        ??? quote "internal/server.go:40 @ {sha[:7]}"' in page
    # Three lines of context either side; only the cited one is marked.
    excerpt = "".join(f"            line {n}\n" for n in range(37, 44))
    assert '            ``` go linenums="37" hl_lines="4"\n' + excerpt in page


def test_excerpt_block_marks_the_cited_lines() -> None:
    registers = api.check(GOLDEN / "basic" / "registers").registers
    citation = registers.registers[0].entries[0].citations[1]  # schema/...:9-11
    block = render.excerpt_block(citation, ["a", "b", "c", "d"], 8)
    assert block.splitlines()[0] == '``` typescript linenums="8" hl_lines="2-4"'


def test_site_templates_override_packaged_ones(tmp_path: Path) -> None:
    (tmp_path / "health.md.j2").write_text("# Mine: {{ total }}\n")
    registers = api.check(GOLDEN / "basic" / "registers").registers
    pages = render.render_site(registers, templates=tmp_path)
    assert pages["registers/health.md"] == "# Mine: 9\n"
    assert pages["registers/alpha.md"].startswith("---\ntags:")


def test_render_command_writes_pages_and_assets(tmp_path: Path) -> None:
    registers = GOLDEN / "basic" / "registers"
    args = ["render", "--registers", str(registers), "--out", str(tmp_path), "--offline"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.*"))
    assert written == [
        "assets/compat-register/register.css",
        "assets/compat-register/register.js",
        "registers/alpha.md",
        "registers/beta.md",
        "registers/health.md",
        "registers/index.md",
    ]

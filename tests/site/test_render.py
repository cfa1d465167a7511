"""The renderer: golden Markdown pages, prose made safe, excerpts from a real checkout.

Golden cases live in tests/golden/<case>/: `registers/` is the input, `expected/` the pages.
After an intended change, rewrite the expected pages with

    REGISTER_UPDATE_GOLDEN=1 python -m pytest tests/site/test_render.py

and review the diff like any other change.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import builder
from compat_register import api
from compat_register.cli import main
from compat_register.model.registers import Citation
from compat_register.site import excerpts, formatter, values
from compat_register.site import renderer as render
from compat_register.site import urls as layout
from compat_register.site.excerpts import Highlighter
from compat_register.site.extensions import mkdocs_yaml
from compat_register.site.markdown import Linker, citation_link, escape_inline, prose, safe_url
from compat_register.verifying.verify import Outcome
from pagehtml import hostile, to_html

GOLDEN = Path(__file__).parents[1] / "golden"
CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "registers").is_dir())
UPDATE = os.environ.get("REGISTER_UPDATE_GOLDEN") == "1"


def rendered(case_dir: Path) -> dict[str, str]:
    """The pages of a golden case, verified offline so no checkout changes them."""
    result = api.verify_citations(Path("registers"), offline=True)
    pages = render.Renderer(result.registers, result.outcomes).pages()
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


def test_the_site_names_a_subject_by_its_source_s_title(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/sources.md: `title` is the name the site shows. The concepts case's subjects
    `client` and `server` are titled `A client` and `A server`; anchors keep the alias."""
    monkeypatch.chdir(GOLDEN / "concepts")
    pages = rendered(GOLDEN / "concepts")
    server = pages["registers/server.md"]
    assert "Status column: A server @ 2222222." in server
    assert "- **A server @ 2222222.** " in server and "- **Value to A server.** " in server
    assert (
        "[A client @ 1111111](https://github.com/example/client/commit/"
        in (pages["registers/client.md"])
    )
    matrix = pages["registers/matrix.md"]
    assert (
        '| Concept | A client <span class="reg-version">1111111</span> |'
        ' A server <span class="reg-version">2222222</span> | Done |'
    ) in matrix
    # the filter names its column by the header's text
    assert '<label>A client <select data-filter="A client 1111111">' in matrix
    priorities = pages["registers/priorities.md"]
    assert "### A server { #subject-server }" in priorities
    assert not re.search(r"(?<!A )\b(client|server) @", server + matrix + priorities)


@pytest.fixture
def linker(monkeypatch: pytest.MonkeyPatch) -> Linker:
    monkeypatch.chdir(GOLDEN / "basic")
    registers = api.check(Path("registers")).registers
    pages = {e.id: f"registers/{r.slug}.md" for r in registers.registers for e in r.entries}
    citations = render.prose_citations(registers)
    return Linker(registers.sources, pages, "registers/alpha.md", layout.relative, citations)


@pytest.fixture
def fmt(linker: Linker) -> formatter.PageFormatter:
    return formatter.PageFormatter("registers/alpha.md", linker)


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
        # Link definitions Python-Markdown reads beyond `[x]: dest` at the start of a line.
        "[x]:\n    javascript:alert(1)\n\n[x]",
        "[x]: <javascript:alert(1)>\n\n[x]",
        "> [z]: javascript:alert(1)\n>\n> [z]",
        "- a\n    - b\n\n        [y]: javascript:alert(1)\n\n        [y]",
        "[`x`]: javascript:alert(1)\n\n[`x`]",
    ],
)
def test_hostile_prose_is_defused(text: str, linker: Linker) -> None:
    out = prose(text, linker)
    assert "<script" not in out and "<img" not in out
    assert "](javascript" not in out.lower().replace(" ", "")
    assert "{:" not in out.replace("\\{:", "")
    assert "](jav&#x61;" not in out and "]:" not in out
    assert hostile(to_html(out)) == []


def test_a_mid_line_span_of_three_backticks_is_left_as_written(linker: Linker) -> None:
    """Only a range that starts a line can be a fence whose info string is trimmed: editing
    a span would pair its backticks differently and let the HTML after it out raw."""
    text = "w`````|`\n`<img src=x onerror=alert(1)>`"
    assert hostile(to_html(prose(text, linker))) == []


def test_a_safe_link_definition_is_text_too(linker: Linker) -> None:
    """Every `]:` outside code is broken, whatever follows it; an inline link still links."""
    html = to_html(prose("[x]: https://e.org\n\n[x] and [y](https://e.org) `[z]: a`", linker))
    assert "[x]&#58; https://e.org" in html and '<a href="https://e.org">y</a>' in html
    assert "<code>[z]: a</code>" in html


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
    pending = '<span class="reg-pending__note">(not published yet)</span>'
    assert f'title="register LV is not published yet">LV-19..LV-22 {pending}</span>' in out
    assert "[SEP-7](https://example.org/seps/7)" in out
    assert "GOALP-01" in out and "[GOALP" not in out
    assert "`internal/server.go:3`" in out  # impl has no public repo: code text


@pytest.mark.parametrize(
    "text",
    [
        "~~~\n<img src=x onerror=alert(1)>\n~~~",
        "```\n<img src=x onerror=alert(1)>\n```",
        "text\n\n~~~\n<img src=x onerror=alert(1)>\n~~~\n\nmore",
        "x ` y\n\n`<img src=x onerror=alert(1)>`",
        "`a`\n`<img src=x onerror=alert(1)>`",
        "[a](https://e.org/`) then\n\n`<img src=x onerror=alert(1)>`",
        "<https://e.org/`> then\n\n`<img src=x onerror=alert(1)>`",
        "a | b\n\n`c | <img src=x onerror=alert(1)>`",
    ],
)
def test_a_table_cell_is_one_safe_line(text: str, fmt: formatter.PageFormatter) -> None:
    cell = fmt.cell(text)
    assert "\n" not in cell
    html = to_html(f"| A | B |\n|---|---|\n| {cell} | end |\n")
    assert hostile(html) == [], cell
    assert html.count("<td>") == 2 and "<td>end</td>" in html  # no `|` split the cell


def test_a_code_block_in_a_cell_shows_its_text(fmt: formatter.PageFormatter) -> None:
    assert fmt.cell("see\n\n~~~go\nx := `y`\n  z\n~~~\n") == "see ``x := `y` z``"
    assert fmt.cell("a `b` and `c\nd`") == "a `b` and `c d`"
    assert fmt.cell("no code: a ` b") == "no code: a \\` b"
    assert fmt.cell("a span of three: ```x```") == "a span of three: `x`"  # not a fence


@pytest.mark.parametrize("fence", ["~~~", "```", "~~~~ {: onclick=alert(1) }"])
def test_prose_opening_with_a_block_starts_on_its_own_line(
    fence: str, fmt: formatter.PageFormatter
) -> None:
    """After `- **What.** ` a fence is text: its code, left raw, would be read as HTML."""
    closing = fence.split()[0]
    item = fmt.item(f"{fence}\n<img src=x onerror=alert(1)>\n{closing}\nafter")
    html = to_html(f"- **What.** {item}\n- **Next.** b\n")
    assert hostile(html) == []
    code = html[html.index("<code>") : html.index("</code>")]  # as a fence: in one code block
    assert "&lt;img src=x onerror=alert(1)&gt;" in code and "<li>\n<p><strong>Next" in html


def test_a_citation_path_is_percent_encoded(linker: Linker) -> None:
    """A path may hold `#`, `?`, `%`, `(`, `)` or a space; its label is built from the fields."""
    path = "dir (1)/a b#c?d%e.md"
    citation = Citation(
        text=f"spec:{path}:3-4 “q”", alias="spec", path=path, start=3, end=4, quote="q",
        in_prose=False, register="alpha", entry="ALP-01", file="x.yaml", line=1, col=1,
        field=("entries", 0, "sources", 0), token="3-4", source="spec", repo_path=path,
    )  # fmt: skip
    link = citation_link(citation, linker.sources)
    url = "https://github.com/example/spec/blob/" + "0123456789abcdef" * 2 + "01234567"
    assert link == (
        f"[spec:dir (1)/a b\\#c?d%e.md:3-4]({url}/dir%20%281%29/a%20b%23c%3Fd%25e.md#L3-L4)"
    )
    assert f'href="{url}/dir%20%281%29/a%20b%23c%3Fd%25e.md#L3-L4"' in to_html(link)


def test_a_prose_citation_links_what_verify_resolved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The link is the loaded citation's: one that failed validation (a `..` path, which
    git is never asked for) is not linked, though a claim matches its path."""
    shutil.copytree(GOLDEN / "basic" / "registers", tmp_path / "registers")
    alpha = tmp_path / "registers" / "alpha.yaml"
    text = "See BET-01 and schema/2024-11-05/schema.ts:9."
    bad = "See schema/../secret.ts:2, twice; schema/../secret.ts:2, and schema/a.ts:1."
    alpha.write_text(alpha.read_text().replace(text, bad))
    monkeypatch.chdir(tmp_path)
    result = api.check(Path("registers"))
    assert [d.code for d in result.diagnostics].count("bad-path") == 2
    page = render.Renderer(result.registers).pages()["registers/alpha.md"]
    assert (
        "See `schema/../secret.ts:2`, twice; `schema/../secret.ts:2`, and [schema/a.ts:1](" in page
    )
    # The index is what the loader found: a token in no loaded field is not linked.
    fmt = render.Renderer(result.registers).formatter("registers/alpha.md")
    assert fmt.prose("schema/a.ts:1") == "`schema/a.ts:1`"


def test_an_excerpt_title_is_escaped(fmt: formatter.PageFormatter) -> None:
    path = 'x"<img src=x onerror=alert(1)>*.go'
    citation = Citation(
        text=f"internal/{path}:2", alias=None, path=f"internal/{path}", start=2, end=2,
        quote=None, in_prose=False, register="alpha", entry="ALP-01",
        file="x.yaml", line=1, col=1, field=("entries", 0, "sources", 0), token="2",
        source="impl", repo_path=f"internal/{path}",
    )  # fmt: skip
    lines = ["a", "b"]
    outcome = Outcome(citation, "ok", first_line=2, last_line=2, commit="f" * 40, file_lines=lines)
    fmt.outcomes[citation.key] = outcome
    fmt.excerpt_file = "registers/alpha/excerpts.html"
    view = fmt.source(citation)
    html = to_html(f"- {view.link} {view.excerpt}\n")
    assert hostile(html) == []
    (excerpt,) = fmt.excerpts.values()
    text = 'internal/x"&lt;img src=x onerror=alert(1)&gt;*.go:2 @ fffffff'
    assert f'<a class="reg-excerpt" href="alpha/excerpts.html#{excerpt.key}">{text}</a>' in html
    title = text.replace('"', "&quot;")
    file = excerpts.ExcerptFile("alpha", "<b>Alpha</b>", [excerpt])
    document = excerpts.document(file, Highlighter().html)
    assert "<img" not in document and "<b>" not in document and "&lt;b&gt;Alpha" in document
    assert f'<h2 id="{excerpt.key}-title">{title}</h2>' in document


def test_an_unpublished_id_is_escaped_text(fmt: formatter.PageFormatter) -> None:
    assert fmt.entry_link("ALP-01") == "[ALP-01](#alp-01)"
    assert fmt.entry_link("my_<register>") == "my\\_&lt;register&gt;"


def test_a_template_error_names_the_template_line(tmp_path: Path) -> None:
    registers = api.check(GOLDEN / "basic" / "registers").registers
    (tmp_path / "health.md.j2").write_text("# Health\n\n{{ fmt.no_such_thing() }}\n")
    with pytest.raises(values.TemplateProblem) as raised:
        render.Renderer(registers, templates=tmp_path).pages()
    assert raised.value.file == str(tmp_path / "health.md.j2") and raised.value.line == 3
    assert "no attribute 'no_such_thing'" in str(raised.value)
    (tmp_path / "health.md.j2").write_text("# Health\n{% if %}\n")
    with pytest.raises(values.TemplateProblem, match=r"health.md.j2:2: Expected an expression"):
        render.Renderer(registers, templates=tmp_path).pages()


def test_safe_url() -> None:
    assert safe_url("https://x.org/a") and safe_url("../meta/#x") and safe_url("a:b/c") is False
    assert safe_url("meta.md#meta-03") and not safe_url("vbscript:x") and not safe_url("//x.org")


def test_escape_inline_shows_text_as_written() -> None:
    assert escape_inline("_meta?: {a|b} <x> *y*") == r"\_meta?: \{a\|b\} &lt;x&gt; \*y\*"


def with_checkout(tmp_path: Path) -> tuple[Path, str, str]:
    """The golden registers in `tmp_path/registers`, pinned to a real git repository whose
    internal/server.go holds `line N` on line N: (registers, the checkout, its commit)."""
    lines = "".join(f"line {n}\n" for n in range(1, 61))
    repo, sha = builder.source(tmp_path / "impl", {"internal/server.go": lines}, "impl")
    return builder.golden(tmp_path, sha[:10]), str(repo.root), sha


def test_excerpt_from_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real git repo as the checkout: the excerpt shows the cited lines in context, marked."""
    registers, checkout, sha = with_checkout(tmp_path)
    monkeypatch.chdir(tmp_path)
    settings = api.Settings.read({"REGISTER_SOURCE_IMPL": checkout})
    result = api.verify_citations(Path("registers"), settings=settings)
    renderer = render.Renderer(result.registers, result.outcomes)
    page = renderer.pages()["registers/alpha.md"]
    (excerpt,) = renderer.excerpts["registers/alpha/excerpts.html"].excerpts
    link = f"[internal/server.go:40 @ {sha[:7]}](alpha/excerpts.html#{excerpt.key})"
    assert f" {link}{{ .reg-excerpt }}\n" in page
    # Three lines of context either side; only the cited one is marked.
    lines = "".join(f"line {n}\n" for n in range(37, 44))
    assert excerpt.block.markdown() == '``` go linenums="37" hl_lines="4"\n' + lines + "```"
    (document,) = excerpts.documents(renderer.excerpts).values()
    marked = '<span class="hll"><span class="nx">line</span><span class="w"> </span>'
    assert marked + '<span class="mi">40' in document
    assert f'<section id="{excerpt.key}"' in document and "line 36" not in document
    assert 'id="__span' not in document  # numbered per block: they would clash in a page


def test_render_writes_each_excerpt_file_beside_its_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`register render` with a checkout: the excerpt file sits beside the page, and a plain
    MkDocs build (no plugin of ours) resolves the page's link to it."""
    registers, checkout, _ = with_checkout(tmp_path)
    monkeypatch.setenv("REGISTER_SOURCE_IMPL", checkout)
    docs = tmp_path / "docs"
    args = ["render", "--registers", str(registers), "--out", str(docs), "--no-history"]
    result = CliRunner().invoke(main, args)
    assert (docs / "registers" / "alpha.md").is_file(), result.output
    excerpt_file = (docs / "registers" / "alpha" / "excerpts.html").read_text()
    assert excerpt_file.count("<section") == 1 and 'class="hll"' in excerpt_file
    assert not (docs / "registers" / "beta" / "excerpts.html").exists()  # no excerpt there
    (docs / "index.md").write_text("# Home\n")
    config = "site_name: plain\ntheme: {name: material}\n"
    (tmp_path / "mkdocs.yml").write_text(config + mkdocs_yaml())
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "site")]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    page = (tmp_path / "site" / "registers" / "alpha" / "index.html").read_text()
    # MkDocs resolved the link to the file: from the page's directory URL, it is beside it.
    assert re.search(r'class="reg-excerpt" href="excerpts.html#x[0-9a-f]{12}"', page)
    assert (tmp_path / "site" / "registers" / "alpha" / "excerpts.html").read_text() == excerpt_file


def test_excerpt_block_marks_the_cited_lines() -> None:
    registers = api.check(GOLDEN / "basic" / "registers").registers
    citation = registers.registers[0].entries[0].citations[1]  # schema/...:9-11
    block = excerpts.excerpt_block(citation, ["a", "b", "c", "d"], 8)
    assert (block.first_line, block.marked, block.language) == (8, (2, 4), "typescript")
    assert block.markdown().splitlines()[0] == '``` typescript linenums="8" hl_lines="2-4"'


def test_site_templates_override_packaged_ones(tmp_path: Path) -> None:
    (tmp_path / "health.md.j2").write_text("# Mine: {{ total }}\n")
    registers = api.check(GOLDEN / "basic" / "registers").registers
    pages = render.Renderer(registers, templates=tmp_path).pages()
    assert pages["registers/health.md"] == "# Mine: 10\n"
    assert pages["registers/alpha.md"].startswith("---\nsearch:\n  boost: 4\ntags:")


def test_render_command_writes_pages_and_assets(tmp_path: Path) -> None:
    registers = GOLDEN / "basic" / "registers"
    args = ["render", "--registers", str(registers), "--out", str(tmp_path), "--offline"]
    args.append("--no-history")  # the golden folder's history in this repository is no input
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.*"))
    assert written == [
        "assets/compat-register/register.css",
        "assets/compat-register/register.js",
        "registers/alpha.md",
        "registers/beta.md",
        "registers/health.md",
        "registers/health/alpha.md",
        "registers/health/beta.md",
        "registers/index.md",
        "registers/priorities.md",
        "registers/registers.json",
        "registers/revisions/2024-11-05.md",
        "registers/revisions/2025-06-18.md",
        "registers/revisions/2026-07-28.md",
        "registers/revisions/index.md",
    ]


def test_render_writes_all_pages_or_none(tmp_path: Path) -> None:
    """A page that cannot be written (a folder stands where it goes): every page keeps
    its old text, and no temporary file is left."""
    registers = GOLDEN / "basic" / "registers"
    (tmp_path / "registers").mkdir()
    (tmp_path / "registers" / "alpha.md").write_text("old alpha\n")
    (tmp_path / "registers" / "health.md").mkdir()
    args = ["render", "--registers", str(registers), "--out", str(tmp_path), "--offline"]
    args.append("--no-history")  # else it reads, and caches beside the golden folder, its history
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1
    assert result.output.splitlines()[-1].startswith(
        f"Error: cannot write {tmp_path / 'registers' / 'health.md'}: "
    )
    assert (tmp_path / "registers" / "alpha.md").read_text() == "old alpha\n"
    left = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert left == ["registers/alpha.md"]


def test_export_to_a_file_replaces_it_whole(tmp_path: Path) -> None:
    registers = GOLDEN / "basic" / "registers"
    target = tmp_path / "data.json"
    target.write_text("old\n")
    result = CliRunner().invoke(main, ["export", "--registers", str(registers), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text().startswith("{") and list(tmp_path.iterdir()) == [target]


@pytest.mark.parametrize("page", ["index", "matrix", "priorities"])
def test_pages_repeating_the_entries_are_left_out_of_search(
    page: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each entry is found once, as its register page's section: the overview indexed whole
    passed Zensical's limit for one search field at 5,000 entries (issue 36)."""
    monkeypatch.chdir(GOLDEN / "concepts")
    front = rendered(GOLDEN / "concepts")[f"registers/{page}.md"].split("---\n")[1]
    assert "search:\n  exclude: true\n" in front


def test_the_health_order_names_every_outcome_once() -> None:
    from compat_register.site.health import OUTCOME_ORDER
    from compat_register.verifying.outcome import OUTCOMES

    assert sorted(OUTCOME_ORDER) == sorted(OUTCOMES) and len(set(OUTCOME_ORDER)) == len(OUTCOMES)

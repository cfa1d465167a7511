"""`import(render --plain(R)) == R`, and the YAML writer's text loads back as its data.

Registers are generated with odd prose: quotes of both kinds, `: ` and ` #` (which YAML
reads as a mapping and a comment), code spans, cross-references and ranges, in-prose
citations, non-ASCII text, line breaks and paragraphs.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tiers
from compat_register.importing.fields import register_data
from compat_register.importing.page import parse_page
from compat_register.importing.yamlout import register_text
from compat_register.reading import loader, schema
from compat_register.reading.registerfile import build_register
from compat_register.site.plain import plain_page
from conftest import RunLine

REPO = Path(__file__).parent.parent.parent
COMMIT = "05c78b2"

ODD = [
    "a: b",
    "x #y",
    " # not a comment",
    "“curly”",
    '"straight"',
    "it’s",
    "`code: span #`",
    "``a ` b``",
    "META-03",
    "LV-19..LV-22",
    "(internal/mcpclient/modern.go:73-81)",
    "v2:packages/core/src/tool/mcp.ts:69",
    "naïve",
    "日本語",
    "— dash",
    "50%",
    "[link](https://example.org)",
    "*emphasis*",
    "{brace}",
    "- dash-led",
    "'quoted'",
    "a; b",
    "Done.",
    "null",
    "123",
    "yes",
]
WORD = st.text(
    st.sampled_from("abcdefghijklmnopqrstuvwxyzABCZ0123456789.,;:()/'\"é’“”-"),
    min_size=1,
    max_size=8,
)
TOKEN = st.one_of(st.sampled_from(ODD), WORD)


def line() -> st.SearchStrategy[str]:
    return st.lists(TOKEN, min_size=1, max_size=8).map(" ".join).map(str.strip).filter(bool)


def prose(max_lines: int = 3) -> st.SearchStrategy[str]:
    """Lines joined by single line breaks or blank lines (paragraphs)."""
    return st.lists(
        st.tuples(line(), st.sampled_from(["\n", "\n\n"])), min_size=1, max_size=max_lines
    ).map(lambda parts: "".join(text + sep for text, sep in parts)[: -len(parts[-1][1])])


def one_line() -> st.SearchStrategy[str]:
    return line()


def plain_words() -> st.SearchStrategy[str]:
    return (
        st.text(st.sampled_from("abcdefghij _-’é"), min_size=1, max_size=20)
        .map(str.strip)
        .filter(lambda t: bool(t) and not t.startswith("-"))
    )


QUOTE = st.text(st.sampled_from("ab: #;`’é{}[]*_-?!"), min_size=1, max_size=12).filter(
    lambda q: any(c.isalnum() for c in q)
)


@st.composite
def citation(draw: st.DrawFn) -> str:
    alias = draw(st.sampled_from(["", "v2:", "spec:"]))
    path = draw(st.sampled_from(["internal/a.go", "schema/x.ts", "docs/a b.md", "x/y_z.py"]))
    path = path.replace(" ", "")
    start = draw(st.integers(1, 500))
    lines = str(start) if draw(st.booleans()) else f"{start}-{start + draw(st.integers(0, 9))}"
    text = f"{alias}{path}:{lines}"
    if draw(st.booleans()):
        quote = draw(QUOTE)
        text += f" “{quote}”" if draw(st.booleans()) else f' "{quote}"'
    return text


def rated(key: str, words: list[str]) -> st.SearchStrategy[dict[str, str]]:
    return st.builds(
        lambda word, note: {key: word, "note": note} if note else {key: word},
        st.sampled_from(words),
        st.one_of(st.none(), prose(2)),
    )


LABELS = {"What", "Where", "Risk", "Detail", "Sources", "Effort", "Tags", "Revisions"}


@st.composite
def entry(draw: st.DrawFn, entry_id: str) -> dict[str, Any]:
    data: dict[str, Any] = {"id": entry_id, "title": draw(one_line())}
    data["what"] = draw(prose())
    if draw(st.booleans()):
        data["where"] = draw(prose(1))
    if draw(st.booleans()):
        data["revisions"] = draw(
            st.sampled_from(
                [
                    {"added": "2025-06-18"},
                    {"added": "2024-11-05", "removed": "2026-07-28"},
                    {"changed": ["2025-11-25"]},
                    {
                        "added": "2024-11-05",
                        "changed": ["2025-06-18", "2025-11-25"],
                        "removed": "2026-07-28",
                    },
                ]
            )
        )
    data["status"] = draw(rated("state", ["done", "partial", "missing", "n/a"]))
    data["value"] = draw(rated("level", ["high", "med", "low", "none"]))
    data["effort"] = draw(rated("size", ["S", "M", "L", "XL"]))
    data["risk"] = draw(prose(1))
    if draw(st.booleans()):
        data["detail"] = draw(prose())
    titles = draw(
        st.lists(plain_words().filter(lambda t: t not in LABELS), max_size=2, unique=True)
    )
    if titles:
        data["notes"] = [{"title": title, "text": draw(prose())} for title in titles]
    if draw(st.booleans()):
        data["tags"] = draw(
            st.lists(st.sampled_from(["area:x", "sdk", "v2", "a-b"]), min_size=1, unique=True)
        )
    data["sources"] = draw(st.lists(citation(), min_size=1, max_size=4))
    return data


@st.composite
def register(draw: st.DrawFn) -> dict[str, Any]:
    prefix = draw(st.sampled_from(["META", "T", "AB2"]))
    count = draw(st.integers(1, 3))
    data: dict[str, Any] = {
        "title": draw(plain_words()),
        "prefix": prefix,
        "description": draw(one_line()),
        "status": draw(st.sampled_from(["draft", "standard", "retired"])),
    }
    if draw(st.booleans()):
        data["tags"] = draw(
            st.lists(st.sampled_from(["area:compare", "x", "y:z"]), min_size=1, unique=True)
        )
    data["created"] = draw(st.sampled_from(["2026-01-01", "2026-09-30T08:00:00-05:00"]))
    data["last-updated"] = "2026-10-01"
    data["increment"] = draw(st.integers(1, 99))
    data["subject"] = "mcpx"
    if draw(st.booleans()):
        data["summary"] = draw(prose())
    data["entries"] = [draw(entry(f"{prefix}-{n:02d}")) for n in range(1, count + 1)]
    return data


def through_yaml(data: dict[str, Any]) -> Any:
    text = register_text(data, commit=COMMIT)
    doc = loader.parse(text, "r.yaml", schema.integer_keys())
    assert doc.data == data, text
    assert list(schema.validate(doc, schema.REGISTER, lambda _: "r")) == []
    return build_register(doc, "r", [])


@settings(
    max_examples=tiers.examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(register())
def test_import_of_the_plain_page_gives_back_the_register(data: dict[str, Any]) -> None:
    page = plain_page(through_yaml(data), COMMIT)
    imported = register_data(parse_page(page))
    assert imported.errors == []
    assert imported.unstated == {}
    assert imported.data == data, page


def without_concepts(data: Any) -> Any:
    """A register's data without its entries' `concept:` (what a plain page does not say)."""
    entries = [{k: v for k, v in e.items() if k != "concept"} for e in data["entries"]]
    return {**data, "entries": entries}


def test_the_plain_page_of_meta_yaml_imports_as_meta_yaml(
    tmp_path: Path, run_line: RunLine
) -> None:
    registers = tmp_path / "registers"
    shutil.copytree(REPO / "registers", registers, ignore=shutil.ignore_patterns("*.lock"))
    rendered = run_line(
        ["render", "--plain", "--registers", str(registers), "--out", str(tmp_path / "out")]
    )
    assert rendered.exit_code == 0, rendered.output
    page = (tmp_path / "out" / "meta.md").read_text(encoding="utf-8")
    site_markup = ["<span", "<a ", "<div", "<details", "</", "{#", "{:", "{ #", "class="]
    assert [mark for mark in site_markup if mark in page] == []  # no HTML, no attributes
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copy(registers / "sources.yaml", fresh)
    imported = run_line(["import", "--registers", str(fresh), str(tmp_path / "out" / "meta.md")])
    assert imported.exit_code == 0, imported.output
    assert "11 entries, 11 states from the page" in imported.stdout
    expected = loader.parse(
        (registers / "meta.yaml").read_text("utf-8"), "m", schema.integer_keys()
    )
    got = loader.parse((fresh / "meta.yaml").read_text("utf-8"), "m", schema.integer_keys())
    assert got.data == without_concepts(expected.data)  # a plain page names no concept


def test_a_plain_page_keeps_its_register_file_name(tmp_path: Path, run_line: RunLine) -> None:
    """core.yaml titled "Base protocol utilities" comes back as core.yaml, not as the
    title's slug: its URL, diagnostics and history stay the same. Its commit is shortened."""
    registers = tmp_path / "registers"
    registers.mkdir()
    shutil.copy(REPO / "registers" / "sources.yaml", registers)
    meta = (REPO / "registers" / "meta.yaml").read_text("utf-8")
    meta = "".join(line for line in meta.splitlines(True) if not line.startswith("    concept: "))
    (registers / "core.yaml").write_text(
        meta.replace("title: _meta", "title: Base protocol utilities"), encoding="utf-8"
    )
    out = tmp_path / "out"
    rendered = run_line(["render", "--plain", "--registers", str(registers), "--out", str(out)])
    assert rendered.exit_code == 0, rendered.output
    page = (out / "core.md").read_text(encoding="utf-8")
    assert "\nfile: core.yaml\n" in page
    assert re.search(r"\b[0-9a-f]{40}\b", page) is None, "a full commit on the page"
    assert re.search(r"^- \*\*mcpx @ [0-9a-f]{7}\.\*\* ", page, re.M)
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    shutil.copy(registers / "sources.yaml", fresh)
    imported = run_line(["import", "--registers", str(fresh), str(out / "core.md")])
    assert imported.exit_code == 0, imported.output
    assert sorted(p.name for p in fresh.iterdir()) == ["core.yaml", "sources.yaml"]
    got = loader.parse((fresh / "core.yaml").read_text("utf-8"), "c", schema.integer_keys())
    want = loader.parse((registers / "core.yaml").read_text("utf-8"), "c", schema.integer_keys())
    assert got.data == want.data


def test_a_file_line_naming_a_folder_is_refused(tmp_path: Path, run_line: RunLine) -> None:
    page = (REPO / "tests" / "pages" / "meta.txt").read_text("utf-8")
    title, rest = page.split("\n\n", 1)
    (tmp_path / "p.txt").write_text(f"{title}\n\nfile: ../x.yaml\n{rest}", encoding="utf-8")
    registers = tmp_path / "registers"
    registers.mkdir()
    shutil.copy(REPO / "registers" / "sources.yaml", registers)
    result = run_line(["import", "--registers", str(registers), str(tmp_path / "p.txt")])
    assert result.exit_code == 1, result.output
    assert "p.txt:3:7: error: page: file '../x.yaml' is not a register file's name" in (
        result.stdout
    )
    assert sorted(p.name for p in registers.iterdir()) == ["sources.yaml"]


def test_a_summary_line_that_reads_like_an_entry_stays_summary() -> None:
    """Found by the round trip above: a summary holding `META-03 a: b` over a `- ` line
    looked like an entry heading with its bullet, so the page seemed to have no status
    line; entries never come before it, so that line is the summary's."""
    page = (
        "# T\n\ncreated: 2026-01-01\nlast-updated: 2026-10-01\nincrement: 1\n"
        "status: draft\ndescription: d\n"
        "\na: b\nMETA-03 a: b\n- dash-led\n\n"
        f"Status column: mcpx @ {COMMIT[:7]}.\n\n## META-01 One\n\n- **What.** x\n"
    )
    read = parse_page(page)
    assert read.summary == "a: b\nMETA-03 a: b\n- dash-led"
    assert [entry.id for entry in read.entries] == ["META-01"]

"""Cross-references: `references.scan` on Markdown text, `references.resolve` over a set."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import builder
from compat_register import api
from compat_register.checking import references
from compat_register.model.registers import LinkPattern

LINKS = [
    LinkPattern(re.compile(r"SEP-(\d+)"), "https://example.org/sep/{1}"),
    LinkPattern(re.compile(r"PR #(\d+)"), "https://example.org/pull/{1}"),
]


def found(text: str) -> list[tuple[str, str, str, str]]:
    """(text, first, last, url) of each reference in `text`."""
    return [(text[r.start : r.end], r.first, r.last, r.url) for r in references.scan(text, LINKS)]


# --- scan ---------------------------------------------------------------------------------


def test_single_ids_with_their_spans() -> None:
    text = "See META-03, then (PC-4) and TASK-15."
    scanned = references.scan(text, LINKS)
    assert [(text[r.start : r.end], r.first, r.last) for r in scanned] == [
        ("META-03", "META-03", ""),
        ("PC-4", "PC-4", ""),
        ("TASK-15", "TASK-15", ""),
    ]
    assert [text[r.start : r.end] for r in scanned] == ["META-03", "PC-4", "TASK-15"]


def test_ranges_within_and_across_prefixes() -> None:
    assert found("rows LV-19..LV-22; also PC-04..TASK-15.") == [
        ("LV-19..LV-22", "LV-19", "LV-22", ""),
        ("PC-04..TASK-15", "PC-04", "TASK-15", ""),
    ]


def test_link_patterns_become_urls_not_ids() -> None:
    assert found("SEP-2575 and PR #710 and SEP-414.") == [
        ("SEP-2575", "", "", "https://example.org/sep/2575"),
        ("PR #710", "", "", "https://example.org/pull/710"),
        ("SEP-414", "", "", "https://example.org/sep/414"),
    ]


def test_without_link_patterns_sep_is_an_id() -> None:
    assert [r.first for r in references.scan("SEP-414", [])] == ["SEP-414"]


@pytest.mark.parametrize(
    "text",
    [
        "META-04x",
        "xMETA-04",
        "META-04-5",
        "meta-04",
        "META_04",
        "META-",
        "-META-04",
        "META-04-x",
    ],
)
def test_only_whole_words_are_ids(text: str) -> None:
    assert found(text) == []


def test_ids_in_underscore_emphasis_are_ids() -> None:
    # '_' is a word character to `\w`, but in Markdown it marks emphasis
    assert [r[1] for r in found("_META-91_, __META-92__ and META-93_x")] == [
        "META-91",
        "META-92",
        "META-93",
    ]


def test_a_longer_prefix_is_its_own_id() -> None:
    assert [r[1] for r in found("GOMETA-04 is not META-04")] == ["GOMETA-04", "META-04"]


def test_ids_next_to_punctuation() -> None:
    text = "(META-01), [META-02]; META-03. “META-04” 'META-05' META-06/META-07"
    assert [r[1] for r in found(text)] == [f"META-0{n}" for n in range(1, 8)]


def test_nothing_is_found_in_code_spans_or_fenced_code() -> None:
    text = (
        "Before META-01 and `META-02` and ``a `META-03` b``.\n"
        "```yaml\nref: META-04 SEP-5\n```\n"
        "~~~\nMETA-05\n~~~\n"
        "After META-06."
    )
    assert [r[0] for r in found(text)] == ["META-01", "META-06"]


def test_an_unclosed_fence_is_not_code() -> None:
    # Python-Markdown renders an unclosed fence as text: what it holds is prose, and checked
    assert [r[0] for r in found("META-01\n```\nMETA-02\n")] == ["META-01", "META-02"]


def test_indented_code_holds_no_references() -> None:
    assert [r[0] for r in found("META-01:\n\n    META-99\n\nMETA-02")] == ["META-01", "META-02"]


def test_an_escaped_backtick_and_a_blank_line_end_no_code() -> None:
    assert [r[0] for r in found("\\`META-01\\` and `a\n\nMETA-02 b`")] == ["META-01", "META-02"]


def test_link_destinations_autolinks_and_urls_hold_no_references() -> None:
    text = (
        "[see META-01](https://example.org/META-99/x) <https://x.org/META-98> "
        "https://x.org/SEP-97 and [META-02][ref]\n[ref]: https://x.org/META-96"
    )
    assert [r[0] for r in found(text)] == ["META-01", "META-02"]


def test_citation_tokens_are_not_scanned_as_ids() -> None:
    text = "See LV-19.md:3, v2:packages/PC-04/x.ts:12-14 and internal/META-03.go:7, then META-08."
    assert [r[0] for r in found(text)] == ["META-08"]


def test_an_id_with_a_line_is_not_a_citation() -> None:
    # `META-03:12` has no '/' and no extension, so it is prose: the ID is a reference
    assert [r[0] for r in found("META-03:12")] == ["META-03"]


def test_results_are_in_text_order() -> None:
    text = "META-02 SEP-1 META-01 PR #2"
    scanned = references.scan(text, LINKS)
    assert [text[r.start : r.end] for r in scanned] == ["META-02", "SEP-1", "META-01", "PR #2"]
    assert [r.start for r in scanned] == sorted(r.start for r in scanned)


# --- resolve and backlinks ----------------------------------------------------------------

SOURCES = """revisions: [2025-06-18]
sources:
  mcpx: {title: mcpx, commit: 05c78b2, claims: ['internal/**']}
pending: [PM]
"""


def register(prefix: str, entries: dict[int, str]) -> str:
    """A register file whose entries PREFIX-N have `what: TEXT`."""
    head = (
        f"title: {prefix}\nprefix: {prefix}\ndescription: d.\nstatus: draft\n"
        "created: 2026-01-01\nlast-updated: 2026-01-01\nincrement: 1\nsubject: mcpx\nentries:\n"
    )
    body = "".join(
        f"  - id: {prefix}-{n}\n    title: t\n    what: '{what}'\n    status: {{state: done}}\n"
        f"    value: {{level: low}}\n    effort: {{size: S}}\n    risk: r.\n"
        f"    sources: [internal/a.go:1]\n"
        for n, what in entries.items()
    )
    return head + body


def check(tmp_path: Path, files: dict[str, str]) -> api.Checked:
    return api.check(builder.registers(tmp_path, SOURCES, files))


def backlinks(checked: api.Checked) -> dict[str, list[str]]:
    return {
        entry_id: checked.registers.backlinks_of(e)
        for entry_id, e in checked.registers.entries().items()
    }


def messages(checked: api.Checked) -> list[tuple[int, int, str, str, str]]:
    return [(d.line, d.col, d.severity, d.id, d.message) for d in checked.diagnostics]


def test_a_range_backlinks_every_entry_it_spans(tmp_path: Path) -> None:
    checked = check(
        tmp_path,
        {
            "lv.yaml": register("LV", {1: "a", 2: "b", 3: "c", 4: "d"}),
            "meta.yaml": register("META", {1: "see LV-1..LV-3"}),
        },
    )
    assert messages(checked) == []
    assert backlinks(checked) == {
        "LV-1": ["META-1"],
        "LV-2": ["META-1"],
        "LV-3": ["META-1"],
        "LV-4": [],
        "META-1": [],
    }


def test_a_range_spans_its_own_prefix_only(tmp_path: Path) -> None:
    checked = check(
        tmp_path,
        {
            "lv.yaml": register("LV", {1: "a", 2: "b"}),
            "lvx.yaml": register("LVX", {1: "a", 2: "b"}),
            "meta.yaml": register("META", {1: "see LV-1..LV-2"}),
        },
    )
    spanned = {target for target, owners in backlinks(checked).items() if owners}
    assert spanned == {"LV-1", "LV-2"}


def test_a_range_within_its_own_register(tmp_path: Path) -> None:
    checked = check(
        tmp_path, {"lv.yaml": register("LV", {1: "a", 2: "b", 3: "c", 4: "LV-1..LV-3"})}
    )
    assert backlinks(checked) == {"LV-1": ["LV-4"], "LV-2": ["LV-4"], "LV-3": ["LV-4"], "LV-4": []}


def test_backlinks_are_unique_in_order_and_never_to_oneself(tmp_path: Path) -> None:
    checked = check(
        tmp_path,
        {"lv.yaml": register("LV", {1: "LV-1 and LV-3", 2: "LV-3, LV-3 and LV-1..LV-3", 3: "c"})},
    )
    assert backlinks(checked) == {"LV-1": ["LV-2"], "LV-2": [], "LV-3": ["LV-1", "LV-2"]}


def test_problems_point_at_each_occurrence(tmp_path: Path) -> None:
    checked = check(
        tmp_path,
        {"lv.yaml": register("LV", {1: "LV-9 or LV-9, LV-3..LV-2, PM-4, M-3 and UTF-8", 2: "b"})},
    )
    line = 12  # `what:` of LV-1; the quoted scalar starts at column 11
    assert messages(checked) == [
        (line, 12, "error", "LV-1", "LV-9 does not exist (lv has LV-1..LV-2)"),
        (line, 20, "error", "LV-1", "LV-9 does not exist (lv has LV-1..LV-2)"),
        (line, 26, "error", "LV-1", "LV-3 does not exist (lv has LV-1..LV-2)"),
        (line, 38, "warning", "LV-1", "PM-4: register PM is not published yet"),
    ]


def test_a_reversed_range_and_a_range_over_two_registers(tmp_path: Path) -> None:
    checked = check(
        tmp_path,
        {
            "lv.yaml": register("LV", {1: "LV-2..LV-1", 2: "LV-1..META-1"}),
            "meta.yaml": register("META", {1: "m"}),
        },
    )
    assert [m[4] for m in messages(checked)] == [
        "range LV-2..LV-1 is reversed: write LV-1..LV-2",
        "range LV-1..META-1 spans two registers",
    ]


def test_a_range_end_is_pointed_at_where_it_is_written(tmp_path: Path) -> None:
    checked = check(tmp_path, {"lv.yaml": register("LV", {1: "see LV-1..LV-9", 2: "b"})})
    # the range starts at column 16; its missing end is at 22
    assert messages(checked) == [
        (12, 22, "error", "LV-1", "LV-9 does not exist (lv has LV-1..LV-2)")
    ]


def test_ids_in_emphasis_are_checked(tmp_path: Path) -> None:
    checked = check(tmp_path, {"lv.yaml": register("LV", {1: "_LV-9_ and __LV-2__", 2: "b"})})
    assert messages(checked) == [
        (12, 13, "error", "LV-1", "LV-9 does not exist (lv has LV-1..LV-2)")
    ]
    assert backlinks(checked) == {"LV-1": [], "LV-2": ["LV-1"]}


def test_ids_in_links_and_urls_are_neither_checked_nor_backlinked(tmp_path: Path) -> None:
    what = "[the doc](https://x.org/LV-1/a) <https://x.org/LV-9> https://x.org/LV-2"
    checked = check(tmp_path, {"lv.yaml": register("LV", {1: "a", 2: "b", 3: what})})
    assert messages(checked) == []
    assert backlinks(checked) == {"LV-1": [], "LV-2": [], "LV-3": []}


def test_an_entry_without_an_id_is_named_as_the_build_names_it(tmp_path: Path) -> None:
    text = register("LV", {1: "a", 2: "LV-1 and LV-7"}).replace("  - id: LV-2\n", "  -\n", 1)
    checked = check(tmp_path, {"lv.yaml": text})
    assert ("lv[1]", "LV-7 does not exist (lv has LV-1..LV-1)") in [
        (d.id, d.message) for d in checked.diagnostics
    ]
    assert backlinks(checked)["LV-1"] == ["lv[1]"]

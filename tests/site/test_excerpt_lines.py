"""An excerpt marks the cited line and numbers every line as the file does, whatever blank
lines, tabs, carriage returns or file edges surround it (issue 18 item 7).

Each case is a file committed to a real git repository, read back as verify reads it, shown
with its context (`Outcome.shown`), made a block (`excerpts.excerpt_block`) and highlighted
with the site's extensions (`excerpts.Highlighter`); the HTML is then read line by line.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import builder
from compat_register.model.registers import Citation
from compat_register.site.excerpts import (
    CARRIAGE_RETURN,
    Highlighter,
    HighlightOptions,
    excerpt_block,
)
from compat_register.sources.checkout import Checkout
from compat_register.verifying.outcome import Outcome

CASES = {
    # name: (file bytes, first cited line, last cited line)
    "first line of the file, blank": (b"\npackage x\n\nfunc a() {}\n", 1, 1),
    "after a blank first line": (b"\npackage x\n\nfunc a() {}\n", 2, 2),
    "after three blank lines": (b"a\nb\nc\n\n\n\nfunc d() {}\ne\n", 7, 7),
    "a range that is all blank": (b"a\nb\n\n\nc\nd\n", 3, 4),
    "before blank lines that end the file": (b"a\nb\nc\n\n\n", 3, 3),
    "the last line, blank": (b"a\nb\n\n", 3, 3),
    "the last line, no final newline": (b"a\n\nb\nlast", 4, 4),
    "a file of one blank line": (b"\n", 1, 1),
    "a line of tabs and a tab inside": (b"\n\t\n\tx :=\t1\n\t\ny\n", 3, 3),
    "a CRLF file after a blank line": (b"\r\nfirst\r\nsecond\r\n\r\n", 2, 3),
    "a carriage return inside a line": (b"a\rb\nc\n\nd\n", 2, 2),
    "a range from the first line to the last": (b"\na\n\n", 1, 3),
    "spaces only": (b"   \n  x\n   \n", 2, 2),
}


def highlighted(tmp_path: Path, data: bytes, start: int, end: int) -> tuple[list[str], str, int]:
    """The file's lines as verify reads them, the excerpt's HTML, and its first line."""
    repo, sha = builder.source(tmp_path / "up", {"src/x.go": data})
    with Checkout(repo.root) as checkout:
        text = checkout.file_text(sha, "src/x.go")
    assert text is not None
    lines = text.lines
    citation = Citation(
        f"src/x.go:{start}-{end}", None, "src/x.go", start, end, None, False, "t", "T-01",
        "t.yaml", 1, 1, ("sources", 0), "src/x.go", source="up", repo_path="src/x.go",
    )  # fmt: skip
    outcome = Outcome(citation, "ok", first_line=start, last_line=end, file_lines=lines)
    shown, first = outcome.shown()
    return lines, Highlighter().html(excerpt_block(citation, shown, first)), first


def read_back(markup: str) -> tuple[list[int], list[str], list[int]]:
    """What a reader sees: the line numbers, the text of each code line, and which of
    those lines are marked (1-based)."""
    numbers = [int(n) for n in re.findall(r'<span class="normal">(\d+)</span>', markup)]
    code = markup.split('<td class="code">', 1)[1]
    code = code.split("<code>", 1)[1].rsplit("</code>", 1)[0]
    rows = code.split("\n")[:-1]  # Pygments ends each line with its newline
    texts = [html.unescape(re.sub(r"<[^>]+>", "", row)) for row in rows]
    marked = [i for i, row in enumerate(rows, 1) if 'class="hll"' in row]
    return numbers, texts, marked


@pytest.mark.parametrize("case", CASES)
def test_the_cited_lines_are_marked_and_numbered_as_in_the_file(tmp_path: Path, case: str) -> None:
    data, start, end = CASES[case]
    lines, markup, first = highlighted(tmp_path, data, start, end)
    numbers, texts, marked = read_back(markup)
    shown = lines[first - 1 : first - 1 + len(numbers)]
    assert numbers == list(range(first, first + len(shown)))
    assert len(texts) == len(numbers)  # a number beside every line, none left over
    expected = [line.replace("\r", CARRIAGE_RETURN).expandtabs(4).rstrip() for line in shown]
    assert [text.rstrip() for text in texts] == expected
    assert [first + i - 1 for i in marked] == list(range(start, end + 1))
    assert first == max(1, start - 3) and first + len(numbers) - 1 == min(len(lines), end + 3)


def test_a_site_keeps_its_own_highlight_options() -> None:
    """A site's pymdownx.highlight options reach its excerpts; the options given stay as
    they were (only excerpts keep blank edge lines)."""
    configs = {"pymdownx.highlight": {"linenums_style": "inline", "css_class": "code"}}
    highlighter = Highlighter(configs)
    assert highlighter.options == HighlightOptions(linenums_style="inline", css_class="code")
    assert configs == {"pymdownx.highlight": {"linenums_style": "inline", "css_class": "code"}}

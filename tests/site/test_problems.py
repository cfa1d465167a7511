"""A register that loads but has mistakes shows each on its page, at its entry, and the
overview counts the pages with problems; a strict build still fails on them."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest

from compat_register import api
from compat_register.model.diagnostic import Diagnostic
from compat_register.site import problems
from test_plugin import build, html

MISTAKES = [
    (
        "    status: {state: done, note: Typed in schema.ts since the first revision.}\n",
        "    status:\n      state: done\n    note: Typed in schema.ts since the first revision.\n",
    ),
    ("an open map, with no named keys.", "an open map (unlike EX-12)."),
    (
        "    risk: None.\n    sources:\n      - 'spec:",
        "    risk: None.\n    sorces:\n      - 'spec:",
    ),  # noqa: E501
]
"""A `note:` dedented out of `status:`, a misspelt `sources:`, a reference to no entry."""


@pytest.fixture
def mistaken(tmp_path: Path) -> Path:
    return with_mistakes(tmp_path)


def with_mistakes(root: Path) -> Path:
    """A new project (`register init`) whose register still loads but holds `MISTAKES`."""
    api.init(root, "problems")
    example = root / "registers" / "example.yaml"
    text = example.read_text(encoding="utf-8")
    for old, new in MISTAKES:
        assert old in text
        text = text.replace(old, new, 1)
    example.write_text(text, encoding="utf-8")
    return root


def test_each_problem_is_shown_at_its_entry(mistaken: Path, monkeypatch) -> None:
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(mistaken)
    config = load_config(str(mistaken / "mkdocs.yml"), site_dir=str(mistaken / "site"))
    config.plugins.on_startup(command="serve", dirty=False)  # as mkdocs serve builds
    mkdocs_build(config)
    page = unescape(html(mistaken, "registers/example"))
    first, second = page.index('id="ex-01"'), page.index('id="ex-02"')
    note = page.index("unknown field 'note' here")
    dangling, misspelt = page.index("EX-12 does not exist"), page.index("'sorces'")
    assert first < note < second < dangling < misspelt  # each under its own entry
    assert "EX-02 has 3 problems (mkdocs build --strict fails on them)" in page
    overview = html(mistaken, "registers")
    assert "1 register page has problems, shown on the page" in overview
    assert 'href="example/">example</a>: 4 problems' in overview


def test_a_strict_build_still_fails(mistaken: Path) -> None:
    done = build(mistaken)
    assert done.returncode == 1
    assert "EX-12 does not exist" in done.stderr


def test_a_valid_register_shows_no_problem_block(tmp_path: Path) -> None:
    api.init(tmp_path, "fine")
    assert build(tmp_path).returncode == 0
    assert "mkdocs build --strict fails on" not in html(tmp_path, "registers/example")
    assert "have problems" not in html(tmp_path, "registers")


def diagnostic(id: str, message: str, severity: str = "error") -> Diagnostic:
    return Diagnostic(
        file="r.yaml",
        line=3,
        col=5,
        severity=severity,
        id=id,
        code="x",
        message=message,  # type: ignore[arg-type]
    )


def test_the_block_shows_markup_as_text() -> None:
    text = problems.block([diagnostic("T-01", "unknown field '<b>*x*</b>'")], "T-01 has")
    assert text.startswith('!!! failure "T-01 has 1 problem (mkdocs build --strict fails on it)"')
    assert "&lt;b&gt;" in text and "\\*x\\*" in text and "`r.yaml:3:5`" in text
    warned = problems.block([diagnostic("T-01", "w", severity="warning")], "T-01 has")
    assert warned.startswith("!!! warning ")

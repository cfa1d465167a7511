"""A prose field costs bounded work: one Python-Markdown would spend seconds or minutes on
(nested brackets are quadratic there) is refused by `register check`, located, and never
converted on the site; an image on another host is shown as a link, never loaded."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from compat_register import api
from compat_register.citations.bounds import MAX_BRACKETS, MAX_CHARS, nesting, over_bounds
from compat_register.cli import main
from compat_register.site import urls as layout
from compat_register.site.markdown import OVER_BOUNDS, Linker, prose
from pagehtml import to_html
from registerfiles import register_head

CASES = Path(__file__).parent.parent / "cases"
NESTED = "[" * 10_000 + "x" + "]" * 10_000  # 20 KB: Python-Markdown took 14-21 s on it
HANG = 120
"""Wall seconds after which a conversion counts as hung: far above any run, loaded machine
included. What a conversion costs is counted in CPU seconds of its own thread, which other
processes on the machine do not inflate."""


@pytest.fixture
def meta_linker() -> Linker:
    registers = api.check(CASES / "base").registers
    return Linker(registers.sources, {}, "registers/meta.md", layout.relative, {})


def finishes(work: object) -> tuple[object, float]:
    """Run `work()` in a thread: what it returned and the CPU seconds it took; fail when it
    is still running after HANG seconds."""
    done: list[tuple[object, float]] = []

    def timed() -> None:
        started = time.thread_time()
        returned = work()  # type: ignore[operator]
        done.append((returned, time.thread_time() - started))

    thread = threading.Thread(target=timed, daemon=True)
    thread.start()
    thread.join(HANG)
    assert done, f"still running after {HANG} s"
    return done[0]


def test_a_nested_bracket_field_is_refused_by_check_located(tmp_path: Path) -> None:
    registers = tmp_path / "registers"
    shutil.copytree(CASES / "base", registers)
    entry = f"""  - id: T-01
    title: Entry
    what: '{NESTED}'
    status: {{state: missing}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: None.
    sources: []
"""
    (registers / "t.yaml").write_text(register_head(subject="mcpx") + entry, "utf-8")
    result, _ = finishes(lambda: CliRunner().invoke(main, ["check", "--registers", str(registers)]))
    out = result.output  # type: ignore[attr-defined]
    assert "t.yaml:12:11: error: T-01: this field is 20,001 characters long" in out, out


@pytest.mark.parametrize(
    "text",
    [NESTED, "[a" * (MAX_BRACKETS + 1), "![a](" * 4000, "x" * (MAX_CHARS + 1), "[" * 9 + "]" * 9],
)
def test_a_field_over_a_bound_is_not_converted(text: str, meta_linker: Linker) -> None:
    assert over_bounds(text)
    shown, _ = finishes(lambda: prose(text, meta_linker))
    assert shown == OVER_BOUNDS
    assert "register check" in to_html(str(shown))


def test_a_field_within_the_bounds_converts_quickly(meta_linker: Linker) -> None:
    worst = "[" * 7 + "![a](" * (MAX_BRACKETS - 7) + "b" * (MAX_CHARS - 5 * MAX_BRACKETS)
    assert over_bounds(worst) is None
    _, cpu = finishes(lambda: to_html(prose(worst, meta_linker)))
    assert cpu < 10, cpu  # about 0.1 s; Python-Markdown took 14-21 s on NESTED


def test_nesting_counts_open_brackets() -> None:
    assert (nesting("a [b [c] d] [e]"), nesting("[[["), nesting("]]][")) == (2, 3, 1)


def test_an_image_on_another_host_is_a_link(meta_linker: Linker) -> None:
    html = to_html(prose("See ![a pixel](https://tracker.example/p.gif) here.", meta_linker))
    assert "<img" not in html
    assert '<a href="https://tracker.example/p.gif">a pixel</a>' in html
    assert "<img" not in to_html(prose("![](https://tracker.example/p.gif)", meta_linker))


def test_an_image_of_the_site_itself_stays_an_image(meta_linker: Linker) -> None:
    html = to_html(prose("![diagram](../assets/flow.svg)", meta_linker))
    assert '<img alt="diagram" src="../assets/flow.svg"' in html

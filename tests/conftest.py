"""Shared fixtures: `run_line` runs the `register` command in-process, like a shell would;
`go_registers` and `history` are projects tests/builder.py and tests/historyrepo.py build;
`browser`, `browser_without_js` and `axe_script` drive headless Chromium (tests/browsing.py);
`site` and `excerpt_site` are the sites the browser tests read (tests/sites.py), served."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import is_hypothesis_test, settings

import axecheck
import browsing
import builder
import sites
import tiers
from compat_register.cli import main
from compat_register.site import memo
from historyrepo import History, build_history

RunLine = Callable[[Sequence[str]], Result]

# Two tiers (README.md, docs/architecture.md): `pytest` runs the default tier, every behaviour
# once, in a few minutes; `pytest --long` runs the long tier alone: the tests marked `slow`
# (random kills, every page in every scheme and width, ProperDocs in the browser,
# rebuild-equals-cold) and every property test again at its full examples (tests/tiers.py).
# .ci/run runs both.
# Under CI (CI=true, as .ci/run runs) every property test draws the same examples each run,
# so that a landing is judged on what its author ran; a developer's runs draw new examples
# and keep any failure they find in .hypothesis/ (hypothesis' own database) until it is fixed.
# No deadline in any profile: hypothesis's per-example deadline times each example, and a
# shared two-core machine makes a first call slow (a DeadlineExceeded that says nothing about
# the code); tests here time nothing, bench/ measures speed.
EXAMPLES = {"default": 10, "long": 100}
"""A property test's examples where it names none; one that does names them through
tiers.examples, which draws a tenth of them in the default tier."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--long",
        action="store_true",
        help="run the long tier alone: the tests marked slow, and every property test "
        "at its full examples (the default tier draws a tenth)",
    )


def pytest_configure(config: pytest.Config) -> None:
    tiers.LONG = config.getoption("long")
    tier = "long" if tiers.LONG else "default"
    ci = {"derandomize": True, "print_blob": True} if os.environ.get("CI") == "true" else {}
    settings.register_profile(tier, max_examples=EXAMPLES[tier], deadline=None, **ci)
    settings.load_profile(tier)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep the tier asked for; a test named by its id outside it is deselected too."""
    long = config.getoption("long")
    keep: list[pytest.Item] = []
    drop: list[pytest.Item] = []
    for item in items:
        (keep if _in_tier(item, long) else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _in_tier(item: pytest.Item, long: bool) -> bool:
    """The default tier is every test not marked `slow`; the long one the `slow` tests and
    the property tests (again, at their full examples)."""
    slow = item.get_closest_marker("slow") is not None
    if not long:
        return not slow
    return slow or (isinstance(item, pytest.Function) and is_hypothesis_test(item.obj))


SUITE_SWITCHES = {
    "REGISTER_INSTALL_TEST",  # tests/test_install.py runs
    "REGISTER_UPDATE_GOLDEN",  # the golden tests rewrite their files
    "REGISTER_PROPERTY_EXAMPLES",  # tests/following/test_never_silently_wrong.py's examples
    "REGISTER_SHOTS",  # tests/site/test_browser.py saves screenshots there
}
"""The suite's own switches: the only REGISTER_* variables of the caller's a test sees."""


@pytest.fixture(autouse=True)
def _without_the_callers_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """No REGISTER_* variable of the shell the suite runs in (a `REGISTER_SOURCE_SPEC` set
    for a local clone, a `REGISTER_CACHE`) and no GIT_* one (a `GIT_DIR` left by a hook):
    each test sets what it means to test, and its outcome is the same in any shell."""
    for name in list(os.environ):
        if name.startswith("GIT_") or (name.startswith("REGISTER_") and name not in SUITE_SWITCHES):
            monkeypatch.delenv(name)


@pytest.fixture(autouse=True)
def _no_page_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """No page kept from another test (`site.memo` keeps pages by their inputs, and a test
    may patch the code that renders them)."""
    monkeypatch.setattr(memo, "KEPT", {})


@pytest.fixture
def run_line() -> RunLine:
    """`run_line(["check", "--registers", str(dir)])` -> click's `Result` (stdout, stderr apart),
    under the program name a user types (`Usage: register check ...`)."""

    def run(args: Sequence[str]) -> Result:
        return CliRunner().invoke(main, list(args), prog_name="register")

    return run


@pytest.fixture
def go_registers(tmp_path: Path) -> Path:
    """A registers folder of one unpinned-checkout subject, the Go SDK (builder.go_registers)."""
    return builder.go_registers(tmp_path)


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> History:
    """The project of tests/historyrepo.py, with its history, for tests that only read it."""
    return build_history(tmp_path_factory.mktemp("history"))


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """Headless Chromium, one for each test module that asks."""
    yield from browsing.chromium(tmp_path_factory.mktemp("chromium-profile"))


@pytest.fixture
def sized(browser, request):  # type: ignore[no-untyped-def]
    """The browser at the width the test is parametrized with (`width`)."""
    browser.set_window_size(request.getfixturevalue("width"), 900)
    try:
        yield browser
    finally:
        browser.set_window_size(1400, 1000)


@pytest.fixture(scope="module")
def browser_without_js(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    yield from browsing.chromium(tmp_path_factory.mktemp("chromium-profile"), javascript=False)


@pytest.fixture(scope="module")
def axe_script() -> str:
    return axecheck.script()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The repository's own site and a hostile register, built strict and served; its URL."""
    yield from browsing.built_and_served(sites.repository_site(tmp_path_factory.mktemp("site")))


@pytest.fixture(scope="module")
def excerpt_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The golden registers pinned to a real checkout, built strict and served; its URL."""
    root = tmp_path_factory.mktemp("excerpts")
    yield from browsing.built_and_served(root, sites.excerpt_site(root))

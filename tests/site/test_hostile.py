"""A hostile register set through both ways to a site: no live script, handler or
`javascript:` URL comes out.

tests/site/hostile/registers/ tries every field: IDs that are not IDs, titles, prose with raw
HTML, comment and `<noscript>` tricks, quotes, paths, a file name with a space, quote and
parentheses, tags, link targets (prose links, link patterns, a repository URL), `_meta`
values, and a register file that does not load (its name and its YAML's keys hostile too).
Every payload sets `window.__pwned`. The site is built twice:

- `mkdocs build` with the `register` plugin (its pages pass through nh3 as well);
- `register render --out docs` and a plain MkDocs build that has no plugin of ours, so the
  Markdown itself must be safe.

Each built page is read as a browser reads it (html5ever, through `sanitize.reparsed`): the
article must hold nothing live at all, and the whole page (material's own scripts included)
no script, handler or URL of ours. With Debian's chromium present, each page is also opened
in it and `window.__pwned` must stay undefined.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import browsing
import builder
import engines
from compat_register.site import sanitize
from compat_register.site.extensions import mkdocs_yaml
from conftest import RunLine
from gitrepo import GitRepo
from pagehtml import live

HOSTILE = Path(__file__).parent / "hostile" / "registers"
PAGES = [
    "registers",
    "registers/hos",
    "registers/health",
    "registers/odd name(1)'x",
    "registers/priorities",
    "registers/revisions",
    "registers/revisions/2025-06-18",
    "registers/matrix",
    "registers/concepts/hos.thing",
]
MARKER = "__pwned"

PLUGIN_SITE = """\
site_name: hostile
theme: {name: material}
plugins:
  - search
  - tags
  - register
nav:
  - Home: index.md
"""  # with a nav, the plugin appends its pages to it, titled by the registers

PLAIN_SITE = """\
site_name: hostile
theme: {name: material}
plugins:
  - search
extra_css: [assets/compat-register/register.css]
extra_javascript: [assets/compat-register/register.js]
"""


def mkdocs_build(root: Path, engine: str = "mkdocs") -> None:
    """A build that is not strict: the hostile registers have errors, and pages are built.
    `engine`: `mkdocs`, or `properdocs` (MkDocs 1.x continued, running the same plugin)."""
    done = subprocess.run(
        [sys.executable, "-m", engine, "build", "-f", "mkdocs.yml", "-d", "site"],
        cwd=root,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


SUBJECT = "<img src=x onerror=window.__pwned=1> [x](javascript:window.__pwned=1) {: onclick=x}"


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plugin's site, in a git repository whose commits have hostile subjects: the
    Changes page shows them, and the charts name the hostile register."""
    return plugin_build(tmp_path_factory, "mkdocs")


@pytest.fixture(scope="module")
def properdocs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same site built by ProperDocs through the same plugin."""
    return plugin_build(tmp_path_factory, "properdocs")


def plugin_build(tmp_path_factory: pytest.TempPathFactory, engine: str) -> Path:
    root = tmp_path_factory.mktemp(engine)
    repo = GitRepo(root)
    shutil.copytree(HOSTILE, root / "registers")
    builder.site(root, PLUGIN_SITE + mkdocs_yaml(), {"index.md": "# Home\n"})
    repo.commit(SUBJECT)
    hostile = root / "registers" / "hos.yaml"
    hostile.write_text(hostile.read_text().replace("state: n/a", "state: missing"))
    repo.commit(f"{SUBJECT} again")
    mkdocs_build(root, engine)
    return root / "site"


def render_hostile(root: Path) -> None:
    """`register render --out docs` of the hostile registers into `root/docs`."""
    from click.testing import CliRunner

    from compat_register.cli import main

    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Home\n")
    done = CliRunner().invoke(
        main,
        [
            "render",
            "--registers",
            str(HOSTILE),
            "--offline",
            "--no-history",
            "--out",
            str(root / "docs"),
        ],
    )
    assert "nothing written" not in done.output, done.output
    assert (root / "docs" / "registers" / "hos.md").is_file(), done.output


@pytest.fixture(scope="module")
def plain_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plain")
    render_hostile(root)
    (root / "mkdocs.yml").write_text(PLAIN_SITE + mkdocs_yaml())
    mkdocs_build(root)
    return root / "site"


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rendered pages built by Zensical, with the mkdocs.yml `register init --engine
    zensical` writes: its own templates print page and nav titles (docs/publishing.md)."""
    if not engines.installed("zensical"):
        pytest.skip("Zensical is not installed (the `engines` extra)")
    root = tmp_path_factory.mktemp("zensical")
    render_hostile(root)
    (root / "mkdocs.yml").write_text(engines.config("zensical", "hostile"))
    done = subprocess.run(
        [sys.executable, "-m", "zensical", "build"],  # not strict: the registers have errors
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "site"


def page_html(site: Path, page: str) -> str:
    return (site / page / "index.html").read_text(encoding="utf-8")


def article(page: str) -> str:
    found = re.search(r"<article\b.*?</article>", page, re.DOTALL)
    assert found, "no <article> in the page"
    return found[0]


def ours(page: str) -> list[str]:
    """What runs in the whole page and carries a payload (material's chrome runs scripts
    of its own, which are none of ours)."""
    return [item for item in live(page) if MARKER in item or "javascript:" in item.lower()]


@pytest.mark.parametrize("build", ["plugin_site", "plain_site"])
@pytest.mark.parametrize("page", PAGES)
def test_no_payload_is_live(build: str, page: str, request: pytest.FixtureRequest) -> None:
    html = page_html(request.getfixturevalue(build), page)
    assert MARKER in html  # the payloads reached the page, as text
    assert live(article(html)) == []
    assert ours(html) == []


@pytest.mark.parametrize("build", ["plugin_site", "properdocs_site", "plain_site", "zensical_site"])
def test_no_page_or_nav_title_carries_live_markup(
    build: str, request: pytest.FixtureRequest
) -> None:
    """Every page the site has, whole (its `<title>`, the nav on it): a register's title
    and a revision's name become page and nav titles, which material prints through
    `striptags`, undoing the page's escaping; a revision name that is not a safe token
    (`</title><script>...`) is refused by the schema, and so no page is made of it."""
    site = request.getfixturevalue(build)
    pages = sorted(site.rglob("*.html"))
    found = {page.relative_to(site).as_posix(): ours(page.read_text()) for page in pages}
    assert {page: items for page, items in found.items() if items} == {}
    assert sorted(p.name for p in (site / "registers" / "revisions").iterdir()) == [
        "2025-06-18",
        "2026-07-28",
        "index.html",
    ]


@pytest.mark.parametrize("build", ["plugin_site", "plain_site"])
def test_the_hostile_page_shows_its_text(build: str, request: pytest.FixtureRequest) -> None:
    """Escaped, not dropped: a reader sees what the register holds."""
    html = article(page_html(request.getfixturevalue(build), "registers/hos"))
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in html
    assert 'id="hos-02-img-src-x-onerror-window-pwned-1"' in html  # an anchor, a slug
    assert "<!--" not in html and "<noscript" not in html


def test_the_changes_page_shows_hostile_commits_as_text(plugin_site: Path) -> None:
    html = page_html(plugin_site, "registers/changes")
    assert "&lt;img src=x onerror=window.__pwned=1&gt;" in article(html)
    assert '<svg class="reg-chart"' in html  # the chart of the hostile register is there
    assert live(article(html)) == [] and ours(html) == []


def test_a_register_that_does_not_load_is_named_as_text(plugin_site: Path) -> None:
    html = article(page_html(plugin_site, "registers/brk<b>"))
    assert "registers/brk&lt;b&gt;.yaml does not load" in html and "<b>" not in html
    assert live(html) == []


def test_render_refuses_a_page_the_sanitizer_would_change(
    tmp_path: Path, run_line: RunLine
) -> None:
    """A site's template that writes a handler: `render` writes nothing at all."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "health.md.j2").write_text('# Health\n\n<img src="x.png" onerror="x()">\n')
    out = tmp_path / "out"
    done = run_line(
        [
            "render",
            "--registers",
            str(HOSTILE),
            "--offline",
            "--no-history",
            "--templates",
            str(templates),
            "--out",
            str(out),
        ]
    )
    assert done.exit_code == 1
    assert "registers/health.md: the page would carry HTML that the sanitizer removes" in (
        done.output
    )
    assert "<img onerror='x()'>" in done.output and "nothing written" in done.output
    assert not out.exists()


def render_offline(out: Path, run_line: RunLine):  # type: ignore[no-untyped-def]
    return run_line(
        ["render", "--registers", str(HOSTILE), "--offline", "--no-history", "--out", str(out)]
    )


def test_render_refuses_prose_whose_escaping_failed(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the packaged templates render reads the prose the pages printed, and that
    check still fails: prose escaping that lets raw HTML through writes nothing at all."""
    monkeypatch.setattr("compat_register.site.markdown.escape_html", lambda text: text)
    done = render_offline(tmp_path / "out", run_line)
    assert done.exit_code == 1
    # which page holding the hostile prose is named first differs with Markdown's version
    refusal = r"registers/(hos|index)\.md: the page would carry HTML that the sanitizer removes"
    assert re.search(refusal + r" \(<(img|script)", done.output), done.output
    assert "nothing written" in done.output and not (tmp_path / "out").exists()


def test_every_page_render_writes_of_hostile_registers_is_clean_whole(
    tmp_path: Path, run_line: RunLine
) -> None:
    """What lets render read only the prose: our templates escape every other value they
    print. Held on the hostile registers (payloads in keys, IDs, titles, revisions, links):
    every page it writes, converted whole as render once checked it, holds nothing the
    sanitizer removes."""
    render_offline(tmp_path / "out", run_line)
    pages = sorted((tmp_path / "out").rglob("*.md"))
    assert pages
    for page in pages:
        assert sanitize.unexpected(sanitize.to_html(page.read_text("utf-8"))) == [], page


def test_render_reads_the_prose_not_the_pages_our_templates_write(
    tmp_path: Path, run_line: RunLine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Our templates' own HTML and escaped values are safe by construction
    (`site.jinja`): only the prose they printed is converted, each string once."""
    converted: list[str] = []
    to_html = sanitize.to_html
    monkeypatch.setattr(sanitize, "to_html", lambda text: converted.append(text) or to_html(text))
    assert render_offline(tmp_path / "out", run_line).exit_code == 1  # the registers have errors
    assert (tmp_path / "out" / "registers" / "hos.md").is_file()
    assert converted and len(converted) == len(set(converted))
    assert not [text for text in converted if "data-reg-filters" in text or "---\n" in text]
    assert any("window.__pwned" in text for text in converted)  # the hostile prose is read


@browsing.needs_chromium
@pytest.mark.parametrize("build", ["plugin_site", "plain_site"])
def test_nothing_runs_in_chromium(build: str, request: pytest.FixtureRequest, browser) -> None:  # type: ignore[no-untyped-def]
    """Each page opened from disk in headless Chromium: no payload ran."""
    site = request.getfixturevalue(build)
    extra = ["registers/changes", "registers/brk<b>"] if build == "plugin_site" else []
    for page in PAGES + extra:
        browser.get((site / page / "index.html").as_uri())
        for link in browser.find_elements("css selector", "a[href]"):
            assert not link.get_attribute("href").lower().startswith("javascript:")
        assert browser.execute_script("return typeof window.__pwned") == "undefined", page

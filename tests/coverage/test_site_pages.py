"""The Coverage pages as `register render --out` writes them (the site's one build): with
the statement source's checkout, offline, and without a checkout."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from compat_register.cli import main
from specrepo import NEW, OLD, registers_for, spec_repo


def render(registers: Path, out: Path, env: dict[str, str], *more: str) -> dict[str, str]:
    result = CliRunner().invoke(
        main, ["render", "--registers", str(registers), "--out", str(out), *more], env=env
    )
    assert result.exit_code in (0, 1), result.output
    return {
        str(path.relative_to(out)): path.read_text()
        for path in out.rglob("*.md")
        if "coverage" in str(path) or path.name in ("t.md", "index.md", f"{NEW}.md")
    }


def test_the_pages_with_the_statement_source_s_checkout(tmp_path: Path) -> None:
    repo, commit = spec_repo(tmp_path / "spec")
    registers = registers_for(tmp_path / "registers", commit)
    env = {"REGISTER_SOURCE_SPEC": str(repo.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    pages = render(registers, tmp_path / "out", env)
    summary = pages["registers/coverage/index.md"]
    assert f"| [{OLD}]({OLD}.md){{ .reg-nowrap }} | 5 | 1 | 0 | 0 | 4 | 20.0% |" in summary
    revision = pages[f"registers/coverage/{NEW}.md"]
    assert "## Needs a look" in revision
    assert f"[basic/index.mdx]({NEW}/basic-index.md) | 5 | 1 excluded, 4 uncovered | 20.0% |" in (
        revision
    )
    assert "Clients MAY cancel" not in revision  # its statements are on the file's page
    page = pages[f"registers/coverage/{NEW}/basic-index.md"]
    assert "| 17 | MAY | Clients MAY cancel a request. *(new)* |" in page
    assert (
        "Cancellation is the host's, not the proxy's. ([link](https://example.com/issues/7))"
        in page
    )
    assert f"[schema.ts]({NEW}/schema.md)" in revision
    assert (
        f"[{OLD}](coverage/{OLD}/basic-index.md){{ .reg-link }} `{OLD}/basic/index.mdx:12-13`"
        in (pages["registers/t.md"])
    )
    changelog = pages[f"registers/revisions/{NEW}.md"]
    assert "- IDs may be strings (SEP-12). — [T-01](../t.md#t-01)" in changelog
    assert "- Cancellation (PR \\#40). — *no entry*" in changelog
    assert "[coverage](coverage/index.md)" in pages["registers/index.md"]


def test_offline_or_without_a_checkout_no_statement_is_shown_and_the_summary_says_why(
    tmp_path: Path,
) -> None:
    repo, commit = spec_repo(tmp_path / "spec")
    registers = registers_for(tmp_path / "registers", commit)
    env = {"REGISTER_SOURCE_SPEC": str(repo.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    offline = render(registers, tmp_path / "offline", env, "--offline")
    assert "an offline build: no citation was verified" in offline["registers/coverage/index.md"]
    assert f"registers/coverage/{NEW}.md" not in offline
    missing = render(registers, tmp_path / "missing", {"REGISTER_CACHE": str(tmp_path / "c2")})
    assert (
        "spec: its citations were not verified (no checkout to read"
        in missing["registers/coverage/index.md"]
    )
    assert "Statements covered" not in missing["registers/t.md"]


def test_a_register_named_coverage_clashes_with_the_coverage_page(tmp_path: Path) -> None:
    repo, commit = spec_repo(tmp_path / "spec")
    registers = registers_for(tmp_path / "registers", commit)
    (registers / "coverage.yaml").write_text(
        (registers / "t.yaml").read_text().replace("prefix: T", "prefix: CV").replace("T-0", "CV-0")
    )
    env = {"REGISTER_SOURCE_SPEC": str(repo.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    result = CliRunner().invoke(
        main, ["render", "--registers", str(registers), "--out", str(tmp_path / "out")], env=env
    )
    assert "is also the site's Coverage page: rename the file" in result.output


def test_the_nav_lists_the_coverage_pages_the_build_made(tmp_path: Path) -> None:
    """The one site build's nav (every engine's): the summary and each revision's page
    when the statements were read; offline, the summary alone (it says why)."""
    from compat_register import api

    repo, commit = spec_repo(tmp_path / "spec")
    registers = registers_for(tmp_path / "registers", commit)
    env = {"REGISTER_SOURCE_SPEC": str(repo.root), "REGISTER_CACHE": str(tmp_path / "cache")}
    options = api.SiteOptions(history=False)

    def coverage_nav(options: api.SiteOptions) -> list[dict[str, str]]:
        site = api.build_site(registers, options, settings=api.Settings.read(env))
        return next(item["Coverage"] for item in site.nav if "Coverage" in item)

    assert coverage_nav(options) == [
        {"Every revision": "registers/coverage/index.md"},
        {f"Coverage of {OLD}": f"registers/coverage/{OLD}.md"},
        {f"Coverage of {NEW}": f"registers/coverage/{NEW}.md"},
    ]
    offline = api.SiteOptions(history=False, verify=False)
    assert coverage_nav(offline) == [{"Every revision": "registers/coverage/index.md"}]


def test_out_of_scope_statements_are_counted_apart_on_the_pages(tmp_path: Path) -> None:
    from test_scope import PAGES, REASON, project

    registers, env = project(tmp_path, PAGES)
    pages = render(registers, tmp_path / "out", {**env, "REGISTER_CACHE": str(tmp_path / "c")})
    assert (
        f"| [{OLD}]({OLD}.md){{ .reg-nowrap }} | 5 | 1 | 0 | 1 | 3 | 25.0% |"
        in pages["registers/coverage/index.md"]
    )
    schema = pages[f"registers/coverage/{OLD}/schema.md"]
    assert (
        "1 statements: 0 cited, 0 excluded, 0 uncovered, 1 out of scope (none in scope)" in schema
    )
    assert "reg-coverage--out-of-scope" in schema and REASON in schema
    # a file left out whole is not "100.0%" covered
    assert (
        f"[schema.ts]({OLD}/schema.md) | 1 | 1 out of scope | none in scope |"
        in (pages[f"registers/coverage/{OLD}.md"])
    )


def test_each_file_s_page_name_is_unique_in_its_revision_and_never_index() -> None:
    from compat_register.coverage.sitecoverage import file_slugs
    from compat_register.coverage.states import Row
    from compat_register.site.urls import Layout
    from compat_register.statements.statement import Statement

    paths = ["docs/R/index.mdx", "docs/R/a/b.mdx", "schema/R/a/b.ts", "README.md"]
    rows = [Row("spec", "R", Statement(path, 1, 1, "MUST", "x")) for path in paths]
    slugs = file_slugs(rows)
    assert list(slugs.values()) == ["index", "a-b", "a-b-2", "README"]
    assert Layout().coverage_file("R", slugs["spec", "docs/R/index.mdx"]) == (
        "registers/coverage/R/index-.md"  # `R/index.md` would be the revision's own URL
    )

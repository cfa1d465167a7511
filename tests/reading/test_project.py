"""Commands find the project from any folder inside it, as git finds its repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from compat_register import api
from compat_register.reading import projectdir as project
from compat_register.storage.settings import REGISTERS_VARIABLE, Settings
from conftest import RunLine


@pytest.fixture
def made(tmp_path: Path) -> Path:
    """A project from `register init`, with a nested folder to run commands from."""
    api.init(tmp_path / "proj", "proj")
    (tmp_path / "proj" / "docs" / "deep" / "er").mkdir(parents=True)
    return tmp_path / "proj"


def test_nearest_project_above_the_working_directory(made: Path) -> None:
    found = project.find_above(made / "docs" / "deep" / "er")
    assert found == Path("../../../registers")
    assert project.find_above(made) == Path("registers")  # named as before, relative


def test_a_mkdocs_yml_naming_the_plugin_names_the_folder(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\nplugins:\n  - search\n  - register:\n      registers: data/regs\n"
        "markdown_extensions:\n  - pymdownx.emoji:\n"
        "      emoji_index: !!python/name:material.extensions.emoji.twemoji\n",
        encoding="utf-8",
    )
    (tmp_path / "sub").mkdir()
    assert project.find_above(tmp_path / "sub") == Path("../data/regs")


def test_a_mkdocs_yml_without_the_plugin_is_not_a_project(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins: [search]\n", encoding="utf-8")
    assert project.find_above(tmp_path) is None
    (tmp_path / "mkdocs.yml").write_text("plugins: [: broken\n", encoding="utf-8")
    assert project.find_above(tmp_path) is None


def test_explicit_folder_wins_then_the_environment(tmp_path: Path) -> None:
    env = Settings.read({REGISTERS_VARIABLE: "elsewhere"})
    assert project.registers_folder(Path("given"), env, tmp_path) == Path("given")
    assert project.registers_folder(None, env, tmp_path) == Path("elsewhere")
    assert project.registers_folder(None, Settings(), tmp_path) is None


def test_check_from_a_subfolder(made: Path, run_line: RunLine, monkeypatch) -> None:
    (made / "registers" / "example.yaml").write_text(
        (made / "registers" / "example.yaml").read_text(encoding="utf-8") + "bogus: 1\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(made / "docs" / "deep" / "er")
    result = run_line(["check"])
    assert result.exit_code == 1, result.output
    # The file is named from where the command ran, so that an editor opens it.
    assert result.stdout.startswith(f"{Path('../../../registers/example.yaml')}:")


def test_global_option_and_environment_variable(
    made: Path, run_line: RunLine, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run_line(["check"]).exit_code == 2
    result = run_line(["--registers", str(made / "registers"), "check"])
    assert (result.exit_code, result.stdout) == (0, "0 errors, 0 warnings\n"), result.output
    monkeypatch.setenv(REGISTERS_VARIABLE, str(made / "registers"))
    result = run_line(["check"])
    assert (result.exit_code, result.stdout) == (0, "0 errors, 0 warnings\n"), result.output


def test_no_project_says_how_to_name_one(run_line: RunLine, monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(REGISTERS_VARIABLE, raising=False)
    result = run_line(["verify"])
    assert result.exit_code == 2
    assert "--registers DIR or REGISTER_DIR" in result.output
    assert "Traceback" not in result.output

"""A site build's notices: coded Diagnostics among its diagnostics, after the problems."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compat_register import api

GOLDEN = Path(__file__).parent.parent / "golden" / "basic" / "registers"


def test_no_repository_is_an_info_notice_after_the_problems(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registers = tmp_path / "registers"
    shutil.copytree(GOLDEN, registers)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no repository above
    site = api.build_site(registers, api.SiteOptions(verify=False))
    [notice] = site.notices
    assert (notice.code, notice.severity, notice.id) == ("no-repository", "info", "history")
    assert notice.message.startswith("no Changes page: ")
    assert site.diagnostics[-1] == notice
    assert notice not in [d for _, d in site.levelled()]  # not a problem of a register file
    assert site.levelled_notices() == [("info", notice)]
    assert not site.failed


def test_without_history_there_is_no_notice(tmp_path: Path) -> None:
    registers = tmp_path / "registers"
    shutil.copytree(GOLDEN, registers)
    site = api.build_site(registers, api.SiteOptions(verify=False, history=False))
    assert site.notices == [] and site.levelled_notices() == []

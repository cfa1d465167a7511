"""The repository's own registers load cleanly and export every META entry."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from compat_register.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_repository_registers_check_clean() -> None:
    result = CliRunner().invoke(main, ["check", "--registers", str(ROOT / "registers")])
    assert result.exit_code == 0, result.output
    assert "0 errors" in result.output


def test_export_holds_all_meta_entries_with_parsed_citations() -> None:
    result = CliRunner().invoke(main, ["export", "--registers", str(ROOT / "registers")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    meta = next(register for register in data["registers"] if register["slug"] == "meta")
    ids = [entry["id"] for entry in meta["entries"]]
    assert ids == [f"META-{n:02d}" for n in range(1, 12)]
    meta07 = meta["entries"][6]
    first = meta07["citations"][0]
    assert first["source"] == "spec"
    assert first["path"] == "docs/specification/2026-07-28/basic/index.mdx"
    assert first["lines"] == [421, 421]
    assert first["quote"].startswith("As an exception to the prefix requirement")
    assert meta07["backlinks"] == ["META-10"]
    prose = [c for c in meta["entries"][0]["citations"] if c["in_prose"]]
    assert prose[0]["path"] == "internal/mcpclient/modern.go"
    assert prose[0]["lines"] == [73, 81]

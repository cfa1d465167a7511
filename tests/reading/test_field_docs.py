"""docs/authoring.md lists every field of an entry the schema knows, required and optional,
so a field added to the schema and not to the guide fails here."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_the_authoring_guide_names_every_entry_field() -> None:
    schema = json.loads((ROOT / "docs/schema/register.schema.json").read_text(encoding="utf-8"))
    entry = schema["$defs"]["entry"]
    guide = (ROOT / "docs/authoring.md").read_text(encoding="utf-8")
    paragraph = guide[guide.index("Required on every entry:") :].split("\n\n", 1)[0]
    required, optional = paragraph.split("Optional:", 1)
    named = set(re.findall(r"`([a-z_]+)`", required))
    assert named == set(entry["required"])
    listed = {name for name in re.findall(r"`([a-z_]+)`", optional) if name in entry["properties"]}
    assert listed | named == set(entry["properties"])

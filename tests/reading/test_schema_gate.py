"""The fast validity gate (fastjsonschema) and jsonschema agree on every test document.

schema.validate trusts the gate on valid documents, so a document the gate passes but
jsonschema rejects would lose its diagnostics: this test holds the two to one verdict.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compat_register.reading import schema
from compat_register.reading.document import Document
from compat_register.reading.loader import load_file

TESTS = Path(__file__).parents[1]
FILES = sorted(
    path
    for pattern in ("cases/**/*.yaml", "golden/**/*.yaml", "../registers/*.yaml")
    for path in TESTS.glob(pattern)
)
# Files the loader refuses (bad YAML) never reach a schema, so they are not cases here.
DOCUMENTS = [p for p in FILES if isinstance(load_file(p, str(p), schema.integer_keys()), Document)]


def schema_for(path: Path) -> str:
    return schema.SOURCES if path.name == "sources.yaml" else schema.REGISTER


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: str(p.relative_to(TESTS.parent)))
def test_gate_agrees_with_jsonschema(path: Path) -> None:
    loaded = load_file(path, str(path), schema.integer_keys())
    assert isinstance(loaded, Document)
    name = schema_for(path)
    explained = list(schema._validator(name).iter_errors(loaded.data))
    assert schema._fast_check(name)(loaded.data) == (not explained), explained[:1]


def test_there_are_documents_on_both_sides() -> None:
    verdicts = set()
    for path in DOCUMENTS:
        loaded = load_file(path, str(path), schema.integer_keys())
        if isinstance(loaded, Document):
            verdicts.add(schema._fast_check(schema_for(path))(loaded.data))
    assert verdicts == {True, False}


def test_a_revision_name_is_one_rule_in_both_schemas() -> None:
    """sources.yaml declares the names and an entry's `revisions` names them: both schemas
    hold the same safe-token rule (a name becomes a page's and a nav entry's title)."""
    register, sources = (schema.load_schema(name) for name in (schema.REGISTER, schema.SOURCES))
    assert register["$defs"]["revision"] == sources["$defs"]["revision"]

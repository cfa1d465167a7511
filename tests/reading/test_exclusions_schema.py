"""registers/exclusions.yaml's schema writes a citation as the register schema does."""

from __future__ import annotations

from compat_register.reading.schema import EXCLUSIONS, REGISTER, load_schema


def test_an_exclusion_s_statement_is_the_register_schema_s_citation() -> None:
    register, exclusions = load_schema(REGISTER), load_schema(EXCLUSIONS)
    for name in ("citation", "meta"):
        assert exclusions["$defs"][name] == register["$defs"][name], name

"""The register's words (`model.vocabulary`) are the shipped schema's, in its order, and
every stage reads them there."""

from __future__ import annotations

import json
from pathlib import Path

from compat_register.model import vocabulary
from compat_register.model.registers import PROSE_FIELDS
from compat_register.site import chart, plain
from compat_register.views import priorities

SCHEMA = json.loads(
    (Path(vocabulary.__file__).parent.parent / "schema" / "register.schema.json").read_text()
)
DEFS = SCHEMA["$defs"]


def test_the_words_are_the_schemas_in_its_order() -> None:
    assert tuple(DEFS["status"]["properties"]["state"]["enum"]) == vocabulary.STATES
    assert tuple(DEFS["value"]["properties"]["level"]["enum"]) == vocabulary.LEVELS
    assert tuple(DEFS["effort"]["properties"]["size"]["enum"]) == vocabulary.SIZES
    assert tuple(SCHEMA["properties"]["status"]["enum"]) == vocabulary.REGISTER_STATUSES


def test_each_rated_field_names_the_key_its_schema_requires() -> None:
    assert vocabulary.RATED == {"status": "state", "value": "level", "effort": "size"}
    for field, key in vocabulary.RATED.items():
        assert DEFS[field]["required"] == [key]


def test_every_state_has_a_page_word_that_reads_back() -> None:
    assert tuple(vocabulary.STATE_WORDS) == vocabulary.STATES
    for state in vocabulary.STATES:
        assert vocabulary.PAGE_STATES[vocabulary.state_word(state)] == state
    assert vocabulary.state_word("dnoe") == "dnoe"  # not a state: shown as written


def test_the_named_state_sets_hold_states_only() -> None:
    for named in (vocabulary.OPEN, vocabulary.EVIDENCED, vocabulary.CHARTED):
        assert set(named) <= set(vocabulary.STATES)


def test_the_prose_fields_are_the_fields_the_schema_holds_as_prose() -> None:
    """Each prose field of the model is one the schema types as `prose` (and none is missed:
    every `$ref` to prose in an entry, its rated fields and its notes)."""
    refs = []
    for name, spec in DEFS["entry"]["properties"].items():
        if spec.get("$ref") == "#/$defs/prose":
            refs.append((name,))
        for key, sub in (
            DEFS.get(spec.get("$ref", "").rpartition("/")[2], {}).get("properties", {}).items()
        ):
            if sub.get("$ref") == "#/$defs/prose" and name != "notes":
                refs.append((name, key))
    assert tuple(refs) == vocabulary.PROSE
    assert tuple(PROSE_FIELDS) == vocabulary.PROSE
    assert DEFS["note"]["properties"]["text"]["$ref"] == "#/$defs/prose"  # notes' texts too


def test_the_stages_take_the_words_from_the_vocabulary() -> None:
    assert priorities.counted is vocabulary.counted
    assert chart.CHARTED is vocabulary.CHARTED
    assert plain.state_word is vocabulary.state_word

"""Shape, checked by jsonschema against the packaged JSON Schemas (`schema/`, the one home
of shape), each error said in one located line at the node it names."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

import fastjsonschema

if TYPE_CHECKING:  # imported when a document is invalid: valid runs never load jsonschema
    from jsonschema import Draft202012Validator, ValidationError

from ..model.diagnostic import Diagnostic
from ..model.positions import Path_
from ..model.vocabulary import REGISTER_SCHEMA as REGISTER
from ..model.vocabulary import SOURCES_SCHEMA as SOURCES
from ..model.vocabulary import packaged_schema as load_schema
from .document import Document

EXCLUSIONS = "exclusions.schema.json"
CONCEPTS = "concepts.schema.json"


@cache
def _inlined(name: str) -> dict[str, Any]:
    """The schema `name`, its `$ref`s inlined: jsonschema resolves each anew on every use."""
    schema = load_schema(name)
    inlined: dict[str, Any] = _prepared(schema, schema.get("$defs", {}))
    return inlined


@cache
def _validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_inlined(name))


@cache
def _fast_check(name: str) -> Callable[[Any], bool]:
    """The schema's verdict alone, by fastjsonschema: twenty times faster on the valid
    documents of nearly every run (tests/reading/test_schema_gate.py: same verdicts)."""
    schema = {**_inlined(name), "$schema": "http://json-schema.org/draft-07/schema#"}
    validate = fastjsonschema.compile(schema, detailed_exceptions=False)

    def check(data: Any) -> bool:
        try:
            validate(data)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    return check


def _prepared(node: Any, defs: dict[str, Any]) -> Any:
    """`node` with each local `#/$defs/NAME` replaced by its target and each `pattern` made
    Python's (`python_pattern`)."""
    if isinstance(node, list):
        return [_prepared(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    ready = {
        key: python_pattern(value)
        if key == "pattern" and isinstance(value, str)
        else _prepared(value, defs)
        for key, value in node.items()
        if key not in ("$defs", "$ref")
    }
    if (ref := node.get("$ref")) is None:
        return ready
    return {**_prepared(defs[ref.removeprefix("#/$defs/")], defs), **ready}


_DOLLAR = re.compile(r"\\.|\[(?:\\.|[^\]\\])*\]|\$")  # an escape, a class, or a `$` anchor


def python_pattern(pattern: str) -> str:
    """A JSON Schema `pattern` for Python's `re`: each `$` anchor becomes `\\Z`, as ECMA's `$`
    matches only at the end (Python's `^[A-Z]+$` would pass "META\\n")."""
    return _DOLLAR.sub(lambda m: "\\Z" if m.group() == "$" else m.group(), pattern)


def published_pattern(pattern: str) -> str:
    """A pattern `python_pattern` rewrote, as the schema file writes it (for messages)."""
    return pattern.replace("\\Z", "$")  # ECMA patterns have no \Z of their own


@cache
def integer_keys() -> frozenset[str]:
    """The properties the schemas type as integers: only there is a plain decimal scalar
    made an int, so a commit such as 1234567 stays the text its author wrote."""
    return frozenset(_integer_keys([load_schema(REGISTER), load_schema(SOURCES)]))


def _integer_keys(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, sub in node.get("properties", {}).items():
            if "integer" in _kinds(sub.get("type") if isinstance(sub, dict) else None):
                yield key
        node = list(node.values())
    for value in node if isinstance(node, list) else ():
        yield from _integer_keys(value)


def validate(doc: Document, name: str, owner: Any) -> Iterator[Diagnostic]:
    """One diagnostic per schema violation in `doc`; `owner(path)` names the ID a problem at
    `path` belongs to (an entry ID or the file stem)."""
    if _fast_check(name)(doc.data):
        return
    errors = sorted(
        _validator(name).iter_errors(doc.data), key=lambda e: doc.mark(tuple(e.absolute_path))[:2]
    )
    typos, split = _typos(errors), _split_citations(errors)
    said: set[Path_] = set()
    for error in errors:
        path: Path_ = tuple(error.absolute_path)
        holder = next((s for s in split if path[: len(s)] == s), None)
        if holder in said or _is_typo(error, typos) or _empty_for_pattern(error):
            continue  # the split citation, the misspelt key or "must not be empty" says it all
        if holder is not None:
            said.add(holder)
            described = [split[holder]]
        else:
            described = [_cut_at_comma(doc, error, d) for d in _describe(error)]
        for where, code, message, at_key in described:
            place = doc.where(where, at_key)
            yield Diagnostic.at(place, id=owner(where), code=code, message=message)


def _is_typo(error: ValidationError, typos: set[Path_]) -> bool:
    """A missing required field whose misspelling beside it is already reported."""
    missing = str(error.message).split("'")[1] if error.validator == "required" else None
    return missing is not None and (*error.absolute_path, missing) in typos


def _empty_for_pattern(error: ValidationError) -> bool:
    """A pattern failed by an empty value, whose `minLength` error says so."""
    return error.validator == "pattern" and error.instance == "" and "minLength" in error.schema


def _typos(errors: list[ValidationError]) -> set[Path_]:
    """Paths of the fields that unknown keys beside them probably misspell."""
    return {
        (*error.absolute_path, guess)
        for error in errors
        if error.validator == "additionalProperties"
        for _, guess in _extras(error)
        if guess
    }


_CITATION_KEY = re.compile(r"(?:[A-Za-z][\w-]*:)?[^\s:]+:[0-9]+\b")


def _split_citations(errors: list[ValidationError]) -> dict[Path_, Described]:
    """Compact citations YAML read as a one-key mapping because they hold ': '."""
    found: dict[Path_, Described] = {}
    for error in errors:
        value = error.instance
        if error.validator != "additionalProperties" or len(value) != 1:
            continue
        key, rest = next(iter(value.items()))
        if isinstance(rest, str) and _CITATION_KEY.match(str(key)):
            message = (
                f"citation '{key}: {rest}' was read as a mapping because it holds ': ': "
                "write the whole citation in single quotes"
            )
            path: Path_ = tuple(error.absolute_path)
            found[path] = Described(path, "bad-citation", message, at_key=False)
    return found


class Described(NamedTuple):
    """One schema error as reported: where (its key's place when `at_key`), code, message."""

    where: Path_
    code: str
    message: str
    at_key: bool


def _describe(error: ValidationError) -> Iterator[Described]:
    path: Path_ = tuple(error.absolute_path)
    where = _field_name(path)
    kind = error.validator
    if kind == "additionalProperties":
        yield from _unknown_fields(error, path)
    elif kind == "required":
        missing = str(error.message).split("'")[1]
        message = f"missing required field '{missing}'" + (f" in '{where}'" if where else "")
        yield Described(path, "missing-field", message, at_key=False)
    elif kind == "type":
        message = (
            f"{_field(where)} must be {_kind(error.validator_value)}, "
            + f"not {_describe_value(error.instance)}"
        )
        yield Described(path, "wrong-type", message, at_key=False)
    elif "propertyNames" in error.absolute_schema_path:
        pattern = published_pattern(str(error.validator_value))
        message = f"name '{_shown(error.instance)}' in {_field(where)} must match {pattern}"
        yield Described((*path, error.instance), "bad-value", message, at_key=True)
    elif kind == "uniqueItems":
        index = next((i for i, item in enumerate(error.instance) if item in error.instance[:i]), 0)
        message = f"{_field(where)} lists '{_shown(error.instance[index])}' twice"
        yield Described((*path, index), "duplicate-item", message, at_key=False)
    elif kind == "enum":
        allowed = ", ".join(str(v) for v in error.validator_value)
        message = f"{_field(where)} is '{_shown(error.instance)}', expected one of: {allowed}"
        yield Described(path, "bad-value", message, at_key=False)
    else:
        yield Described(path, _code(str(kind)), _other_message(error, where), at_key=False)


def _unknown_fields(error: ValidationError, path: Path_) -> Iterator[Described]:
    known = sorted(error.schema.get("properties", {}))
    for key, guess in _extras(error):
        hint = f" (did you mean '{guess}'?)" if guess else f" (known: {', '.join(known)})"
        if above := _dedented_from(error, key):
            hint = (
                f" here: '{above}:' above takes a '{key}'; if it is {above}'s, indent "
                f"'{key}:' to the column of {above}'s own keys"
            )
        message = f"unknown field '{_shown(key)}'{hint}"
        yield Described((*path, key), "unknown-field", message, at_key=True)


def _dedented_from(error: ValidationError, key: str) -> str | None:
    """The key above `key` when its mapping value takes `key` (a `note:` dedented out of
    `status:`): likelier than a misspelling."""
    keys = [str(k) for k in error.instance]
    index = keys.index(key)
    if index == 0 or not isinstance(error.instance[keys[index - 1]], dict):
        return None
    above = keys[index - 1]
    schema = error.schema.get("properties", {}).get(above, {})  # refs inlined (`_inlined`)
    return above if key in schema.get("properties", {}) else None


def _cut_at_comma(doc: Document, error: ValidationError, described: Described) -> Described:
    """An unknown field with no value in a `{...}` mapping is most often the rest of the
    value before it, which a ',' cut off: say so, with the value quoted."""
    where, code, message, at_key = described
    if code != "unknown-field" or error.instance.get(where[-1], "") is not None:
        return described
    parent = where[:-1]
    if doc.text[doc.mark(parent).offset : doc.mark(parent).offset + 1] != "{":
        return described
    keys = list(error.instance)
    before = keys[keys.index(where[-1]) - 1] if keys.index(where[-1]) else None
    value = error.instance.get(before) if before is not None else None
    if not isinstance(value, str):
        return described
    whole = f"{value}, {where[-1]}".replace("'", "''")
    message = (
        f"unknown field '{_shown(where[-1])}': in a {{...}} mapping a ',' ends a value, so "
        f"the text after it became a field: quote the value, {before}: '{whole}'"
    )
    return Described(where, code, message, at_key)


def _extras(error: ValidationError) -> Iterator[tuple[str, str | None]]:
    """Each key `additionalProperties` rejected, with the known key it most resembles."""
    known = sorted(error.schema.get("properties", {}))
    for key in error.instance:
        if key not in known:
            guess = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            yield str(key), guess[0] if guess else None


def _other_message(error: ValidationError, where: str) -> str:
    kind, value = error.validator, error.validator_value
    if kind == "pattern" and value == _ONE_LINE:  # printed in tables, lists, PR comments
        return f"{_field(where)} holds a line break: write it on one line"
    if kind == "maxLength":
        length = len(error.instance)
        return f"{_field(where)} is {length:,} characters long, over the {value:,} allowed"
    if kind == "pattern":
        expected = _expected_form(error.schema) or f"the form {published_pattern(value)}"
        return f"{_field(where)} '{_shown(error.instance)}' is not {expected}{_pattern_hint(error)}"
    if kind in ("minLength", "minItems", "minProperties"):
        return f"{_field(where)} must not be empty"
    if kind == "minimum":
        return f"{_field(where)} must be at least {value}, not {error.instance}"
    return f"{_field(where)}: {error.message}"


_ONE_LINE = python_pattern(load_schema(REGISTER)["$defs"]["line"]["pattern"])  # `$defs/line`

# A value that reads as a branch or tag (main, v1.2.0, origin/main), not a typo.
_REF_NAME = re.compile(r"HEAD|main|master|trunk|develop|v?\d+(\.\d+)+|[\w.-]+/[\w./-]+")


def _pattern_hint(error: ValidationError) -> str:
    """What to do about a value that fails its pattern, where the form alone does not say."""
    path = list(error.absolute_path)
    value = error.instance
    if path[-1:] == ["commit"] and isinstance(value, str) and _REF_NAME.fullmatch(value):
        return (
            f": '{value}' names a branch or tag, which moves; a pin does not: write the sha "
            f"it names now (git rev-parse {value}, in a clone of {path[-2]})"
        )
    return ""


def _expected_form(schema: dict[str, Any]) -> str | None:
    """What a pattern stands for, in words: the schema's own `description` says it."""
    description = schema.get("description")
    if not isinstance(description, str):
        return None
    if description[:2].istitle():  # "The pinned commit" -> "the pinned commit"; keep "ISO"
        description = description[0].lower() + description[1:]
    return "a valid value: " + description.rstrip(".")


def _code(kind: str) -> str:
    if kind in ("pattern", "minimum"):
        return "bad-value"
    return "empty-field" if kind.startswith("min") else "invalid"


def _field_name(path: Path_) -> str:
    """A readable name for a place: `entries[3].status.state` -> `status.state`."""
    parts: list[str] = []
    for part in path:
        if isinstance(part, int):
            parts[-1:] = [f"{parts[-1]}[{part}]"] if parts else [f"[{part}]"]
        else:
            parts.append(str(part))
    if len(parts) >= 2 and parts[0].startswith("entries["):
        parts = parts[1:]
    return ".".join(parts)


def _field(where: str) -> str:
    return f"'{where}'" if where else "the file"


_KINDS = {
    "string": "a string",
    "integer": "an integer",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
    "boolean": "true or false",
    "number": "a number",
}


def _kinds(expected: Any) -> list[Any]:
    """A schema's `type`, one name or a list of them, as a list."""
    return expected if isinstance(expected, list) else [expected]


def _kind(expected: Any) -> str:
    return " or ".join(_KINDS.get(str(e), str(e)) for e in _kinds(expected))


def _describe_value(value: Any) -> str:
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int):
        return f"{value} (an integer)"
    return f"'{_shown(value)}' (a string)"


def _shown(value: Any) -> str:
    """A value for a one-line message: a newline, tab or other unprintable character escaped."""
    text = str(value)
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)

"""The advice `register check` gives for invalid YAML is right: following it loads the file.

Each property builds a file with one mistake in a value of arbitrary text, and, whenever
the loader names that mistake, applies its advice and checks the file then loads and holds
the text the author meant.
"""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import tiers
from compat_register.checking.references import _one_edit  # noqa: PLC2701 - the rule itself
from compat_register.reading.document import LoadError
from compat_register.reading.loader import parse
from compat_register.reading.schema import integer_keys

# Printable one-line text without the characters that make the YAML itself ambiguous in
# ways these properties are not about (line breaks, tabs, a BOM, quotes other than ').
TEXT = st.text(
    st.characters(
        min_codepoint=0x20,
        max_codepoint=0x2FF,
        exclude_categories=("Cc",),  # control characters, U+0085 among them, are refused
        exclude_characters='"\\',
    ),
    min_size=1,
    max_size=30,
)


def load(text: str) -> object:
    return parse(text, "t.yaml", integer_keys()).data


def error_of(text: str) -> LoadError | None:
    try:
        load(text)
    except LoadError as err:
        return err
    return None


@given(TEXT, TEXT)
def test_a_quote_ending_a_single_quoted_value_early_is_doubled_as_advised(
    before: str, after: str
) -> None:
    meant = f"{before}'{after}"
    written = f"risk: '{meant}'\n"
    err = error_of(written)
    assume(err is not None and "write a ' as two ('')" in err.message)
    fixed = f"risk: '{meant.replace(chr(39), chr(39) * 2)}'\n"
    assert load(fixed) == {"risk": meant}


KEY = st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True)


@given(KEY, TEXT, KEY, TEXT, st.integers(1, 4))
def test_an_over_indented_key_lined_up_as_advised_loads(
    first: str, value: str, second: str, other: str, extra: int
) -> None:
    assume(first != second)
    value, other = value.strip(), other.strip()
    assume(value and other)
    line_two = f"  {' ' * extra}{second}: '{other.replace(chr(39), chr(39) * 2)}'\n"
    head = f"top:\n  {first}: {value}\n"
    err = error_of(head + line_two)
    assume(err is not None and "keys of one mapping start in the same column" in err.message)
    assert err.mark.line == 3 and err.mark.col == 3 + extra
    fixed = head + line_two[extra:]
    data = load(fixed)
    assert isinstance(data, dict) and second in data["top"]


def damerau_one(a: str, b: str) -> bool:
    """Optimal string alignment distance is exactly 1, by dynamic programming."""
    rows = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        rows[i][0] = i
    for j in range(len(b) + 1):
        rows[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[len(a)][len(b)] == 1


PREFIX = st.text(st.sampled_from("ABKVMETX"), min_size=1, max_size=5)


@given(PREFIX, PREFIX)
def test_one_edit_is_distance_one(a: str, b: str) -> None:
    assert _one_edit(a, b) == damerau_one(a, b)


# --- an unclosed quote is reported where it opened ----------------------------------------

VALID = (Path(__file__).parents[2] / "registers" / "meta.yaml").read_text(encoding="utf-8")
_VALUE = re.compile(r"^(\s*(?:- |[a-z_-]+: |- [a-z_-]+: ))([A-Za-z0-9(_][^'\"#\n]*)$", re.M)
OPENINGS = [m.start(2) for m in _VALUE.finditer(VALID) if not m.group(2).startswith("{")]


@settings(max_examples=tiers.examples(60), deadline=None)
@given(st.sampled_from(OPENINGS), st.sampled_from(["'", '"']))
def test_an_unclosed_quote_anywhere_is_reported_at_its_line(offset: int, quote: str) -> None:
    """A one-line plain value of a real, valid register file given an opening quote and no
    closing one: when the file then fails to load, the error is at the line of the quote."""
    broken = VALID[:offset] + quote + VALID[offset:]
    err = error_of(broken)
    assume(err is not None)  # the value ran on to a quote that closed it into valid YAML
    assert err.mark.line == VALID.count("\n", 0, offset) + 1, err.message
    assert "opens here and does not close on this line" in err.message

"""Where an unclosed quote in a YAML file opened, found by YAML's own scanner.

A `'` or `"` that never closes on its line does not fail there: YAML reads a quoted value
across lines, so the value runs on to the next quote of its kind, often lines further
down, and the file fails after it ("did not find expected key"), or at its end. Here the
scanner's tokens up to the failure say which quoted value swallowed the lines, so the
message points at the quote to close instead of where YAML gave up.
"""

from __future__ import annotations

import yaml

try:  # libyaml's scanner when there is one; the same tokens either way
    from yaml import CSafeLoader as _Scanner
except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml import SafeLoader as _Scanner  # type: ignore[assignment]

LOOKBACK = 2
"""How many tokens before the failure the swallowing value may end: it fails at the text
right after its closing quote (a scalar, or the `:` of what reads as a key)."""


def unclosed_opening(text: str, err: yaml.MarkedYAMLError) -> tuple[int, int | None] | None:
    """(offset of the opening quote, line of the quote YAML took as its close, or None at
    the end of the file) for a failure that an unclosed quote caused; None otherwise."""
    problem, context = err.problem or "", err.context or ""
    if "end of stream" in problem and "quoted scalar" in context and err.context_mark:
        return err.context_mark.index, None
    failed_at = err.problem_mark.index if err.problem_mark else len(text)
    tokens = tokens_before(text, failed_at)
    for token in tokens[-LOOKBACK:]:
        if (
            isinstance(token, yaml.ScalarToken)
            and token.style in ("'", '"')
            and token.end_mark.line > token.start_mark.line
            and _opens_a_line_value(text, token.start_mark.index)
        ):
            return token.start_mark.index, token.end_mark.line + 1
    return None


def tokens_before(text: str, failed_at: int) -> list[yaml.Token]:
    """The scanner's tokens that start before `failed_at` (where the scanner or the parser
    after it failed), but the block ends the scanner adds at no text of their own."""
    tokens: list[yaml.Token] = []
    try:
        for token in yaml.scan(text, Loader=_Scanner):
            if token.start_mark.index >= failed_at:
                break
            if not isinstance(token, yaml.BlockEndToken):
                tokens.append(token)
    except yaml.YAMLError:
        pass
    return tokens


def _opens_a_line_value(text: str, index: int) -> bool:
    """Whether the quote at `index` starts a value written on its line (after `key: ` or
    `- `), as a one-line value would: a value meant to span lines is rarely quoted."""
    start = text.rfind("\n", 0, index) + 1
    before = text[start:index].rstrip(" ")
    return before == "" or before.endswith((":", "-"))


def message(quote: str, closed_at: int | None) -> str:
    """The advice at the opening quote."""
    if closed_at is None:
        runs = "YAML reads on to the end of the file"
    else:
        runs = f"YAML reads on to the next {quote}, on line {closed_at}, and fails after it"
    inside = "a ' inside single quotes is written ''" if quote == "'" else 'a " inside is \\"'
    return (
        f"invalid YAML: the value's {quote} opens here and does not close on this line, so "
        f"{runs}: close it on this line ({inside})"
    )

"""What to do about a YAML syntax error: libyaml's error turned into one located line of
advice (a tab in the indentation, a key indented too deep, a quote left open, ...)."""

from __future__ import annotations

import re

import yaml

from .document import Document, LoadError, Mark
from .walker import tokens_before

LOOKBACK = 2
"""How many tokens before the failure a value left open may end: it fails right after its
closing quote (a scalar, or the `:` of what reads as a key)."""


def syntax_error(doc: Document, err: yaml.MarkedYAMLError) -> LoadError:
    mark = err.problem_mark or err.context_mark
    if mark is None:
        return LoadError(Mark(1, 1), "yaml-syntax", f"invalid YAML: {err}")
    where = doc.position(mark.index)
    problem = (err.problem or "invalid YAML").strip()
    if doc.text[mark.index : mark.index + 1] == "\t" and ("tab" in problem or "token" in problem):
        # libyaml says "found character that cannot start any token" or "found a tab
        # character that violates indentation", neither of which says what to do.
        message = "tab character in indentation: YAML indents with spaces only"
        return LoadError(where, "tab-indent", message)
    if unclosed := unclosed_opening(doc.text, err):
        opened, closed_at = unclosed
        message = _unclosed_message(doc.text[opened], closed_at)
        return LoadError(doc.position(opened), "yaml-syntax", message)
    if "expected '-' indicator" in problem and (item := _deeper_item(doc, err)):
        return item
    deeper = "mapping values are not allowed" in problem and _deeper_key(doc, mark.index)
    if cause := deeper or _closed_early(doc, mark.index):
        return cause
    hint = context = ""
    if "mapping values are not allowed" in problem:
        hint = ": a value holding ': ' must be quoted; write the whole scalar in single quotes"
    elif "found character" in problem and "cannot start any token" in problem:
        hint = ": a value starting with this character must be quoted"
    elif err.context:
        context = f" ({err.context.strip()}{_opened(doc, err, where)})"
        if "flow" in err.context:
            hint = ": close it, or quote the value if its '{' or '[' is text"
    return LoadError(where, "yaml-syntax", f"invalid YAML: {problem}{context}{hint}")


_KEY_LINE = re.compile(r"( *)(?:- +)?([^\s:#'\"-][^:#]*?):(?: |$)")


def _line(text: str, index: int) -> tuple[int, int]:
    """The start and end of the line holding `index`."""
    end = text.find("\n", index)
    return text.rfind("\n", 0, index) + 1, len(text) if end < 0 else end


def _deeper_key(doc: Document, index: int) -> LoadError | None:
    """A key indented deeper than the key above it, whose plain value it then continues:
    libyaml sees a ': ' inside that value ("mapping values are not allowed")."""
    start = _line(doc.text, index)[0]
    key = _KEY_LINE.fullmatch(doc.text[start : index + 2].rstrip("\n"))
    if key is None or doc.text[index] != ":":
        return None
    above = _line_above(doc, start)
    if above is None:
        return None
    above_key = _KEY_LINE.match(above[1])
    indent = len(key.group(1))
    if above_key is None or len(above_key.group(1)) >= indent:
        return None
    value = above[1][above_key.end() :].strip()
    if not value or value[0] in "[{'\"|>&*!#":
        return None  # not a plain value that the line below could continue
    line = doc.position(start).line
    message = (
        f"invalid YAML: '{key.group(2)}:' is indented more than '{above_key.group(2)}:' on "
        f"line {line - above[0]}, so YAML reads it as more of that value: keys of one mapping "
        "start in the same column (if it is text of that value, quote the whole value)"
    )
    return LoadError(doc.position(start + indent), "yaml-syntax", message)


def _deeper_item(doc: Document, err: yaml.MarkedYAMLError) -> LoadError | None:
    """A list item whose '-' is indented more than the list's first (its block opened at
    `context_mark`): libyaml finds no '-' where it expects the next item."""
    if err.problem_mark is None or err.context_mark is None:
        return None
    start, end = _line(doc.text, err.problem_mark.index)
    line = doc.text[start:end]
    indent = len(line) - len(line.lstrip(" "))
    opened = doc.position(err.context_mark.index)
    if not line.lstrip(" ").startswith("- ") or indent + 1 <= opened.col:
        return None
    message = (
        f"invalid YAML: this '-' is indented more than the list's first '-' (line "
        f"{opened.line}, column {opened.col}): items of one list start in the same column"
    )
    return LoadError(doc.position(start + indent), "yaml-syntax", message)


def _line_above(doc: Document, start: int) -> tuple[int, str] | None:
    """(how many lines up, text) of the nearest line above neither blank nor a comment."""
    up, end = 0, start - 1
    while end > 0:
        begin = doc.text.rfind("\n", 0, end) + 1
        up += 1
        line = doc.text[begin:end]
        if line.strip() and not line.lstrip().startswith("#"):
            return up, line
        end = begin - 1
    return None


def _closed_early(doc: Document, index: int) -> LoadError | None:
    """A quoted value that ended at a quote meant as text inside it, with more text after
    it on the line: libyaml then finds no key or '-' where that text starts."""
    start, end = _line(doc.text, index)
    before = doc.text[start:index].rstrip(" ")
    after = doc.text[index:end].strip()
    if not before or before[-1] not in "'\"" or not after or after.startswith("#"):
        return None
    quote = before[-1]
    opened = before.rfind(quote, 0, len(before) - 1)
    if opened < 0 or before[:opened].rstrip()[-1:] not in (":", "-", ""):
        return None
    if quote == "'":
        advice = "inside single quotes, write a ' as two ('')"
    else:
        advice = 'inside double quotes, write a " as \\", or put the whole value in single quotes'
    message = (
        f"invalid YAML: the quoted value ends at this {quote}, and more text follows it: {advice}"
    )
    return LoadError(doc.position(start + len(before) - 1), "yaml-syntax", message)


def _opened(doc: Document, err: yaml.MarkedYAMLError, problem: Mark) -> str:
    # "while parsing a flow mapping" is only useful with where that mapping opened.
    if err.context_mark is None:
        return ""
    opened = doc.position(err.context_mark.index)
    if opened.line == problem.line:
        return ""
    return f" opened at line {opened.line}, column {opened.col}"


def reader_error(doc: Document, err: yaml.reader.ReaderError) -> LoadError:
    # libyaml reports a byte offset here, not a character one: find the character instead.
    code = err.character if isinstance(err.character, int) else 0
    index = max(doc.text.find(chr(code)), 0)
    message = f"control character U+{code:04X} is not allowed in YAML: remove it"
    return LoadError(doc.position(index), "yaml-syntax", message)


def unclosed_opening(text: str, err: yaml.MarkedYAMLError) -> tuple[int, int | None] | None:
    """(offset of a quote left open on its line, line of the quote YAML took as its close or
    None at the end of the file) when one caused the failure: YAML fails lines further down,
    and the scanner's tokens say which value ran on."""
    problem, context = err.problem or "", err.context or ""
    if "end of stream" in problem and "quoted scalar" in context and err.context_mark:
        return err.context_mark.index, None
    failed_at = err.problem_mark.index if err.problem_mark else len(text)
    for token in tokens_before(text, failed_at)[-LOOKBACK:]:
        if (
            isinstance(token, yaml.ScalarToken)
            and token.style in ("'", '"')
            and token.end_mark.line > token.start_mark.line
            and _opens_a_line_value(text, token.start_mark.index)
        ):
            return token.start_mark.index, token.end_mark.line + 1
    return None


def _opens_a_line_value(text: str, index: int) -> bool:
    """Whether the quote at `index` starts a value on its line (after `key: ` or `- `): a
    value meant to span lines is rarely quoted."""
    before = text[_line(text, index)[0] : index].rstrip(" ")
    return before == "" or before.endswith((":", "-"))


def _unclosed_message(quote: str, closed_at: int | None) -> str:
    if closed_at is None:
        runs = "YAML reads on to the end of the file"
    else:
        runs = f"YAML reads on to the next {quote}, on line {closed_at}, and fails after it"
    inside = "a ' inside single quotes is written ''" if quote == "'" else 'a " inside is \\"'
    return (
        f"invalid YAML: the value's {quote} opens here and does not close on this line, so "
        f"{runs}: close it on this line ({inside})"
    )

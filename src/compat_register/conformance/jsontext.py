"""JSON text -> plain data and where each value was written, for shape problems to point
at their value. Pure. `json` parses (its errors are located) and a second walk places each
value, refusing a repeated key, NaN, an infinite number, a lone surrogate and an integer
of over `MAX_DIGITS` digits, as the YAML loader bounds them."""

from __future__ import annotations

import bisect
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from ..model.positions import Path_, Where
from ..storage.errors import RegisterError

scanstring = json.decoder.scanstring  # type: ignore[attr-defined]  # json's own string reader
"""(text, offset past the opening quote) -> (the string, offset past its closing quote)."""
_DEEP = "not JSON this tool reads: nested too deeply"
_SPACE = re.compile(r"[ \t\n\r]*")
_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_DIGITS = 21
"""Most digits in an integer: JavaScript writes one of 1e21 or more with an exponent."""
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null|NaN|-?Infinity")


class JsonProblem(RegisterError):
    """Where the text stops being JSON (or repeats a key), and why, in one line."""

    def __init__(self, where: Where, message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message


@dataclass(frozen=True)
class Parsed:
    """A JSON document's data and the place of each value, by its path of keys and indexes."""

    data: Any
    places: dict[Path_, Where]
    file: str

    def at(self, path: Path_) -> Where:
        """Where the value at `path` was written, or its nearest written ancestor."""
        while path and path not in self.places:
            path = path[:-1]
        return self.places.get(path, Where(self.file, 1, 1))


def parse(text: str, file: str) -> Parsed:
    """Parse `text` (the file `file` as messages name it); raises `JsonProblem`."""
    walker = _Walker(text, file)
    try:  # a number out of bounds is refused, located, by the walk; here it must not raise
        data = json.loads(text, parse_int=_int, parse_constant=lambda _: None)
        walker.value(0, ())
    except json.JSONDecodeError as err:
        raise JsonProblem(Where(file, err.lineno, err.colno), f"not JSON: {err.msg}") from None
    except RecursionError:
        raise JsonProblem(Where(file, 1, 1), _DEEP) from None
    return Parsed(data, walker.places, file)


def _int(literal: str) -> int | None:
    return int(literal) if len(literal.lstrip("-")) <= MAX_DIGITS else None


# Hand-written: json gives no offsets; json-source-map is 3x slower and drops a repeated key.
class _Walker:
    """The offsets of a text `json` has accepted: only its structure is followed here."""

    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        self.places: dict[Path_, Where] = {}
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def where(self, offset: int) -> Where:
        line = bisect.bisect_right(self.starts, offset)
        return Where(self.file, line, offset - self.starts[line - 1] + 1)

    def space(self, i: int) -> int:
        return _SPACE.match(self.text, i).end()  # type: ignore[union-attr]  # matches nothing too

    def value(self, i: int, path: Path_) -> int:
        """Record the value starting at (or after spaces from) `i`; its end offset."""
        i = self.space(i)
        self.places[path] = self.where(i)
        char = self.text[i]
        if char in "{[":
            return self.items(i + 1, path, "}" if char == "{" else "]")
        if char == '"':
            return self.string(i)[1]
        match = _SCALAR.match(self.text, i)
        assert match is not None  # json accepted the text
        if problem := _unbounded(match[0]):
            raise JsonProblem(self.where(i), problem)
        return match.end()

    def string(self, i: int) -> tuple[str, int]:
        """The string whose quote opens at `i`, and the offset past its close."""
        found, end = scanstring(self.text, i + 1)
        if lone := _SURROGATE.search(found):
            escape = f"\\u{ord(lone[0]):04x}"
            raise JsonProblem(self.where(i), f"a lone surrogate {escape} in a string: no character")
        return found, end

    def items(self, i: int, path: Path_, close: str) -> int:
        """Record the members of the object or array (closed by `close`) from `i`; its end."""
        seen: set[str] = set()
        index, i = 0, self.space(i)
        while self.text[i] != close:
            if close == "}":
                key, end = self.string(i)
                if key in seen:
                    raise JsonProblem(self.where(i), f"key '{key}' given twice in one object")
                seen.add(key)
                i = self.value(self.space(end) + 1, (*path, key))  # past the colon
            else:
                i = self.value(i, (*path, index))
            index += 1
            i = self.space(i)
            if self.text[i] == ",":
                i = self.space(i + 1)
        return i + 1


def _unbounded(literal: str) -> str | None:
    """Why a number `json` read is past what this tool reads, or None."""
    if literal in ("NaN", "Infinity", "-Infinity"):
        return f"{literal} is not JSON (a number is finite)"
    digits = literal.lstrip("-")
    if digits.isdigit() and len(digits) > MAX_DIGITS:
        return f"a number of {len(digits):,} digits, over the {MAX_DIGITS} an integer may have"
    if digits[:1].isdigit() and not math.isfinite(float(literal)):
        return f"number {literal[:20]}... is past the largest a 64-bit float holds"
    return None  # true, false, null, or a number in bounds

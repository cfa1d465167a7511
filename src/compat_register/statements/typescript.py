"""A TypeScript schema's doc comments -> statements, each read as a Markdown page (as
TypeDoc publishes them); found by hand, as no TypeScript parser runs without Node."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from . import markdownpages
from .statement import Statement

_DECLARATION = re.compile(
    r"\s*export\s+(?:declare\s+)?(?:interface|type|const|enum|class|function|namespace)\s+(\w+)"
)
_MEMBER = re.compile(r"\s+(?:readonly\s+)?[\"']?([\w$./-]+)[\"']?\??\s*:")
_LEADER = re.compile(r"\s*\*? ?")
_LINK = re.compile(r"\{@link(?:code|plain)?\s+([^}|\s]+)(?:\s*\|?\s*([^}]*))?\}")
"""TypeDoc's inline link, `{@link Tool.outputSchema}` or `{@link Tool | the tool}`: its text."""


def statements(
    path: str, text: str, readings: markdownpages.Readings | None = None
) -> list[Statement]:
    """The statements of a schema's doc comments, each under the declaration it documents
    (`InitializeResult.protocolVersion`)."""
    readings = readings or markdownpages.Readings()
    lines = text.split("\n")
    found: list[Statement] = []
    top, scanned = "", 0
    for start, stop, declaration in _comments(lines):
        top = _top(lines[scanned:start], top)
        scanned = stop + 1
        heading, anchor = _heading(declaration, top)
        body = "\n".join(_LEADER.sub("", line, count=1) for line in _bodies(lines, start, stop))
        body = _LINK.sub(lambda m: m[2].strip() or m[1], body)
        for s in _comment(body, readings):  # in its file: its path and lines, the declaration
            line, end = s.line + start, s.end + start
            found.append(replace(s, path=path, line=line, end=end, heading=heading, anchor=anchor))
    return found


def _comments(lines: list[str]) -> Iterator[tuple[int, int, str]]:
    """(first line, last line, the line after it) of each `/** */` comment, 0-based."""
    number = 0
    while number < len(lines):
        if lines[number].lstrip().startswith("/**"):
            stop = number
            while "*/" not in lines[stop][(lines[stop].find("/**") + 3) if stop == number else 0 :]:
                stop += 1
                if stop == len(lines):
                    return  # an unclosed comment: TypeScript would not compile it
            after = next((line for line in lines[stop + 1 :] if line.strip()), "")
            yield number, stop, after
            number = stop
        number += 1


def _bodies(lines: list[str], start: int, stop: int) -> list[str]:
    """The comment's lines, its opening and closing marks blanked, every line kept."""
    body = lines[start : stop + 1]
    body[0] = body[0].replace("/**", "   ", 1)
    body[-1] = body[-1][: body[-1].rfind("*/")]
    return body


def _top(lines: list[str], top: str) -> str:
    """The last top-level declaration in `lines`, else `top`."""
    for line in reversed(lines):
        if match := _DECLARATION.match(line):
            return match[1]
    return top


def _heading(declaration: str, top: str) -> tuple[str, str]:
    if match := _DECLARATION.match(declaration):
        return match[1], match[1].lower()
    if (match := _MEMBER.match(declaration)) and top:
        return f"{top}.{match[1]}", f"{top}-{match[1]}".lower()
    return top, top.lower()


def _comment(body: str, readings: markdownpages.Readings) -> list[Statement]:
    """A doc comment's statements, on lines from 1; each text read once in a run."""
    found = readings.pages.get(body)
    if found is None:
        found = readings.pages[body] = markdownpages.statements("", body, 1, readings)
    return found

"""A file's statements by its kind: Markdown and MDX pages (`markdownpages`), and a
TypeScript schema's doc comments, each read as a Markdown page (as TypeDoc publishes them);
found by hand, as no TypeScript parser runs without Node."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from ..citations.compare import file_kind
from . import markdownpages
from .statement import Statement

_TYPESCRIPT = frozenset({".ts", ".mts", ".cts"})


def reader(path: str, markdown_globs: Sequence[str] = ()) -> str | None:
    """Which reader takes the file at `path`: `typescript` (a schema), `markdown`, or None."""
    if posixpath.splitext(path)[1].lower() in _TYPESCRIPT:
        return "typescript"
    return "markdown" if file_kind(path, markdown_globs) == "markdown" else None


def statements(
    path: str,
    text: str,
    markdown_globs: Sequence[str] = (),
    readings: markdownpages.Readings | None = None,
) -> list[Statement]:
    """The statements of one file, in line order; `readings`: one run's paragraphs read."""
    kind = reader(path, markdown_globs)
    if kind == "typescript":
        return schema_statements(path, text, readings)
    return markdownpages.statements(path, text, readings=readings) if kind else []


_DECLARATION = re.compile(
    r"\s*export\s+(?:declare\s+)?(?:interface|type|const|enum|class|function|namespace)\s+(\w+)"
)
_MEMBER = re.compile(r"\s+(?:readonly\s+)?[\"']?([\w$./-]+)[\"']?\??\s*:")
_LEADER = re.compile(r"\s*\*? ?")
_LINK = re.compile(r"\{@link(?:code|plain)?\s+([^}|\s]+)(?:\s*\|?\s*([^}]*))?\}")
"""TypeDoc's inline link, `{@link Tool.outputSchema}` or `{@link Tool | the tool}`: its text."""


def schema_statements(
    path: str, text: str, readings: markdownpages.Readings | None = None
) -> list[Statement]:
    """The statements of a schema's doc comments, each under the declaration it documents
    (`InitializeResult.protocolVersion`)."""
    readings = readings or markdownpages.Readings()
    lines = text.split("\n")
    found: list[Statement] = []
    top, scanned = "", 0
    for start, stop, declaration, body in _comments(lines):
        top = _top(lines[scanned:start], top)
        scanned = stop + 1
        heading, anchor = _heading(declaration, top)
        read = readings.pages.get(body)  # each text read once in a run, on lines from 1
        if read is None:
            read = readings.pages[body] = markdownpages.statements("", body, 1, readings)
        for s in read:  # in its file: its path and lines, the declaration
            line, end = s.line + start, s.end + start
            found.append(replace(s, path=path, line=line, end=end, heading=heading, anchor=anchor))
    return found


def _comments(lines: list[str]) -> Iterator[tuple[int, int, str, str]]:
    """(first line, last line, the line after it, its text) of each `/** */` comment, 0-based;
    its text without its marks and leaders, every line kept."""
    number = 0
    while number < len(lines):
        if lines[number].lstrip().startswith("/**"):
            stop = number
            while "*/" not in lines[stop][(lines[stop].find("/**") + 3) if stop == number else 0 :]:
                stop += 1
                if stop == len(lines):
                    return  # an unclosed comment: TypeScript would not compile it
            after = next((line for line in lines[stop + 1 :] if line.strip()), "")
            body = lines[number : stop + 1]
            body[0] = body[0].replace("/**", "   ", 1)
            body[-1] = body[-1][: body[-1].rfind("*/")]
            text = "\n".join(_LEADER.sub("", line, count=1) for line in body)
            yield number, stop, after, _LINK.sub(lambda m: m[2].strip() or m[1], text)
            number = stop
        number += 1


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

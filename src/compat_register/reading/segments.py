"""Prose -> its segments, once, as its register is built: code, links, in-prose citations,
references and link patterns (what is not prose is `citations.nonprose`'s)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence

from ..citations.nonprose import (
    Span,
    code_ranges,
    non_prose_ranges,
    occurrences_before,
    outside,
    overlaps,
)
from ..citations.syntax import prose_citations
from ..model.positions import Path_
from ..model.prose import Prose, Segment, SegmentKind
from ..model.registers import LinkPattern
from .ids import REFERENCE

# `[text](dest "title")`, one level of parentheses inside dest (as in Wikipedia URLs).
_INLINE_LINK = re.compile(
    r"!?\[(?P<text>[^\[\]\n]*)\]\(\s*(?P<dest><[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)"
)
_AUTOLINK = re.compile(r"<https?://[^\s<>]+>", re.IGNORECASE)
FENCE_LINE = re.compile(r"^[ ]{0,3}(?:`{3,}|~{3,})[^\n]*(?:\n|$)", re.MULTILINE)
"""A line opening (or closing) a fenced block."""


def parse(text: str, links: Sequence[LinkPattern] = (), file: str = "", field: Path_ = ()) -> Prose:
    """`text` with its segments, as read after `- **What.** ` in a list item (and in a page),
    and, when it opens with a fenced block on a line of its own, as read there too."""
    code = code_ranges(text)
    skip = non_prose_ranges(text, code)
    own_line = _own_line(text, links, file, field)
    return Prose(text, _segments(text, links, code, skip), own_line, file, field)


def of(text: str, links: Sequence[LinkPattern] = ()) -> Prose:
    """`text` as parsed when its register was built, or parsed now (a description)."""
    return text if isinstance(text, Prose) else parse(text, links)


def on_own_line(prose: Prose, links: Sequence[LinkPattern] = ()) -> Prose:
    """The text read on a line of its own, whether or not it opens with a fenced block."""
    found = prose.own_line or _own_line(prose, links, prose.file, prose.field, fenced=False)
    assert found is not None  # not `fenced`: always found
    return found


def _own_line(
    text: str, links: Sequence[LinkPattern], file: str, field: Path_, fenced: bool = True
) -> Prose | None:
    """The text read after a blank line, when it opens with a fenced block there (or, unless
    `fenced`, whatever it opens with)."""
    lead = len(text) - len(text.lstrip())
    if fenced and FENCE_LINE.match(text, lead) is None:
        return None
    shifted = "\n\n" + text
    shifted_code = code_ranges(shifted)
    code = _unshift(shifted_code)
    if fenced and (not code or code[0][0] > lead):
        return None
    skip = _unshift(non_prose_ranges(shifted, shifted_code))
    segments = _segments(text, links, code, skip)
    return Prose(text, segments, None, file, field)


def _unshift(ranges: list[Span]) -> list[Span]:
    return [(max(start - 2, 0), end - 2) for start, end in ranges if end > 2]


def _segments(
    text: str, links: Sequence[LinkPattern], code: list[Span], skip: list[Span]
) -> tuple[Segment, ...]:
    found = [Segment("code", start, end) for start, end in code]
    found.extend(_links(text, code))
    cited = list(_citations(text, skip))
    found.extend(cited)
    found.extend(_references(text, links, skip, [(c.start, c.end) for c in cited]))
    return tuple(sorted(found, key=lambda segment: segment.start))


def _links(text: str, code: list[Span]) -> Iterator[Segment]:
    """Autolinks to http(s) and inline links, outside code (the site keeps the safe ones)."""
    if "<" in text:
        for match in _AUTOLINK.finditer(text):
            if not overlaps(match.span(), code):
                yield Segment("link", match.start(), match.end(), url=match[0])
    if "](" in text:
        for match in _INLINE_LINK.finditer(text):
            if not overlaps((match.start(), match.start() + 1), code):
                inner = (match.start("text"), match.end("text"), match.start("dest"))
                yield Segment("link", *match.span(), url=match["dest"], inner=inner)


def _citations(text: str, skip: list[Span]) -> Iterator[Segment]:
    for match in prose_citations(text, skip):
        token = text[match.start("path") : match.end()]
        occurrence = occurrences_before(text, token, match.start("path"))
        alias = match["alias"] or ""
        yield Segment("citation", *match.span(), first=alias, token=token, occurrence=occurrence)


def _references(
    text: str, links: Sequence[LinkPattern], skip: list[Span], taken: list[Span]
) -> list[Segment]:
    """Link pattern matches, then IDs and ID ranges, outside what is not prose and outside
    citations and each other (a pattern's match holds no reference)."""
    found: list[Segment] = []
    for link in links:
        for match in outside(link.pattern, text, skip):
            span: Span = match.span()
            if not overlaps(span, taken):
                found.append(Segment("pattern", *span, url=link.url_for(match)))
                bisect.insort(taken, span)
    for match in outside(REFERENCE, text, skip):
        if not overlaps(match.span(), taken):
            first, last = match["first"], match["last"] or ""
            kind: SegmentKind = "range" if last else "reference"
            found.append(Segment(kind, *match.span(), first=first, last=last))
    return found

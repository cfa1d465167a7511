"""Build stage: loaded, schema-checked documents -> the typed `RegisterSet`.

Building is tolerant: a field with a schema error is read as empty, so that one run
reports every problem in every file instead of stopping at the first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from ..citations.compare import empty_quote
from ..citations.prose import prose_fields
from ..citations.syntax import (
    OPEN_QUOTES,
    CitationSyntaxError,
    Parsed,
    parse_compact,
    parse_lines,
    parse_prose,
)
from ..model.claims import Claim
from ..model.diagnostic import Diagnostic
from ..model.notation import MAX_DIGITS
from ..model.positions import Path_
from ..model.prose import Prose
from ..model.registers import (
    Citation,
    Entry,
    LinkPattern,
    Note,
    Rated,
    Register,
    Revisions,
    Source,
    Sources,
    Where,
)
from ..model.vocabulary import RATED, RatedField
from . import schema, segments
from .document import Document, Mark

_LINES = re.compile(
    schema.python_pattern(
        schema.load_schema(schema.REGISTER)["$defs"]["citation"]["properties"]["lines"]["pattern"]
    )
)
"""The mapping form's `lines` as the schema allows them: the schema reports the others."""
_REVISION = re.compile(
    schema.python_pattern(schema.load_schema(schema.SOURCES)["$defs"]["revision"]["pattern"])
)
"""A revision name as the schema allows it. A name the schema refuses (and has reported) is
left out: it becomes a page's title and a nav entry, where an engine's template may print
it unescaped (material's `page.title | striptags` undoes the page's escaping)."""
_UNCLOSED = re.compile(r"quote opens with (.) but never closes")


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _opt_text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _key_where(doc: Document, path: Path_) -> Where:
    mark = doc.key_mark(path)
    return Where(doc.file, mark.line, mark.col)


def _where(doc: Document, path: Path_) -> Where:
    mark = doc.mark(path)
    return Where(doc.file, mark.line, mark.col)


# --- sources.yaml -------------------------------------------------------------------------


def build_sources(doc: Document | None, out: list[Diagnostic], display: str) -> Sources:
    """The typed sources.yaml; an unreadable file gives an empty one (already reported)."""
    if doc is None:
        return Sources(display, [], {}, [], [])
    data = doc.data
    sources = {
        alias: _build_source(doc, alias, value)
        for alias, value in _dict(data.get("sources")).items()
        if isinstance(value, dict)
    }
    links = list(_build_links(doc, out))
    revisions = _revision_names(data.get("revisions"))
    pending = [p for p in _list(data.get("pending")) if isinstance(p, str)]
    return Sources(doc.file, revisions, sources, links, pending, _dict(data.get("_meta")))


def _build_source(doc: Document, alias: str, data: dict[str, Any]) -> Source:
    claims = []
    for claim in _list(data.get("claims")):
        if isinstance(claim, str):
            claims.append(Claim(claim))
        elif isinstance(claim, dict) and isinstance(claim.get("glob"), str):
            claims.append(Claim(claim["glob"], _text(claim.get("under"))))
    return Source(
        alias=alias,
        title=_text(data.get("title")) or alias,
        repo=_opt_text(data.get("repo")),
        commit=_text(data.get("commit")),
        path=_opt_text(data.get("path")),
        claims=tuple(claims),
        where=_key_where(doc, ("sources", alias)),
        meta=_dict(data.get("_meta")),
        markdown=tuple(g for g in _list(data.get("markdown")) if isinstance(g, str) and g),
        statements=_globs(_dict(data.get("coverage")).get("statements")),
        changelog=_opt_text(_dict(data.get("coverage")).get("changelog")),
    )


def _globs(value: Any) -> tuple[str, ...]:
    return tuple(g for g in _list(value) if isinstance(g, str) and g)


def _build_links(doc: Document, out: list[Diagnostic]) -> Any:
    for index, link in enumerate(_list(doc.data.get("links"))):
        if not isinstance(link, dict) or not isinstance(link.get("pattern"), str):
            continue
        try:
            pattern = re.compile(link["pattern"])
        except re.error as err:
            mark = doc.mark(("links", index, "pattern"))
            message = f"link pattern '{link['pattern']}' is not a valid regular expression: {err}"
            out.append(
                Diagnostic(
                    file=doc.file,
                    line=mark.line,
                    col=mark.col,
                    severity="error",
                    id="sources",
                    code="bad-pattern",
                    message=message,
                )
            )
            continue
        yield LinkPattern(pattern, _text(link.get("url")))


# --- register files -----------------------------------------------------------------------


def build_register(
    doc: Document, slug: str, out: list[Diagnostic], links: Sequence[LinkPattern] = ()
) -> Register:
    """The typed register of one file, its prose parsed (with sources.yaml's `links`);
    citation syntax errors are reported to `out`."""
    data = doc.data
    builder = _CitationBuilder(doc, slug, out, links)
    summary, summary_citations = builder.in_prose(("summary",), slug)
    register = Register(
        slug=slug,
        file=doc.file,
        title=_text(data.get("title")) or slug,
        prefix=_text(data.get("prefix")),
        description=_text(data.get("description")),
        status=_text(data.get("status")),
        tags=[t for t in _list(data.get("tags")) if isinstance(t, str)],
        created=_text(data.get("created")),
        last_updated=_text(data.get("last-updated")),
        increment=data.get("increment") if isinstance(data.get("increment"), int) else 0,
        subject=_text(data.get("subject")),
        summary=summary,
        entries=[_build_entry(doc, slug, index, entry, builder) for index, entry in _entries(data)],
        where=_where(doc, ("prefix",)),
        summary_citations=summary_citations,
        meta=_dict(data.get("_meta")),
    )
    return register


def register_citations(doc: Document, slug: str, out: list[Diagnostic]) -> list[Citation]:
    """`build_register(doc, slug, out).citations()`, without building the rest of the
    register (entries' fields, notes): the edits' read-back compares only citations. The
    same walk (`_entries`, `_entry_id`, `_entry_citations`) as `build_register`, so the
    two cannot disagree on what a file cites."""
    builder = _CitationBuilder(doc, slug, out)
    found = builder.in_prose(("summary",), slug)[1]
    for index, entry in _entries(doc.data):
        listed, prose, _ = _entry_citations(
            ("entries", index), entry, _entry_id(slug, index, entry)[0], builder
        )
        found.extend(listed)
        found.extend(prose)
    return found


def part_citations(
    doc: Document, slug: str, part: Path_, value: Any, out: list[Diagnostic]
) -> list[Citation]:
    """The citations `register_citations` would read out of one part of `doc` if that part
    held `value`: `("summary",)`, an entry's `sources` item (`("entries", N, "sources",
    M)`) or one of its prose fields (`("entries", N, "what")`); nothing for any other part.
    The read-back of an edited part alone (following/readback.py)."""
    builder = _CitationBuilder(doc, slug, out)
    if part == ("summary",):
        return builder.in_prose(part, slug, value)[1] if isinstance(value, str) else []
    entries = _list(doc.data.get("entries")) if isinstance(doc.data, dict) else []
    index = part[1] if len(part) > 2 and part[0] == "entries" else None
    if not isinstance(index, int) or index >= len(entries) or not isinstance(entries[index], dict):
        return []
    entry_id = _entry_id(slug, index, entries[index])[0]
    inner = part[2:]
    if len(inner) == 2 and inner[0] == "sources" and isinstance(inner[1], int):
        found = builder.listed(part, value, entry_id)
        return [] if found is None else [found]
    if isinstance(value, str) and any(path == inner for path, _ in prose_fields(entries[index])):
        return builder.in_prose(part, entry_id, value)[1]
    return []


def listed_citation(
    doc: Document, slug: str, path: Path_, entry_id: str, out: list[Diagnostic]
) -> Citation | None:
    """The citation written at `path` of `doc` (compact or mapping form), as an entry's
    `sources:` item is read; None, with its syntax error in `out`, when it does not parse."""
    return _CitationBuilder(doc, slug, out).listed(path, _get(doc.data, path), entry_id)


def _entries(data: dict[str, Any]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each entry mapping of a register document, with its index (others are the schema's)."""
    for index, entry in enumerate(_list(data.get("entries"))):
        if isinstance(entry, dict):
            yield index, entry


def _entry_id(slug: str, index: int, data: dict[str, Any]) -> tuple[str, bool]:
    """An entry's ID, and whether it was written (else `slug[index]`; the schema says so)."""
    named = isinstance(data.get("id"), str) and data["id"] != ""
    return (data["id"] if named else f"{slug}[{index}]"), named


def _entry_citations(
    base: Path_, data: dict[str, Any], entry_id: str, builder: _CitationBuilder
) -> tuple[list[Citation], list[Citation], dict[Path_, Prose]]:
    """An entry's listed citations (its `sources`) and in-prose citations, in file order,
    and its prose fields parsed, by their path in the entry."""
    listed = [
        c
        for number, item in enumerate(_list(data.get("sources")))
        if (c := builder.listed((*base, "sources", number), item, entry_id)) is not None
    ]
    prose: list[Citation] = []
    texts: dict[Path_, Prose] = {}
    for path, text in prose_fields(data):
        parsed, cited = builder.in_prose((*base, *path), entry_id, text)
        if parsed is not None:
            texts[path] = parsed
        prose.extend(cited)
    return listed, prose, texts


def build_entry(doc: Document, slug: str, index: int, out: list[Diagnostic]) -> Entry | None:
    """The typed entry `entries[index]` of a register document, built alone (as
    `build_register` builds it); None when there is no such mapping."""
    entries = _list(doc.data.get("entries")) if isinstance(doc.data, dict) else []
    data = entries[index] if index < len(entries) else None
    if not isinstance(data, dict):
        return None
    return _build_entry(doc, slug, index, data, _CitationBuilder(doc, slug, out))


def _rated(entry: dict[str, Any], field: RatedField, note: Prose | None) -> Rated:
    data = _dict(entry.get(field))
    keyword = _text(data.get(RATED[field]))
    return Rated(keyword, note, _dict(data.get("_meta")))


def _revision_names(value: Any) -> list[str]:
    """The revision names of a list the schema allows (`_REVISION`), in order."""
    return [name for name in _list(value) if _revision_name(name) is not None]


def _revision_name(value: Any) -> str | None:
    return value if isinstance(value, str) and _REVISION.match(value) else None


def _revisions(data: Any) -> Revisions:
    data = _dict(data)
    return Revisions(
        added=_revision_name(data.get("added")),
        changed=_revision_names(data.get("changed")),
        removed=_revision_name(data.get("removed")),
        meta=_dict(data.get("_meta")),
    )


def _build_entry(
    doc: Document, slug: str, index: int, data: dict[str, Any], builder: _CitationBuilder
) -> Entry:
    base: Path_ = ("entries", index)
    entry_id, named = _entry_id(slug, index, data)
    listed, prose, texts = _entry_citations(base, data, entry_id, builder)
    notes = [
        Note(_text(n.get("title")), texts.get(("notes", number, "text"), ""))
        for number, n in enumerate(_list(data.get("notes")))
        if isinstance(n, dict)
    ]
    return Entry(
        id=entry_id,
        title=_text(data.get("title")),
        what=texts.get(("what",), ""),
        where_text=texts.get(("where",)),
        revisions=_revisions(data.get("revisions")),
        status=_rated(data, "status", texts.get(("status", "note"))),
        value=_rated(data, "value", texts.get(("value", "note"))),
        effort=_rated(data, "effort", texts.get(("effort", "note"))),
        risk=texts.get(("risk",), ""),
        detail=texts.get(("detail",)),
        notes=notes,
        tags=[t for t in _list(data.get("tags")) if isinstance(t, str)],
        citations=listed,
        prose_citations=prose,
        register=slug,
        where=_where(doc, base),
        field=base,
        named=named,
        meta=_dict(data.get("_meta")),
        next_step=texts.get(("next",)),
        texts=tuple(texts.values()),
    )


def _parse_lines(text: str) -> tuple[int, int]:
    """A mapping citation's `lines`, refused when a number is too long to be a line."""
    longest = max(len(number) for number in text.split("-"))
    if longest > MAX_DIGITS:
        raise CitationSyntaxError(
            f"number too large: a line number has at most {MAX_DIGITS} digits, not {longest}"
        )
    return parse_lines(text)


def _get(data: Any, path: Path_) -> Any:
    for part in path:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


class _CitationBuilder:
    """Reads citations out of one document, reporting syntax errors where they were written."""

    def __init__(
        self, doc: Document, slug: str, out: list[Diagnostic], links: Sequence[LinkPattern] = ()
    ):
        self.doc, self.slug, self.out, self.links = doc, slug, out, links

    def listed(self, path: Path_, item: Any, entry_id: str) -> Citation | None:
        try:
            if isinstance(item, str) and item:  # '' is the schema's to report
                parsed = parse_compact(item)
                return self._citation(parsed, item.strip(), False, entry_id, path)
            if isinstance(item, dict):
                return self._mapping(path, item, entry_id)
        except CitationSyntaxError as err:
            message = self._run_on_item(path) or self._reworded(path, str(err))
            self._report(self.doc.mark(path), entry_id, message)
        return None

    def _run_on_item(self, path: Path_) -> str | None:
        """A plain list item that runs on over a line starting with '- ', indented deeper:
        YAML reads that line as more of this item's text, not as the next item; the
        citation's complaint (a quote that never closes) would point at the wrong thing."""
        if self.doc.styles.get(path) or path not in self.doc.values:
            return None
        start, end = self.doc.raw(path)
        written = self.doc.text[start:end]
        run_on = re.search(r"\n([ \t]*)- ", written)
        if run_on is None:
            return None
        line = self.doc.position(start + run_on.start(1) + 1).line
        line_start = self.doc.text.rfind("\n", 0, start) + 1
        column = self.doc.text.rfind("-", line_start, start) - line_start + 1  # this item's
        return (
            f"this list item runs on over line {line}, whose '- ' is indented more than "
            f"this item's, so YAML reads it as more of this item: start it at column "
            f"{column}, under this item's '-'"
        )

    def _reworded(self, path: Path_, message: str) -> str:
        # parse_quote blames YAML's ' #' for a quote that never closes: that is the cause
        # only when a comment follows the plain value on its line. In quotes, in a block
        # scalar, or with no comment after it, YAML cut nothing: the closing mark is missing.
        unclosed = _UNCLOSED.match(message)
        if unclosed is None or self._cut_by_comment(path):
            return message
        return f"{unclosed.group()}: add the closing {OPEN_QUOTES[unclosed.group(1)]}"

    def _cut_by_comment(self, path: Path_) -> bool:
        """Whether the plain scalar at `path` is followed by a comment on its last line."""
        if self.doc.styles.get(path) or path not in self.doc.values:
            return False
        _, end = self.doc.raw(path)
        line_end = self.doc.text.find("\n", end)
        rest = self.doc.text[end : None if line_end < 0 else line_end]
        return rest.lstrip(" \t").startswith("#")

    def _report(self, mark: Mark, entry_id: str, message: str) -> None:
        self.out.append(
            Diagnostic(
                file=self.doc.file,
                line=mark.line,
                col=mark.col,
                severity="error",
                id=entry_id,
                code="bad-citation",
                message=message,
            )
        )

    def _mapping(self, path: Path_, item: dict[str, Any], entry_id: str) -> Citation | None:
        lines = item.get("lines")
        if not isinstance(item.get("path"), str) or not _LINES.match(str(lines)):
            return None  # the schema refuses these (the same pattern) and has said why
        try:
            start, end = _parse_lines(str(lines))
        except CitationSyntaxError as err:
            self._report(self.doc.mark((*path, "lines")), entry_id, str(err))
            return None
        alias = _opt_text(item.get("source"))
        quote = _opt_text(item.get("quote"))
        if quote is not None and empty_quote(quote):
            message = "empty quote: quote the cited text, or leave the quote out"
            self._report(self.doc.mark((*path, "quote")), entry_id, message)
            return None
        parsed = Parsed(alias, item["path"], start, end, quote, str(lines))
        text = f"{alias + ':' if alias else ''}{parsed.path}:{parsed.lines_text}"
        if quote:
            text += f" “{quote}”"
        return self._citation(parsed, text, False, entry_id, (*path, "lines"))

    def in_prose(
        self, path: Path_, entry_id: str, text: str | None = None
    ) -> tuple[Prose | None, list[Citation]]:
        """The field at `path` (whose `text` may be given) parsed, and its in-prose
        citations; (None, []) when it holds no text."""
        text = _get(self.doc.data, path) if text is None else text
        if not isinstance(text, str):
            return None, []
        prose = segments.parse(text, self.links, self.doc.file, path)
        found: list[Citation] = []
        for segment in prose.of_kind("citation"):
            written = text[segment.start : segment.end]
            alias = segment.first or None
            try:  # a token such as internal/x.go:9-5 is a citation, and a wrong one
                parsed = parse_prose(alias, segment.token, written)
            except CitationSyntaxError as err:
                mark = self.doc.token_mark(path, segment.token, segment.occurrence)
                self._report(mark, entry_id, str(err))
                continue
            found.append(self._citation(parsed, written, True, entry_id, path, segment.occurrence))
        return prose, found

    def _citation(
        self,
        parsed: Parsed,
        text: str,
        in_prose: bool,
        entry_id: str,
        path: Path_,
        occurrence: int = 0,
    ) -> Citation:
        mark = (
            self.doc.token_mark(path, parsed.token, occurrence) if in_prose else self.doc.mark(path)
        )
        return Citation(
            text=text,
            alias=parsed.alias,
            path=parsed.path,
            start=parsed.start,
            end=parsed.end,
            quote=parsed.quote,
            in_prose=in_prose,
            register=self.slug,
            entry=entry_id,
            where=Where(self.doc.file, mark.line, mark.col),
            field=path,
            token=parsed.token,
            occurrence=occurrence,
        )

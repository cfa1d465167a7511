"""Citations read out of one register document (`sources:` items, compact or mapping, and
in-prose ones), each, and each syntax error, located where it was written."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..citations.compare import empty_quote
from ..citations.syntax import (
    OPEN_QUOTES,
    CitationSyntaxError,
    Parsed,
    parse_compact,
    parse_lines,
    parse_prose,
)
from ..model.diagnostic import Diagnostic
from ..model.notation import MAX_DIGITS
from ..model.positions import Path_
from ..model.prose import Prose
from ..model.registers import Citation, LinkPattern, Where
from . import schema, segments
from .document import Document, Mark
from .tolerant import as_opt_text, value_at

_LINES = re.compile(
    schema.python_pattern(
        schema.load_schema(schema.REGISTER)["$defs"]["citation"]["properties"]["lines"]["pattern"]
    )
)
"""The mapping form's `lines` as the schema allows them: the schema reports the others."""
_UNCLOSED = re.compile(r"quote opens with (.) but never closes")


class CitationBuilder:
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

    def _plain(self, path: Path_) -> tuple[int, int] | None:
        """The span of the plain (unquoted, not block) scalar at `path`, else None."""
        plain = not self.doc.styles.get(path) and path in self.doc.values
        return self.doc.raw(path) if plain else None

    def _run_on_item(self, path: Path_) -> str | None:
        """A plain list item that runs on over a deeper line starting with '- ', which YAML reads
        as more of its text (the citation's own complaint would point at the wrong thing)."""
        span = self._plain(path)
        run_on = span and re.search(r"\n([ \t]*)- ", self.doc.text[span[0] : span[1]])
        if not span or not run_on:
            return None
        start = span[0]
        line = self.doc.position(start + run_on.start(1) + 1).line
        column = self.doc.mark(path[:-1]).col  # the list's first '-', where every '-' starts
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
        if (span := self._plain(path)) is None:
            return False
        line_end = self.doc.text.find("\n", span[1])
        rest = self.doc.text[span[1] : None if line_end < 0 else line_end]
        return rest.lstrip(" \t").startswith("#")

    def _report(self, mark: Mark, entry_id: str, message: str) -> None:
        where = Where(self.doc.file, mark.line, mark.col)
        self.out.append(Diagnostic.at(where, id=entry_id, code="bad-citation", message=message))

    def _mapping(self, path: Path_, item: dict[str, Any], entry_id: str) -> Citation | None:
        lines = item.get("lines")
        if not isinstance(item.get("path"), str) or not _LINES.match(str(lines)):
            return None  # the schema refuses these (the same pattern) and has said why
        longest = max(len(number) for number in str(lines).split("-"))
        try:  # the longer of two numbers is named (parse_lines names the first)
            if longest > MAX_DIGITS:
                message = f"a line number has at most {MAX_DIGITS} digits, not {longest}"
                raise CitationSyntaxError(f"number too large: {message}")
            start, end = parse_lines(str(lines))
        except CitationSyntaxError as err:
            self._report(self.doc.mark((*path, "lines")), entry_id, str(err))
            return None
        alias = as_opt_text(item.get("source"))
        quote = as_opt_text(item.get("quote"))
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
        """The field at `path` (or `text`) parsed, and its in-prose citations; (None, []) when
        it holds no text."""
        text = value_at(self.doc.data, path) if text is None else text
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
            file=self.doc.file,
            line=mark.line,
            col=mark.col,
            field=path,
            token=parsed.token,
            occurrence=occurrence,
        )

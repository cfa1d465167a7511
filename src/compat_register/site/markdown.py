"""Register prose -> safe Markdown. Outside code, raw HTML is escaped, attribute lists
(`{: onclick=...}`) defused, a link kept only to http(s) or a relative URL; references,
citations and link patterns linked. Pure."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import quote

from ..citations.bounds import over_bounds
from ..citations.nonprose import Span, merge, overlaps
from ..citations.quoting import code_span
from ..model.prose import Prose, Segment
from ..model.registers import Citation, CitationKey, Sources, anchor_of
from ..reading import segments
from ..reading.ids import prefix_of

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_SAFE_SCHEME = re.compile(r"https?://", re.IGNORECASE)
_BLOCKQUOTE = re.compile(r"^[ ]{0,3}>", re.MULTILINE)
_FENCE_INFO = re.compile(r"^([ ]{0,3}(?:`{3,}|~{3,}))[ \t]*([\w+#.\-]*)[^\n]*", re.MULTILINE)
_UNSAFE_CHARS = re.compile(r"[\x00-\x20\\\x7f]")
_INLINE_SPECIALS = re.compile(r"([\\`*_\[\]{}|~#!])")
_OPEN_BACKTICK = re.compile(r"(?<!\\)((?:\\\\)*)`")
_PIPE = re.compile(r"(\\*)\|")
_DESTINATION_BREAKERS = re.compile(r"[\s()<>\"'`\\\[\]]")
_HTML_SPECIALS = re.compile(r"[&<>{]")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "{": "\\{"}


OVER_BOUNDS = "*(This field is too long or holds too many brackets to show: see `register check`.)*"
"""What the site shows for a prose field `register check` refuses as too costly."""


def safe_url(url: str) -> bool:
    """True for an http(s) URL or a relative one (no scheme, no control characters)."""
    # Decoded first: a browser reads `jav&#x61;script:` in an href as `javascript:`.
    url = html.unescape(url.strip("<>"))
    if _UNSAFE_CHARS.search(url):
        return False  # browsers drop tabs and newlines, so `java\tscript:` is javascript:
    if _SAFE_SCHEME.match(url):
        return True
    head = re.split(r"[/?#]", url, maxsplit=1)[0]
    return not _SCHEME.match(head) and not url.startswith("//")


def link_destination(url: str) -> str:
    """A URL as a Markdown link's destination: every character that could end it, open a
    title or start markup (`)`, a space, `<`, a quote) encoded."""
    return _DESTINATION_BREAKERS.sub(lambda m: quote(m[0], safe=""), url)


def url_path(path: str) -> str:
    """A relative page path as a link destination, percent-encoded."""
    return quote(path, safe="/.-_~")


def escape_html(text: str) -> str:
    """`&`, `<` and `>` as entities (keeping `>` that marks a blockquote), and `{` escaped,
    since attr_list would read `{: onclick=...}` as attributes."""
    if not _HTML_SPECIALS.search(text):
        return text
    quotes = {m.end() - 1 for m in _BLOCKQUOTE.finditer(text)}
    return _HTML_SPECIALS.sub(lambda m: ">" if m.start() in quotes else _ENTITIES[m[0]], text)


def escape_inline(text: str) -> str:
    """Plain text (a title, a quote, a path) as Markdown that shows exactly that text."""
    return _INLINE_SPECIALS.sub(r"\\\1", " ".join(html.escape(text, quote=False).split()))


@dataclass
class Linker:
    """What prose needs to link: the sources, each entry's page, the page being rendered,
    how one page links another, and the in-prose citations as resolved (a citation links
    to what verify checked, not a second guess)."""

    sources: Sources
    entry_pages: dict[str, str]
    page: str = ""
    relative: Callable[[str, str], str] = field(default=lambda target, page: target)
    citations: Mapping[CitationKey, Citation] = field(default_factory=dict)

    def entry_link(self, entry_id: str) -> str | None:
        target = self.entry_pages.get(entry_id)
        if target is None:
            return None
        anchor = "#" + anchor_of(entry_id)
        if target == self.page:
            return anchor
        return url_path(self.relative(target, self.page)) + anchor


def citation_link(citation: Citation, sources: Sources) -> str:
    """`[alias:path:lines](pinned blob permalink)`, or code text without a public URL."""
    label = f"{citation.alias}:" if citation.alias else ""
    label += f"{citation.path}:{citation.lines_text}"  # as written, without the quote
    source = sources.sources.get(citation.source or "")
    url = None
    if source is not None and citation.repo_path is not None:
        url = source.blob_url(citation.repo_path, citation.start, citation.end)
    if url and safe_url(url):
        return f"[{escape_inline(label)}]({link_destination(url)})"
    return code_span(label)


def prose(text: str, linker: Linker, *, one_line: bool = False, own_line: bool = False) -> str:
    """Register prose as safe Markdown, what is code read where the text goes (after
    `- **What.** `, or with `own_line` on a line of its own). With `one_line` (a table cell)
    each code block becomes a code span and every other backtick and `|` is escaped."""
    if not text:
        return ""
    if over_bounds(text):  # Python-Markdown would spend seconds or minutes on it
        return OVER_BOUNDS
    parsed = segments.of(text, linker.sources.links)
    if own_line:
        parsed = segments.on_own_line(parsed, linker.sources.links)
    code = [(s.start, s.end) for s in parsed.of_kind("code")]
    links = list(_safe_links(parsed, code, one_line))
    protected = merge(span for span, _ in links)
    to_code = _code_on_one_line if one_line else _code
    edits = [(s, e, to_code(text[s:e], _line_start(text, s, own_line))) for s, e in code]
    edits += [(s, e, rendered) for (s, e), rendered in links]
    edits += [r for r in _replacements(parsed, linker) if not overlaps(r[:2], protected)]
    if not one_line:
        return _apply(text, sorted(edits), _defuse)
    return " ".join(_apply(text, sorted(edits), _defuse_on_one_line).split())


def opens_with_fence(text: str) -> bool:
    """Whether `text` starts with a fenced code block (to be put on a line of its own)."""
    return bool(text) and segments.of(text).own_line is not None


def _apply(text: str, edits: list[tuple[int, int, str]], plain: Callable[[str], str]) -> str:
    out, pos = [], 0
    for start, end, rendered in edits:
        if start < pos:
            continue
        out.append(plain(text[pos:start]))
        out.append(rendered)
        pos = end
    out.append(plain(text[pos:]))
    return "".join(out)


def _code(block: str, at_line_start: bool) -> str:
    """Code as written, but a fence (a range that starts a line) loses its `{...}`."""
    return _FENCE_INFO.sub(r"\1\2", block, count=1) if at_line_start else block


def _line_start(text: str, offset: int, own_line: bool) -> bool:
    # Offset 0 follows `- **What.** ` unless the field was put on a line of its own.
    return text[offset - 1] == "\n" if offset else own_line


def _code_on_one_line(block: str, at_line_start: bool) -> str:
    """A code block or span as one code span on one line (only a range that starts a line
    is a fence: ```` see ```a``` ```` holds a span)."""
    if at_line_start and segments.FENCE_LINE.match(block):
        lines = block.splitlines()
        closed = len(lines) > 1 and segments.FENCE_LINE.fullmatch(lines[-1]) is not None
        block = "\n".join(lines[1:-1] if closed else lines[1:])
    elif block.startswith("`"):
        block = block.strip("`")
    return code_span(" ".join(block.split())) if block.strip() else ""


def _defuse(text: str) -> str:
    """Plain prose: HTML escaped, and no `](` or `]:` left for a link or link definition
    (every `]:`: Python-Markdown reads definitions in blockquotes and nested items too)."""
    return escape_html(text).replace("]:", "]&#58;").replace("](", "]\\(")


def _defuse_on_one_line(text: str) -> str:
    """Plain prose for a table cell: also no bare backtick (it would pair with one on a
    joined line) and no bare `|` (it would end the cell; each backslash before it doubled,
    or an author's `\\|` would escape the escape)."""
    text = _OPEN_BACKTICK.sub(r"\1\\`", _defuse(text))
    return _PIPE.sub(lambda m: m[1] * 2 + "\\|", text)


def _safe_links(parsed: Prose, code: list[Span], one_line: bool) -> Iterator[tuple[Span, str]]:
    """Inline links and autolinks to safe URLs, rendered; their text (outside its `code`) is
    escaped, not linked."""
    for link in parsed.of_kind("link"):
        span, written = (link.start, link.end), parsed[link.start : link.end]
        if not link.inner:  # an autolink to http(s)
            yield span, _url_on_one_line(written) if one_line else written
            continue
        if not safe_url(link.url):
            continue
        text_start, text_end, dest_start = link.inner
        head, label = parsed[link.start : text_start], parsed[text_start:text_end]
        shown = _escape_code_aware(parsed, (text_start, text_end), code)
        if head.startswith("!") and _SAFE_SCHEME.match(link.url.lstrip("<")):
            # an image on another host becomes a link to it: viewing a page loads nothing
            # from elsewhere (no tracking pixel in a register)
            head, label, shown = head[1:], label or "image", shown or "image"
        if one_line:  # no code span, no title: nothing that could pair with another line
            dest = _url_on_one_line(link.url).replace("&", "&amp;")
            yield span, f"{head}{escape_inline(label)}]({dest})"
            continue
        middle = parsed[text_end:dest_start]
        # `&` as an entity: the browser decodes the href, so `a=1&amp;b=2` reaches it as `&`.
        tail = parsed[dest_start : link.end].replace("&", "&amp;")
        yield span, head + shown + middle + tail


def _url_on_one_line(url: str) -> str:
    return url.replace("`", "%60").replace("|", "%7C")


def _escape_code_aware(parsed: Prose, label: Span, code: list[Span]) -> str:
    """A link's text (`label`, a span of `parsed`) with HTML escaped outside its code."""
    start, end = label
    inside = [(s - start, e - start) for s, e in code if start <= s and e <= end]
    text = parsed[start:end]
    return _apply(text, [(s, e, text[s:e]) for s, e in inside], escape_html)


def _replacements(parsed: Prose, linker: Linker) -> Iterator[tuple[int, int, str]]:
    for segment in parsed.segments:
        written = parsed[segment.start : segment.end]
        if segment.kind in ("reference", "range", "pattern"):
            yield segment.start, segment.end, _reference(written, segment, linker)
        elif segment.kind == "citation":
            key = CitationKey(parsed.file, parsed.field, segment.token, segment.occurrence)
            citation = linker.citations.get(key)
            rendered = citation_link(citation, linker.sources) if citation else code_span(written)
            yield segment.start, segment.end, rendered


def _reference(written: str, ref: Segment, linker: Linker) -> str:
    if ref.url:
        if safe_url(ref.url):
            return f"[{escape_inline(written)}]({link_destination(ref.url)})"
        return escape_inline(written)
    ends = [ref.first] + ([ref.last] if ref.last else [])
    pending = {prefix_of(e) for e in ends} & set(linker.sources.pending)
    if pending and all(prefix_of(e) in pending for e in ends):
        return pending_span(written, sorted(pending))
    return "..".join(entry_link(e, linker.entry_link(e), linker.sources.pending) for e in ends)


def entry_link(entry_id: str, url: str | None, pending: Sequence[str] = ()) -> str:
    """`[META-07](meta.md#meta-07)`; without a page, the ID as escaped text (noted when its
    register is pending): an owner may be any text."""
    if url is not None:
        return f"[{escape_inline(entry_id)}]({url})"
    if prefix_of(entry_id) in pending:
        return pending_span(entry_id, [prefix_of(entry_id)])
    return escape_inline(entry_id)  # a dangling reference (reported by check), or not an ID


def pending_span(text: str, prefixes: list[str]) -> str:
    """A reference to an unpublished register: its text, and a note saying so on the page
    (a `title` alone reaches neither touch nor keyboard users)."""
    said = "register {} is" if len(prefixes) == 1 else "registers {} are"
    title = html.escape(said.format(", ".join(prefixes)) + " not published yet")
    note = '<span class="reg-pending__note">(not published yet)</span>'
    return f'<span class="reg-pending" title="{title}">{escape_inline(text)} {note}</span>'

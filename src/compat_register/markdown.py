"""Register prose -> safe Markdown: the one place where text written in YAML meets a page.

A register entry may hold anything, and a published site must not run a script an entry
smuggled in. So, outside code, raw HTML is escaped, attribute lists (`{: onclick=...}`) are
defused, and a Markdown link keeps its syntax only when it points to http(s) or a relative
URL. Then cross-references, in-prose citations and external link patterns become links.
Everything here is pure: text in, text out.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from . import refs
from .citations import PROSE_CITATION, claimants, is_citation_path
from .models import Sources
from .prose import code_ranges

Span = tuple[int, int]

# `[text](dest "title")`, one level of parentheses inside dest (as in Wikipedia URLs).
_INLINE_LINK = re.compile(
    r"!?\[(?P<text>[^\[\]\n]*)\]\(\s*(?P<dest><[^<>\n]*>|(?:[^()\s]|\([^()\s]*\))*)"
    r"(?:\s+(?:\"[^\"\n]*\"|'[^'\n]*'))?\s*\)"
)
_LINK_OPEN = re.compile(r"\]\(")
_REF_DEFINITION = re.compile(r"^[ ]{0,3}\[[^\]\n]+\]:[ \t]*<?(?P<dest>[^\s>]*)", re.MULTILINE)
_AUTOLINK = re.compile(r"<https?://[^\s<>]+>", re.IGNORECASE)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_SAFE_SCHEME = re.compile(r"https?://", re.IGNORECASE)
_BLOCKQUOTE = re.compile(r"^[ ]{0,3}>", re.MULTILINE)
_FENCE_INFO = re.compile(r"^([ ]{0,3}(?:`{3,}|~{3,}))[ \t]*([\w+#.\-]*)[^\n]*", re.MULTILINE)
_UNSAFE_CHARS = re.compile(r"[\x00-\x20\\\x7f]")
_INLINE_SPECIALS = re.compile(r"([\\`*_\[\]{}|~#!])")


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


_HTML_SPECIALS = re.compile(r"[&<>{]")
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "{": "\\{"}


def escape_html(text: str) -> str:
    """`&`, `<` and `>` as entities (keeping `>` that marks a blockquote), `{` escaped.

    `{` is escaped because attr_list would read `{: onclick=...}` as attributes.
    """
    if not _HTML_SPECIALS.search(text):
        return text
    quotes = {m.end() - 1 for m in _BLOCKQUOTE.finditer(text)}
    return _HTML_SPECIALS.sub(lambda m: ">" if m.start() in quotes else _ENTITIES[m[0]], text)


def escape_inline(text: str) -> str:
    """Plain text (a title, a quote, a path) as Markdown that shows exactly that text."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _INLINE_SPECIALS.sub(r"\\\1", " ".join(text.split()))


def code_span(text: str) -> str:
    """`text` as an inline code span, with a fence longer than any backtick run inside."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


@dataclass
class Linker:
    """What prose needs to link: the sources, and the page and anchor of every entry."""

    sources: Sources
    entry_pages: dict[str, str]
    """Entry ID -> the page (path relative to the docs dir) that holds it."""
    page: str = ""
    """The page being rendered: links to its own entries are bare anchors."""
    relative: Callable[[str, str], str] = field(default=lambda target, page: target)
    """(target page, current page) -> the relative link between them."""

    def entry_link(self, entry_id: str) -> str | None:
        target = self.entry_pages.get(entry_id)
        if target is None:
            return None
        anchor = "#" + entry_id.lower()
        return anchor if target == self.page else self.relative(target, self.page) + anchor

    def citation_url(self, alias: str | None, path: str, start: int, end: int) -> str | None:
        """The pinned blob permalink of a citation, when its source has a public repo."""
        if alias:
            source = self.sources.sources.get(alias)
            return source.blob_url(path, start, end) if source else None
        found = claimants(path, self.sources.claims())
        if len(found) != 1:
            return None
        return self.sources.sources[found[0][0]].blob_url(found[0][1], start, end)


def prose(text: str, linker: Linker) -> str:
    """Register prose as safe Markdown, with references, citations and patterns linked."""
    if not text:
        return ""
    code = code_ranges(text)
    links = list(_safe_links(text, code))
    protected = sorted(code + [span for span, _ in links])
    edits = [(s, e, _code(text[s:e])) for s, e in code]
    edits += [(s, e, rendered) for (s, e), rendered in links]
    edits += [r for r in _replacements(text, linker) if not _overlaps((r[0], r[1]), protected)]
    return _apply(text, sorted(edits), _defuse)


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


def _overlaps(span: Span, ranges: list[Span]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in ranges)


def _code(block: str) -> str:
    """Code as written, except a fence's info string loses its `{...}` attributes."""
    return _FENCE_INFO.sub(lambda m: f"{m[1]}{m[2]}", block, count=1)


def _defuse(text: str) -> str:
    """Plain prose: unsafe link definitions broken, HTML escaped, any `](` left broken."""
    text = _REF_DEFINITION.sub(
        lambda m: m[0] if safe_url(m["dest"]) else "\\" + m[0].lstrip(" "), text
    )
    return _LINK_OPEN.sub(r"]\\(", escape_html(text))  # a safe inline link is not plain text


def _safe_links(text: str, code: list[Span]) -> Iterator[tuple[Span, str]]:
    """Inline links and autolinks to safe URLs, rendered; their text is escaped, not linked."""
    for match in _AUTOLINK.finditer(text):
        if not _overlaps(match.span(), code):
            yield match.span(), match[0]
    for match in _INLINE_LINK.finditer(text):
        if _overlaps((match.start(), match.start() + 1), code) or not safe_url(match["dest"]):
            continue
        head = text[match.start() : match.start("text")]
        middle = text[match.end("text") : match.start("dest")]
        # `&` as an entity: the browser decodes the href, so `a=1&amp;b=2` reaches it as `&`.
        tail = text[match.start("dest") : match.end()].replace("&", "&amp;")
        yield match.span(), head + _escape_code_aware(match["text"]) + middle + tail


def _escape_code_aware(text: str) -> str:
    """Escape HTML outside the code spans of `text` (a link's text may hold code)."""
    return _apply(text, [(s, e, text[s:e]) for s, e in code_ranges(text)], escape_html)


def _replacements(text: str, linker: Linker) -> Iterator[tuple[int, int, str]]:
    for ref in refs.scan(text, linker.sources.links):
        yield ref.start, ref.end, _reference(ref, linker)
    for match in PROSE_CITATION.finditer(text):
        if is_citation_path(match["path"]):
            yield match.start(), match.end(), _citation(match, linker)


def _citation(match: re.Match[str], linker: Linker) -> str:
    end = int(match["end"] or match["start"])
    url = linker.citation_url(match["alias"], match["path"], int(match["start"]), end)
    if url is None:
        return code_span(match[0])
    return f"[{escape_inline(match[0])}]({url})"


def _reference(ref: refs.Ref, linker: Linker) -> str:
    if ref.url:
        return f"[{escape_inline(ref.text)}]({ref.url})" if safe_url(ref.url) else ref.text
    ends = [ref.first] + ([ref.last] if ref.last else [])
    pending = {refs.prefix_of(e) for e in ends} & set(linker.sources.pending)
    if pending and all(refs.prefix_of(e) in pending for e in ends):
        return pending_span(ref.text, sorted(pending))
    return "..".join(_one_reference(end, linker) for end in ends)


def _one_reference(entry_id: str, linker: Linker) -> str:
    url = linker.entry_link(entry_id)
    if url is not None:
        return f"[{entry_id}]({url})"
    if refs.prefix_of(entry_id) in linker.sources.pending:
        return pending_span(entry_id, [refs.prefix_of(entry_id)])
    return entry_id  # a dangling reference (reported by check) or not a register prefix


def pending_span(text: str, prefixes: list[str]) -> str:
    """A reference to an unpublished register: plain text with a title that says so."""
    names = ", ".join(prefixes)
    verb = "is" if len(prefixes) == 1 else "are"
    noun = "register" if len(prefixes) == 1 else "registers"
    title = f"{noun} {names} {verb} not published yet"
    return f'<span class="reg-pending" title="{title}">{escape_inline(text)}</span>'

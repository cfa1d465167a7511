"""The Coverage pages: the summary of every revision, a page per revision (its counts and
files) and a page per statement file (its statements, each with its entries, reason or
checks); and the links a register page makes into them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from ..coverage import sitecoverage as site_coverage
from ..coverage.sitecoverage import SiteCoverage, cited_as
from ..coverage.states import OUT, Row, counts_text, share
from ..model.notation import lines_text
from ..model.registers import Sources
from . import chart
from .markdown import escape_inline, link_destination, safe_url
from .urls import Layout

if TYPE_CHECKING:
    from ..conformance.join import Joined, StatementCheck


@dataclass
class CoveragePages:
    """Draws `coverage` for `sources`: `render(template, page, **context)` renders a page;
    `joined` gives each statement's checks (None: no suite named)."""

    coverage: SiteCoverage
    sources: Sources
    layout: Layout
    render: Callable[..., str]
    joined: Joined | None = None

    def pages(self) -> dict[str, str]:
        """The summary, each revision's page and each of its files' pages, by path."""
        found, revisions = self.coverage.coverage, self.sources.revisions
        summary = self.render(
            "coverage-summary.md.j2",
            self.layout.coverage_summary,
            rows=site_coverage.summary(found) if found is not None else [],
            problems=self.coverage.problems,
            share_of=share,
            bar_of=lambda revision, counts: bar(revision, f"coverage-{revision}", counts),
        )
        pages = {self.layout.coverage_summary: summary}
        for revision in revisions if found is not None else []:
            view = self.coverage.revision(revision, self.sources)
            assert view is not None
            page = self.layout.coverage_page(revision)
            pages[page] = self._page("coverage.md.j2", page, view=view)
            for file in view.files:
                page = self.layout.coverage_file(revision, file.slug)
                first = revision == revisions[0]
                pages[page] = self._page(
                    "coverage-file.md.j2", page, file=file, revision=revision, first=first
                )
        return pages

    def _page(self, name: str, page: str, **context: Any) -> str:
        """A revision's or a file's Coverage page, with the helpers both use."""
        return self.render(
            name,
            page,
            states=site_coverage.STATES,
            counts_text=counts_text,
            share_of=share,
            bar=lambda file: bar(file.shown, f"file-{file.shown}", file.counts),
            statement_link=lambda row: Markup(self._statement_link(row)),
            cited_as=self.cited_as,
            checks_of=self._checks_of,
            file_page=self.file_page,
            safe_link=lambda url: Markup(link_destination(url) if safe_url(url) else "#"),
            **context,
        )

    def _statement_link(self, row: Row) -> str:
        """`[12-13](permalink)`, or the lines as text where the source has no public URL."""
        lines = escape_inline(lines_text(row.statement.line, row.statement.end))
        url = site_coverage.statement_url(row, self.sources)
        return f"[{lines}]({link_destination(url)})" if url else lines

    def _checks_of(self, row: Row) -> tuple[StatementCheck, ...]:
        return self.joined.of(row) if self.joined is not None else ()

    def file_page(self, row: Row) -> str:
        """The Coverage page of the file holding `row`'s statement."""
        return self.layout.coverage_file(row.revision, self.coverage.slug_of(row))

    def cited_as(self, row: Row) -> str:
        return cited_as(row.source, row.statement.path, self.sources)


def bar(label: str, anchor: str, counts: Mapping[str, int]) -> Markup:
    """A revision's or a file's state bar in a Markdown table cell, a segment per state (out
    of scope only where a scope leaves any out), its title escaped as Markdown text."""
    segments = {s: counts[s] for s in site_coverage.STATES if s != OUT or counts[s]}
    return Markup(chart.state_bar(label, anchor, segments, escape_inline))

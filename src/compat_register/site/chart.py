"""A register's state counts over time (the Changes page's step lines) and its states now
(the overview's stacked bar), as inline SVG made at build time, no script. The `<title>`
says the numbers; lines differ by dash as well as colour."""

from __future__ import annotations

import html
import time
from collections.abc import Callable, Sequence

from ..model.vocabulary import CHARTED

WIDTH, HEIGHT = 640, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 30
"""Margins: the counts' axis on the left, dates below."""

Point = tuple[int, dict[str, int]]
"""(seconds since the epoch, state -> count)."""


def day(seconds: int) -> str:
    """The UTC date: `2026-10-02`."""
    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


def counts_text(counts: dict[str, int]) -> str:
    """`3 done, 2 partial, 1 missing`."""
    return ", ".join(f"{counts.get(state, 0)} {state}" for state in CHARTED)


def svg(
    name: str, anchor: str, points: Sequence[Point], span: tuple[int, int] | None = None
) -> str:
    """The chart of `points` (oldest first, at least one) as one line of SVG, on the time
    axis `span` (the points' own when None); `anchor` makes its ids unique on the page. Its
    title says what it shows, numbers included."""
    top = max([1, *(p[1].get(s, 0) for p in points for s in CHARTED)])
    times = [p[0] for p in points]
    start, end = span if span is not None else (times[0], times[-1])
    start, end = min(start, times[0]), max(end, times[-1])
    x_of = _x_scale(times, start, end)

    def y_of(count: int) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - count / top)

    (first_at, first), (last_at, last) = points[0], points[-1]
    said = f"{name}: {counts_text(last)} on {day(last_at)}"
    if len(points) > 1:
        changes = f"{len(points) - 1} change{'s' if len(points) != 2 else ''}"
        said += f"; {counts_text(first)} on {day(first_at)}, {changes} since"
    title_id = f"chart-{_css_suffix(anchor)}"  # an id, whatever the register's file is called
    parts = [
        f'<svg class="reg-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{title_id}">',
        f'<title id="{title_id}">{html.escape(said)}</title>',
        *_axes(top, y_of, start, end),
        *(_line(state, points, x_of, y_of) for state in CHARTED),
        "</svg>",
    ]
    return "".join(parts)


def _x_scale(times: list[int], start: int, end: int) -> list[float]:
    """Each point's x from `start` to `end` (spread evenly on an axis of no length), then
    the axis' end, where every line ends."""
    span = WIDTH - LEFT - RIGHT
    if end == start:
        step = span / (len(times) - 1) if len(times) > 1 else 0
        found = [LEFT + step * i for i in range(len(times))]
    else:
        found = [LEFT + span * (t - start) / (end - start) for t in times]
    return [*found, float(LEFT + span)]


def _axes(top: int, y_of: Callable[[int], float], start: int, end: int) -> list[str]:
    bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
    found = [
        f'<line class="reg-chart-axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"></line>',
        f'<line class="reg-chart-axis" x1="{LEFT}" y1="{bottom}" x2="{right}" y2="{bottom}">'
        "</line>",
        f'<text x="{LEFT - 6}" y="{y_of(top) + 4:.1f}" text-anchor="end">{top}</text>',
        f'<text x="{LEFT - 6}" y="{bottom + 4}" text-anchor="end">0</text>',
        f'<text x="{LEFT}" y="{HEIGHT - 6}">{day(start)}</text>',
    ]
    if day(end) != day(start):
        found.append(f'<text x="{right}" y="{HEIGHT - 6}" text-anchor="end">{day(end)}</text>')
    return found


SPREAD = 3.0
"""How far apart the lines are drawn, in the chart's units: two states of equal counts
show as two lines side by side, neither hiding the other (done above, missing below)."""


def _line(
    state: str, points: Sequence[Point], x_of: list[float], y_of: Callable[[int], float]
) -> str:
    """A step line, `SPREAD` off its neighbours: a count holds until the next change; the
    last to the axis' end."""
    shift = (CHARTED.index(state) - (len(CHARTED) - 1) / 2) * SPREAD
    coordinates: list[str] = []
    y = 0.0
    for index, (_, counts) in enumerate(points):
        if coordinates:
            coordinates.append(f"{x_of[index]:.1f},{y:.1f}")
        y = y_of(counts.get(state, 0)) + shift
        coordinates.append(f"{x_of[index]:.1f},{y:.1f}")
    coordinates.append(f"{x_of[len(points)]:.1f},{y:.1f}")
    css = f"reg-chart-line reg-chart-{state}"
    return f'<polyline class="{css}" points="{" ".join(coordinates)}"></polyline>'


BAR_WIDTH, BAR_HEIGHT = 200, 14
"""The overview's state bar: a segment per state, its counts in its title."""


def state_bar(
    label: str, anchor: str, counts: dict[str, int], escape: Callable[[str], str] = html.escape
) -> str:
    """A stacked bar of `counts` (state -> entries); `anchor` makes its title's id unique.
    Each `<rect>` is closed: the sanitizer drops self-closing slashes."""
    total = sum(counts.values())
    parts = ", ".join(f"{count} {state}" for state, count in counts.items())
    # in a Markdown table cell the title is read as Markdown too: `escape` fits the place
    name = escape(f"{label}: {parts}" if total else f"{label}: no entries")
    title_id = f"state-bar-{_css_suffix(anchor)}"
    rects, x = [], 0.0
    for state, count in counts.items():
        if not count:
            continue
        width = BAR_WIDTH * count / total
        rects.append(
            f'<rect class="reg-bar--{_css_suffix(state)}" x="{x:.2f}" y="0" '
            f'width="{width:.2f}" height="{BAR_HEIGHT}"></rect>'
        )
        x += width
    return (
        f'<svg class="reg-bar" role="img" aria-labelledby="{title_id}" width="{BAR_WIDTH}" '
        f'height="{BAR_HEIGHT}"><title id="{title_id}">{name}</title>{"".join(rects)}</svg>'
    )


def _css_suffix(key: str) -> str:
    """`n/a` -> `n-a`."""
    return "".join(c if c.isalnum() else "-" for c in key.lower()).strip("-") or "none"


def bar_legend(states: Sequence[str]) -> str:
    """The bars' key: a sample of each state's colour, then its name, in the bars' order."""
    keys = "".join(
        f'<span class="reg-bar-key"><svg class="reg-bar-swatch" width="12" height="12" '
        f'aria-hidden="true"><rect class="reg-bar--{_css_suffix(state)}" x="0" y="0" '
        f'width="12" height="12"></rect></svg>{html.escape(state)}</span>'
        for state in states
    )
    return f'<p class="reg-bar-legend">States, left to right: {keys}</p>'

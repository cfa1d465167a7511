"""Badge colours, computed from register.css: WCAG contrast of 4.5:1 or better for every
badge in material's default and slate schemes, and no two keys of one kind alike."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from compat_register.site import formatter, jinja

CSS = jinja.asset("register.css")
KINDS = {
    "state": ("done", "partial", "missing", "n-a", "unknown"),
    "value": ("high", "med", "low", "none"),
    "effort": ("s", "m", "l", "xl"),
    "status": ("standard", "draft", "retired"),
    "outcome": ("unstamped",),
    "cell": ("added", "changed", "removed"),
    "coverage": ("cited", "excluded", "out-of-scope", "uncovered"),
}
THEME_COLOURED = {"reg-cell--present", "reg-cell--absent", "reg-cell--unrecorded"}
"""Revision-matrix cells drawn as plain text in material's own text colours (no badge)."""
SLATE = '[data-md-color-scheme="slate"]'


def rules(css: str) -> Iterator[tuple[list[str], dict[str, str]]]:
    """(selectors, declarations) of each rule at the top level of `css`."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    css = re.sub(r"@media[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}", "", css)  # not the phone layout
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        declarations = dict(
            (name.strip(), value.strip())
            for name, value in (d.split(":", 1) for d in body.split(";") if ":" in d)
        )
        # A selector list splits at the commas outside parentheses (`:is(p, li)` is one).
        yield [s.strip() for s in re.split(r",(?![^()]*\))", selectors)], declarations


def colours(badge_class: str, scheme: str) -> tuple[str, str]:
    """The text and background colour of `.reg-badge.<badge_class>` in `scheme`, in cascade
    order: the base badge, the kind's rule, then slate's overrides."""
    wanted = [".md-typeset .reg-badge", f".md-typeset .{badge_class}"]
    if scheme == "slate":
        wanted += [f"{SLATE} {selector}" for selector in wanted]
    found = {"color": "", "background-color": ""}
    for selector in wanted:
        for selectors, declarations in rules(CSS):
            if selector in selectors:
                found.update({k: v for k, v in declarations.items() if k in found})
    return found["color"], found["background-color"]


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of a `#rrggbb` colour."""
    assert re.fullmatch(r"#[0-9a-f]{6}", colour), colour

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i : i + 2], 16)) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_ratio_matches_the_wcag_examples() -> None:
    assert ratio("#000000", "#ffffff") == pytest.approx(21)
    assert ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # the classic near-miss
    # The audit's failures, from the colours the site had: partial 4.24, dark done 4.12.
    assert ratio("#ffffff", "#b26a00") == pytest.approx(4.24, abs=0.01)
    assert ratio("#ffffff", "#388e3c") == pytest.approx(4.12, abs=0.01)


BADGES = [f"reg-{kind}--{key}" for kind, keys in KINDS.items() for key in keys]


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("badge", [*BADGES, "reg-outcome", "reg-tag"])
def test_every_badge_reads_at_4_5_to_1(badge: str, scheme: str) -> None:
    text, background = colours(badge, scheme)
    assert ratio(text, background) >= 4.5, (badge, scheme, text, background)


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_no_two_keys_of_a_kind_look_alike(kind: str, scheme: str) -> None:
    looks = [colours(f"reg-{kind}--{key}", scheme) for key in KINDS[kind]]
    assert len(set(looks)) == len(looks), (kind, scheme, looks)


def test_the_badge_classes_are_those_the_pages_use() -> None:
    fmt = formatter.PageFormatter("x.md", linker=None)  # type: ignore[arg-type]
    for kind, keys in formatter.RANKS.items():
        for key in keys:
            css_class = re.search(r"reg-\w+--[\w-]+", fmt.badge(kind, key))
            assert css_class and css_class[0] in [*BADGES, *THEME_COLOURED], (kind, key)


def test_links_in_prose_are_underlined() -> None:
    underlined = [
        declarations
        for selectors, declarations in rules(CSS)
        if any(" a:not(" in s and ":is(p, li, td" in s for s in selectors)
    ]
    assert underlined and underlined[0]["text-decoration"] == "underline"


FILLED_CELLS = ("done", "partial", "missing")
"""The Matrix page's cells drawn as a filled block (n/a and unknown are outlined)."""


@pytest.mark.parametrize("state", FILLED_CELLS)
def test_a_matrix_cell_reads_at_4_5_to_1_and_is_its_badge_s_colour(state: str) -> None:
    """A filled cell's words and links (which inherit its colour) on its fill; the fill is
    the state badge's, so the legend, the cells and the badges agree, and the SVG badges
    (site/conceptpages.py) use the same."""
    from compat_register.site import conceptpages

    found = {}
    for selectors, declarations in rules(CSS):
        if f".md-typeset .reg-mcell--{state}" in selectors:
            found.update(declarations)
    text, fill = found["color"], found["background-color"]
    assert ratio(text, fill) >= 4.5, (state, text, fill)
    assert (text, fill) == colours(f"reg-state--{state}", "default")
    assert conceptpages.COLOURS[state] == fill and ratio("#ffffff", conceptpages.LABEL) >= 4.5
    # the other states of an SVG badge: white words on each fill, too
    assert all(ratio("#ffffff", colour) >= 4.5 for colour in conceptpages.COLOURS.values())

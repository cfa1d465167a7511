"""sanitize.clean: the generated pages' HTML kept to what Markdown makes from safe prose."""

from __future__ import annotations

from pathlib import Path

import pytest

from compat_register import api
from compat_register.site import render
from compat_register.site.sanitize import clean
from pagehtml import hostile, to_html

GOLDEN_REGISTERS = Path(__file__).parents[1] / "golden" / "basic" / "registers"


@pytest.mark.parametrize(
    "page, expected",
    [
        ('<img src=x onerror="alert(1)">', '<img src="x">'),
        ("<img src=x onerror=alert(1)//>", '<img src="x">'),
        ('<a href="jav&#x61;script:alert(1)">x</a>', "<a>x</a>"),
        ('<a href="java&#9;script:alert(1)">x</a>', "<a>x</a>"),
        ("<a href=javascript:alert(1) title=t>x</a>", '<a title="t">x</a>'),
        ('<a href=" javascript:alert(1)">x</a>', "<a>x</a>"),
        ('<a href="//evil.example/x">x</a>', "<a>x</a>"),
        ('<img src="data:text/html,x" alt="a">', '<img alt="a">'),
        # svg is kept for the Changes page's charts; nothing inside one runs
        ("<svg><script>alert(1)</script></svg>after", "<svg></svg>after"),
        ("<svg onload=alert(1)><circle/></svg>", "<svg></svg>"),
        (
            '<svg><a href="javascript:alert(1)"><text>x</text></a></svg>',
            "<svg><a><text>x</text></a></svg>",
        ),
        (
            "<svg><foreignObject><img src=x onerror=alert(1)></foreignObject></svg>",
            '<svg><img src="x"></svg>',
        ),
        (
            '<svg><use href="data:x"/><animate attributeName="href" values="javascript:x"/></svg>',
            "<svg></svg>",
        ),
        (
            '<svg role="img"><rect x="1" y="0" width="2" onclick="x"></rect></svg>',
            '<svg role="img"><rect x="1" y="0" width="2"></rect></svg>',
        ),
        ('<iframe src="https://e.org"></iframe>', ""),
        ("<SCRIPT >alert(1)</SCRIPT\t>x", "x"),
        ("<style>p{}</style><p style=color:red onclick=x>t</p>", "<p>t</p>"),
        ("<math><mi>x</mi></math>", "x"),
        ("<!-- <img src=x onerror=alert(1)> -->p", '<img src="x"> -->p'),
        ("a < b <p", "a &lt; b &lt;p"),
        ('<a title="x"onclick="y">z</a>', '&lt;a title="x"onclick="y"&gt;z</a>'),
        (
            '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
            '&lt;p title="<img src="x">">',
        ),
        ('<div data-md-component="x" data-reg-filters>', "<div data-reg-filters>"),
    ],
)
def test_hostile_html_is_cleaned(page: str, expected: str) -> None:
    assert clean(page) == expected
    assert hostile(clean(page)) == []


def test_what_markdown_makes_is_kept() -> None:
    page = (
        '<h2 id="a-01">A-01 <em>t</em><a class="headerlink" href="#a-01" title="Permanent'
        ' link">&para;</a></h2>\n<table>\n<thead>\n<tr>\n<th style="text-align: right;">n</th>'
        '\n</tr>\n</thead>\n</table>\n<details class="quote" open><summary>s &amp; t</summary>'
        '<div class="highlight"><pre><span></span><code><span class="hll">&lt;b&gt;\n'
        '</span></code></pre></div></details><p><a href="../b/#b-01">B</a> <img alt="x"'
        ' src="https://e.org/x.png"> <span class="reg-badge" data-rank="1">M</span><br></p>'
    )
    assert clean(page) == page


def test_a_token_in_a_quoted_value_does_not_open_a_tag() -> None:
    # A `>` inside a quoted value ends the token for clean (it never occurs in Markdown's
    # output, which writes `&gt;`): the rest is text, and no element the input hid is kept.
    page = '<a title="x>y" href="https://e.org">z</a>'
    assert clean(page) == '&lt;a title="x&gt;y" href="https://e.org">z</a>'


def test_golden_pages_pass_unchanged() -> None:
    """The pages `register render` writes need no cleaning: Markdown-level escaping holds."""
    result = api.verify_citations(GOLDEN_REGISTERS, offline=True, environ={})
    for uri, text in render.render_site(result.registers, result.outcomes).items():
        html = to_html(text)
        assert hostile(html) == [], uri
        assert clean(html) == html.replace(" />", ">"), uri

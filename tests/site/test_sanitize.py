"""sanitize.clean (nh3): the generated pages' HTML kept to what Markdown and the templates make."""

from __future__ import annotations

from pathlib import Path

import pytest

from compat_register import api
from compat_register.site import renderer as render
from compat_register.site import sanitize
from compat_register.site.sanitize import clean, unexpected
from pagehtml import hostile, live, to_html

GOLDEN_REGISTERS = Path(__file__).parent / "golden" / "basic" / "registers"


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
        ('<a href="vbscript:x">v</a><a href="data:text/html,x">d</a>', "<a>v</a><a>d</a>"),
        ('<img src="data:text/html,x" alt="a">', '<img alt="a">'),
        # svg is kept for the charts and state bars; nothing inside one runs
        ("<svg><script>alert(1)</script></svg>after", "<svg></svg>after"),
        ("<svg onload=alert(1)><circle/></svg>", "<svg></svg>"),
        (
            '<svg><a href="javascript:alert(1)"><text>x</text></a></svg>',
            "<svg><a><text>x</text></a></svg>",
        ),
        ("<svg><foreignObject><img src=x onerror=alert(1)></foreignObject></svg>", "<svg></svg>"),
        (
            '<svg><use href="data:x"/><animate attributeName="href" values="javascript:x"/></svg>',
            "<svg></svg>",
        ),
        (
            '<svg role="img"><rect x="1" y="0" width="2" onclick="x"></rect></svg>',
            '<svg role="img"><rect x="1" y="0" width="2"></rect></svg>',
        ),
        ('<svg><title id="x">t</title></svg>', "<svg><title>t</title></svg>"),
        # Outside svg a <title> holds text only: what looks like a tag in it stays text.
        (
            "<title>x<img src=x onerror=alert(1)></title>",
            "<title>x&lt;img src=x onerror=alert(1)&gt;</title>",
        ),
        ('<iframe src="https://e.org">x</iframe>', ""),
        ("<SCRIPT >alert(1)</SCRIPT\t>x", "x"),
        ("<style>p{}</style><p style=color:red onclick=x>t</p>", "<p>t</p>"),
        ("<math><mi>x</mi></math>", ""),
        ('<base href="https://evil.example/">', ""),
        (
            "<form action=javascript:alert(1)><button formaction=x>b</button></form>",
            "<button>b</button>",
        ),
        # A comment stays a comment: gone, and nothing inside it comes back as an element.
        ("<!-- <img src=x onerror=alert(1)> -->p", "p"),
        ("<!-- <script>alert(1)</script> -->", ""),
        # `<!-->` is a whole (empty) comment to a browser: what follows is markup, cleaned.
        ("<!--><img src=x onerror=alert(1)>-->", '<img src="x">--&gt;'),
        # `<noscript>` goes with its content; text a browser with scripting reads as raw
        # text never becomes an element, and the markup after its end tag is cleaned.
        ("<noscript><img src=x onerror=alert(1)></noscript>after", "after"),
        (
            '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
            '<img src="x">"&gt;',
        ),
        ("<template><img src=x onerror=alert(1)></template>t", "t"),
        ('<a title="x"onclick="y">z</a>', '<a title="x">z</a>'),
        ('<div data-md-component="x" data-reg-filters>', '<div data-reg-filters=""></div>'),
        # No `id` or `name` where no anchor needs one (DOM clobbering), none on a heading
        # that is not a slug or that shadows material's `__md_*` globals.
        ('<p id="x" name="y">t</p><img id="x" name="y" src="a.png">', '<p>t</p><img src="a.png">'),
        ('<h2 id="__md_scope">t</h2><h3 id="a b">u</h3>', "<h2>t</h2><h3>u</h3>"),
        ('<span id="config">x</span>', "<span>x</span>"),
    ],
)
def test_hostile_html_is_cleaned(page: str, expected: str) -> None:
    assert clean(page) == expected
    assert hostile(clean(page)) == []
    assert live(clean(page)) == []
    assert unexpected(page) != []


def test_a_stray_lt_is_text() -> None:
    assert clean("a < b <p") == "a &lt; b "


def test_what_markdown_makes_is_kept() -> None:
    page = (
        '<h2 id="a-01">A-01 <em>t</em><a class="headerlink" href="#a-01" title="Permanent'
        ' link">¶</a></h2>\n<table>\n<thead>\n<tr>\n<th style="text-align:right">n</th>'
        '\n</tr>\n</thead>\n</table>\n<details class="quote" open=""><summary>s &amp; t</summary>'
        '<div class="highlight"><pre><span></span><code><span id="__span-0-3">'
        '<span class="hll">&lt;b&gt;\n</span></span></code></pre></div></details><p>'
        '<a href="../b/#b-01">B</a> <img alt="x" src="https://e.org/x.png"> '
        '<span class="reg-badge" data-rank="1">M</span><br></p>'
    )
    assert clean(page) == page
    assert unexpected(page) == []


def test_unexpected_names_what_clean_removes() -> None:
    page = '<p onclick="x">a<!-- c --></p><a href="javascript:y">b</a>'
    assert sorted(unexpected(page)) == ["<!-->", "<a href='javascript:y'>", "<p onclick='x'>"]


def test_golden_pages_pass_unchanged() -> None:
    """The pages `register render` writes need no cleaning: Markdown-level escaping holds."""
    result = api.verify_citations(GOLDEN_REGISTERS, offline=True)
    for uri, text in render.Renderer(result.registers, result.outcomes).pages().items():
        html = to_html(text)
        assert hostile(html) == [], uri
        assert live(html) == [], uri
        assert unexpected(html) == [], uri


def test_pages_converted_in_turn_are_converted_alike() -> None:
    """One converter serves every page: what one page's conversion leaves (the toc's ids
    taken, a stashed block) does not reach the next."""
    page = "# Title\n\n## Entry\n\n```python\nx = 1\n```\n\n<div>raw</div>\n"
    first = sanitize.to_html(page)
    assert sanitize.to_html(page) == first
    assert 'id="entry"' in first

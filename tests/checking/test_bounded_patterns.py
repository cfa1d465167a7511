"""Link patterns and globs a pull request writes cost time linear in the text they match.

Python's `re` backtracks: `(a+)+c` against forty `a`s, a claim glob `**a**a**...c` against
a 300-character path, a glob of a thousand `*` against a long path each ran for hours in
check, verify and the site build. They run in RE2 now (`model.patterns`). Each command
runs in a process of its own whose `timeout` is only a guard that turns a hang into a
failure (generous: the runner is shared); no test here times anything.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import builder
from commands import register
from compat_register.model.patterns import compile_pattern, glob_regex
from registerfiles import done_entry, register_head

LONG_PATH = "/".join(["a" * 50] * 6) + "/x.txt"
"""A 306-character path in the source repository: deep enough to make a backtracking
glob explore more combinations than it could ever finish."""


def project(tmp_path: Path, source: str, what: str = "w.", cite: str = "") -> Path:
    """registers/ over a real repository `up` holding LONG_PATH; `source` is the rest of the
    `up:` mapping of sources.yaml (its claims, its markdown globs), `links:` may follow."""
    _, sha = builder.source(tmp_path / "up", {LONG_PATH: "one\ntwo\n"}, "add")
    sources = (
        f"revisions: [2025-06-18]\nsources:\n  up: {{title: Up, repo: null, commit: {sha}, "
        f"path: ../up, {source}"
    )
    entry = done_entry(f"['{cite or LONG_PATH}:1 \"one\"']").replace("what: w.", f"what: {what}")
    return builder.registers(tmp_path / "registers", sources, {"t.yaml": register_head() + entry})


def test_a_backtracking_link_pattern_is_matched_in_linear_time(tmp_path: Path) -> None:
    what = "a" * 40 + " and aaac"
    project(
        tmp_path,
        "claims: ['**']}\nlinks:\n  - {pattern: '(a+)+c', url: 'https://example.org/{1}'}\n",
        what=what,
    )
    for args in (["check"], ["verify"], ["render", "--out", "site"]):
        done = register(tmp_path, *args, "--registers", "registers")
        assert done.returncode == 0, done.stdout + done.stderr
    page = (tmp_path / "site" / "registers" / "t.md").read_text("utf-8")
    assert "https://example.org/a" in page  # the pattern still links what it matches


def test_a_pattern_re2_cannot_run_is_one_located_error(tmp_path: Path) -> None:
    links = "  - {pattern: '(a)\\1', url: 'https://e.org/'}\n  - {pattern: 'x(?=y)', url: 'https://e.org/'}\n"
    project(tmp_path, f"claims: ['**']}}\nlinks:\n{links}")
    done = register(tmp_path, "check", "--registers", "registers")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith("registers/sources.yaml:5:15: error: sources: link pattern '(a)\\1'")
    assert lines[1].startswith("registers/sources.yaml:6:15: error: sources: link pattern 'x(?=y)'")
    assert "no backreferences or lookaround" in lines[0]
    assert lines[2:] == ["2 errors, 0 warnings"]
    assert done.stderr == ""  # RE2's own log line stays unprinted


def test_a_backtracking_claim_glob_is_matched_in_linear_time(tmp_path: Path) -> None:
    glob = "**a" * 8 + "**c"
    project(tmp_path, f"claims: ['{glob}']}}\n", cite="a" * 300)
    (tmp_path / "registers" / "u.yaml").write_text(
        register_head(prefix="U") + done_entry(f"['{'a' * 299}c:1']", id="U-01"), "utf-8"
    )
    done = register(tmp_path, "check", "--registers", "registers")
    # The path of 300 `a` is no source's; the one ending in `c` is `up`'s.
    assert done.stdout.splitlines()[0].startswith("registers/t.yaml:17:15: error: T-01: ")
    assert "no source claims" in done.stdout.splitlines()[0]
    assert done.stdout.splitlines()[-1] == "1 errors, 0 warnings"


def test_a_long_markdown_glob_is_matched_in_linear_time(tmp_path: Path) -> None:
    project(tmp_path, f"claims: ['**'], markdown: ['{'*' * 990}c']}}\n")
    for args in (["verify"], ["render", "--out", "site"]):
        done = register(tmp_path, *args, "--registers", "registers")
        assert done.returncode == 0, done.stdout + done.stderr


def test_a_glob_over_the_bound_is_one_located_error(tmp_path: Path) -> None:
    project(tmp_path, f"claims: ['**'], markdown: ['{'*' * 3000}']}}\n")
    for args in (["verify"], ["render", "--out", "site"]):
        done = register(tmp_path, *args, "--registers", "registers")
        assert done.returncode == 1
        assert (
            "registers/sources.yaml:3:121: error: sources: 'sources.up.markdown[0]' is 3,000 "
            "characters long, over the 1,000" in done.stdout + done.stderr
        )


def test_an_re2_refusal_is_its_reason() -> None:
    assert compile_pattern(r"(a)\1") == "invalid escape sequence: \\1"


def _python_glob(glob: str) -> re.Pattern[str]:
    """The claims' reading of a glob as Python's `re` ran it before RE2: the truth RE2's
    translation is held to on small inputs, where backtracking costs nothing."""
    parts = re.split(r"((?:(?<=/)|^)\*\*/|\*\*|\*|\?|\[[^\]]*\])", glob)
    table = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}
    out = [
        table.get(part)
        or (part if part.startswith("[") and part.endswith("]") and len(part) > 2 else None)
        or re.escape(part)
        for part in parts
    ]
    return re.compile("".join(out).replace("[!", "[^") + r"\Z")


def test_globs_read_as_python_read_them() -> None:
    rng = random.Random(35)
    pieces = ["**/", "**", "*", "?", "[ab]", "[!a]", "a", "b", "/", ".", "x**/"]
    paths = ["".join(rng.choice("ab/.x") for _ in range(rng.randrange(9))) for _ in range(300)]
    for _ in range(300):
        glob = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 6)))
        truth = _python_glob(glob)
        for path in paths:
            expected = truth.match(path) is not None
            assert (glob_regex(glob).fullmatch(path) is not None) == expected, (glob, path)


def test_link_matches_read_as_python_read_them() -> None:
    """Spans (in characters, past non-ASCII text), groups (None for one that did not take
    part) and the whole match: what `LinkPattern.url_for` and the segments read."""
    patterns = [r"SEP-(\d+)", r"PR #(\d+)", r"(?P<n>[A-Z]+)-(\d+)(x)?", r"(?i)rfc ?(\d{3,4})"]
    text = "é SEP-12 ü PR #7, 😀 AB-3x rfc 9110 — RFC7231 SEP- CD-45"
    for pattern in patterns:
        ours = [(m.span(), m.groups(), m.group(0)) for m in compile_pattern(pattern).finditer(text)]
        truth = [(m.span(), m.groups(), m.group(0)) for m in re.finditer(pattern, text)]
        assert ours == truth and truth, pattern

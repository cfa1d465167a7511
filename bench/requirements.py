"""Benchmark: statement extraction against the conformance suite's human-reviewed requirements.

    python bench/requirements.py --spec CLONE --suite SUITE_GIT_DIR [--ref HEAD]
        [--commit SPEC_COMMIT] [--list]

The spec is read at this repository's pin (registers/sources.yaml's `spec`; --commit for
another), the revisions the requirements' URLs name, its statement
files chosen and read as `register coverage` reads them (`coverage.run`, `extract`). The
suite's `src/seps/sep-*.yaml` are read at --ref of its git directory: each requirement's and
exclusion's text, and its `url:` (else the file's `spec_url:`). Those whose URL lies in the
specification's pages are aligned (`statements.alignment`) and measured:

- verbatim: the text stands, word for word (case, markup, punctuation and the suite's
  `[...]` insertions aside), in the prose of its revision's pages or schema.ts doc comments,
  read without cutting sentences or looking for keywords (markdown-it's inline content);
- recall: of the verbatim texts, those one statement holds whole; and one or more
  consecutive statements;
- precision: of the statements aligned with a verbatim text, those that hold their text whole
  (alone or with their neighbours), not a part of it;
- how each in-spec text is aligned (kind by scope), and why each that no one statement
  holds whole is not (`CLASSES`, the first that applies), verbatim texts apart;
- per SEP file, the other direction: the statements of its pages (those its URLs name, and
  those its alignments found) and how many of them none of its requirements names.

--list prints each in-spec requirement's class, alignment and statements. The figures are
docs/coverage.md's "Against the conformance suite's requirements".
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import yaml

from compat_register.coverage.run import statement_files
from compat_register.reading import folder
from compat_register.sources.diffs import listed_blobs
from compat_register.statements import alignment, extract
from compat_register.statements.alignment import Alignment, Requirement
from compat_register.statements.markdownpages import inline_pieces, parse, plain_markdown
from compat_register.statements.sentences import first_keyword
from compat_register.statements.statement import Statement
from compat_register.storage.layout import Paths

HERE = Path(__file__).parent.parent
_COMMENT_LINE = re.compile(r"^\s*(?:/\*\*|\*/|\*)? ?", re.M)
_ITEM = re.compile(r"\s*(?:[-*+]|\d+[.)])\s")
CLASSES = (
    ("in one statement", "held whole by one statement (exact, or inside a longer one)"),
    (
        "two sentences",
        "the suite joins sentences the page writes apart: statements side by "
        "side (spanning), or a statement and a sentence holding no keyword",
    ),
    ("no capital keyword", "the text holds no BCP 14 keyword in capitals: no statement"),
    (
        "a list item",
        "the statement is a list item whose subject, or whose keyword, its "
        "lead-in holds, and the suite writes lead-in and item together",
    ),
    (
        "a table cell",
        "the statement is one cell of a table's row, or the lead-in before a table, and the"
        " suite writes the row, or the lead-in with a row",
    ),
    (
        "text only in schema.ts",
        "the text stands in schema.ts's comments, not on a page, and no statement holds it",
    ),
    (
        "reworded by the suite",
        "the suite's text differs from the page's (aligned as similar, "
        "or the statements inside it hold less than a third of its words)",
    ),
    (
        "not found",
        "no statement reads like it at the threshold: reworded beyond it, or "
        "moved out of the pages",
    ),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", type=Path, required=True, help="a clone of the spec")
    parser.add_argument("--suite", type=Path, required=True, help="the suite's git directory")
    parser.add_argument("--ref", default="HEAD", help="the suite's commit to read")
    parser.add_argument("--commit", help="the spec's commit (default: the spec source's pin)")
    parser.add_argument("--list", action="store_true", help="each requirement's alignment")
    options = parser.parse_args()
    spec = options.spec / ".git" if (options.spec / ".git").exists() else options.spec
    requirements = suite_requirements(options.suite, options.ref)
    named = {t.revision for _, r in requirements if (t := alignment.target(r.url))}
    statements, prose = spec_statements(spec.resolve(), options.commit, named)
    report(requirements, statements, prose, options.list)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def suite_requirements(suite: Path, ref: str) -> list[tuple[str, Requirement]]:
    """(SEP file, requirement) of every requirement and exclusion text, in file order."""
    found = []
    for name in git(suite, "ls-tree", "--name-only", ref, "src/seps/").split():
        if not re.fullmatch(r"src/seps/sep-\d+\.yaml", name):
            continue
        sep = yaml.safe_load(git(suite, "show", f"{ref}:{name}"))
        for n, item in enumerate(sep.get("requirements") or [], 1):
            key = item.get("check") or f"sep-{sep['sep']} excluded #{n}"
            url = item.get("url") or sep["spec_url"]
            found.append((Path(name).stem, Requirement(key, item["text"], url)))
    return found


def spec_statements(
    repo: Path, commit: str | None, revisions: set[str]
) -> tuple[dict[str, list[Statement]], dict[str, dict[str, str]]]:
    """revision -> its statements, as coverage reads them (this repository's `coverage:` of
    the spec source, at its pin or `commit`); and revision -> path -> the file's prose as
    `verbatim` compares it, read without cutting sentences. Only `revisions` are read."""
    sources = folder.read_sources(Paths.of(HERE / "registers", Path(tempfile.gettempdir())), {}, [])
    source = sources.sources["spec"]
    commit = git(repo, "rev-parse", commit or source.commit).strip()
    blobs = listed_blobs(git(repo, "ls-tree", "-r", "-z", commit))
    files = statement_files(source, blobs, sources.revisions)[0]
    statements: dict[str, list[Statement]] = {}
    prose: dict[str, dict[str, str]] = {}
    for path, revision in sorted(files.items()):
        if revision not in revisions:
            continue
        text = git(repo, "cat-file", "blob", blobs[path])
        LINES[path] = text.split("\n")
        statements.setdefault(revision, []).extend(extract.statements(path, text, source.markdown))
        prose.setdefault(revision, {})[path] = loose(file_prose(path, text))
    return statements, prose


def file_prose(path: str, text: str) -> str:
    """All the prose of a file, markup dropped: a page's inline content (paragraphs, list
    items, cells, headings), or a schema's comment lines."""
    if extract.reader(path) == "typescript":
        return _COMMENT_LINE.sub("", text)
    tokens, env = parse(plain_markdown(text))
    inline = [t.content for t in tokens if t.type == "inline"]
    return " ".join("".join(p.text for p in inline_pieces(c, 0, env)) for c in inline)


def loose(text: str) -> str:
    """Words, lower case, as `verbatim` compares them."""
    return f" {alignment.words(text).lower()} "


def report(
    requirements: Sequence[tuple[str, Requirement]],
    statements: dict[str, list[Statement]],
    prose: dict[str, dict[str, str]],
    listing: bool,
) -> None:
    aligned = alignment.align([r for _, r in requirements], statements)
    inspec = [a for a in aligned if a.how != "outside"]
    seps = Counter(sep for sep, _ in requirements)
    print(
        f"{len(requirements)} texts in {len(seps)} SEP files; {len(inspec)} with a URL in the"
        f" specification's pages, {len(requirements) - len(inspec)} outside them"
    )
    verbatim = [a for a in inspec if where_verbatim(a, prose)]
    one = [a for a in verbatim if a.whole and len(a.statements) == 1]
    whole = [a for a in verbatim if a.whole]
    print(
        f"verbatim in the pages or schema.ts: {len(verbatim)}"
        f" ({sum(where_verbatim(a, prose) == 'schema.ts' for a in verbatim)} in schema.ts only)"
    )
    print(
        f"recall: in one statement {len(one)}/{len(verbatim)}"
        f" ({100 * len(one) / len(verbatim):.1f}%); in one or more consecutive statements"
        f" {len(whole)}/{len(verbatim)} ({100 * len(whole) / len(verbatim):.1f}%)"
    )
    held = [(s, a.whole) for a in verbatim for s in a.statements]
    print(
        f"precision: of the {len(held)} statements aligned with a verbatim text,"
        f" {sum(w for _, w in held)} hold it whole"
        f" ({100 * sum(w for _, w in held) / len(held):.1f}%)"
    )
    print()
    print(f"{'alignment':<10} {'anchor':>7} {'page':>6} {'revision':>9} {'all':>5}")
    for how in (*alignment.KINDS, "none"):
        mine = Counter(a.scope for a in inspec if a.how == how)
        print(
            f"{how:<10} {mine['anchor']:>7} {mine['page']:>6} {mine['revision']:>9}"
            f" {sum(mine.values()):>5}"
        )
    classes = [(classify(a, prose), bool(where_verbatim(a, prose))) for a in inspec]
    print()
    print(f"{'class':<24} {'verbatim':>9} {'other':>6}")
    for name, _ in CLASSES:
        v, o = (sum(c == (name, kind) for c in classes) for kind in (True, False))
        print(f"{name:<24} {v:>9} {o:>6}")
    print()
    print_seps(requirements, aligned, statements)
    if listing:
        for a, (name, _) in zip(inspec, classes, strict=True):
            held = " ".join(f"{s.path}:{s.line}" for s in a.statements)
            print(
                f"{a.requirement.key}: {name} | {a.how} {a.scope} {a.ratio:.2f}"
                f" | {where_verbatim(a, prose) or '-'} | {held}"
            )


def print_seps(
    requirements: Sequence[tuple[str, Requirement]],
    aligned: list[Alignment],
    statements: dict[str, list[Statement]],
) -> None:
    """Per SEP file: its texts, those in the pages, those aligned, and the other direction:
    the statements of its pages (those its URLs name, and those its alignments found) and
    how many of them none of its requirements names."""
    print(
        f"{'SEP file':<10} {'texts':>5} {'in spec':>7} {'aligned':>7} {'statements':>10}"
        f" {'unnamed':>7}"
    )
    rows: dict[str, list[Alignment]] = {}
    for (sep, _), a in zip(requirements, aligned, strict=True):
        rows.setdefault(sep, []).append(a)
    rows["all"] = aligned  # each statement once, where pages are shared
    for sep, mine in rows.items():
        left = alignment.unnamed(mine, statements)
        named = {s for a in mine for s in a.statements}
        inspec = sum(a.how != "outside" for a in mine)
        found = sum(bool(a.statements) for a in mine)
        row = (len(mine), inspec, found, len(left) + len(named), len(left))
        print(f"{sep:<10} " + " ".join(f"{n:>{w}}" for n, w in zip(row, WIDTHS, strict=True)))


WIDTHS = (5, 7, 7, 10, 7)


def where_verbatim(a: Alignment, prose: dict[str, dict[str, str]]) -> str:
    """`page` or `schema.ts` where the requirement's text stands word for word, else ``."""
    where = alignment.target(a.requirement.url)
    files = prose.get(where.revision, {}) if where else {}
    text = loose(a.requirement.text)
    found = [path for path, words in files.items() if text in words]
    if not found:
        return ""
    return "page" if any(extract.reader(p) != "typescript" for p in found) else "schema.ts"


def classify(a: Alignment, prose: dict[str, dict[str, str]]) -> str:
    """Why a requirement is, or is not, held whole by one statement: the first of CLASSES."""
    text = alignment.words(a.requirement.text)
    if a.whole and len(a.statements) == 1:
        return "in one statement"
    if a.how == "spanning":
        return "two sentences"
    if first_keyword(text, [False] * len(text), 0, len(text)) is None:
        return "no capital keyword"
    if any(in_list(s) for s in a.statements):
        return "a list item"
    if any(in_table(s) for s in a.statements):
        return "a table cell"
    verbatim = where_verbatim(a, prose)
    if verbatim == "page" and a.how == "contained":
        return "two sentences"
    if verbatim == "schema.ts":
        return "text only in schema.ts"
    return "reworded by the suite" if a.statements else "not found"


LINES: dict[str, list[str]] = {}
"""Each statement file's lines, kept as read."""


def in_table(statement: Statement) -> bool:
    """Whether a statement is a table's cell, or the lead-in right before a table."""
    lines = LINES[statement.path]
    after = next((line for line in lines[statement.end :] if line.strip()), "")
    lead_in = statement.text.endswith(":") and after.lstrip().startswith("|")
    return lead_in or lines[statement.line - 1].lstrip().startswith("|")


def in_list(statement: Statement) -> bool:
    """Whether a statement is a lead-in holding its list, or an item of a list whose lead-in
    ends in a colon."""
    lines = LINES[statement.path]
    own = lines[statement.line - 1 : statement.end]
    if not _ITEM.match(own[0]):
        return any(_ITEM.match(line) for line in own[1:])
    n = statement.line - 2
    while n >= 0 and (not lines[n].strip() or _ITEM.match(lines[n]) or lines[n][:1].isspace()):
        n -= 1
    return n >= 0 and lines[n].rstrip(" *_").endswith(":")


if __name__ == "__main__":
    sys.exit(main())

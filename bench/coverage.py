"""Benchmark: coverage of every revision at the pin against reading the same files with git.

    python bench/coverage.py --repo PATH/TO/modelcontextprotocol [--repeat 5] [--skips] [--exact]

The registers are this repository's own (registers/sources.yaml and meta.yaml, copied to a
temporary folder), the spec source read from --repo (a clone holding the pinned commit).
The floor is the least any coverage must do: list the pinned tree (`git ls-tree -r`) and
read every statement file of every revision through one `git cat-file --batch`. Measured
in this process, in turn with the floor, best of --repeat:

- cold: `coverage.run.measure` (the statement files read and parsed, states judged) with
  no statement cache;
- warm: the same with the cache a first run left (`.register/cache/statements.json`);
- whole command: `api.coverage`, which verifies the statement source's citations first
  (bench/verify.py measures verify itself);
- parser floor: markdown-it-py's block parse of every distinct statement file, read
  beforehand, and nothing else: the least an exact reading by this parser does cold
  (`statements.markdownpages.parse`; the paragraphs' inline parse not counted).

Each is timed twice: wall time, and CPU time of this process and its git children (the
floor's work is mostly git's), which holds steady on a busy machine.

Target: cold and warm within 2.0x of the floor. --skips prints, per revision, the lines
holding a keyword in capitals that no statement holds, by why (code, HTML, headings,
...): the figures of docs/coverage.md. --exact runs cold once more with the pre-filter
off (`sentences.may_hold_keyword` taken as always true: every paragraph parsed) and
fails unless every statement and changelog item is the same.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import best_call  # noqa: E402

from compat_register import api  # noqa: E402
from compat_register.coverage import run  # noqa: E402
from compat_register.coverage.run import statement_files  # noqa: E402
from compat_register.reading import folder  # noqa: E402
from compat_register.sources import pins  # noqa: E402
from compat_register.sources.diffs import listed_blobs  # noqa: E402
from compat_register.statements import extract  # noqa: E402
from compat_register.statements import markdownpages as markdown  # noqa: E402
from compat_register.statements.markdownpages import parse, plain_markdown  # noqa: E402
from compat_register.statements.sentences import boilerplate  # noqa: E402
from compat_register.storage.layout import Paths  # noqa: E402

HERE = Path(__file__).parent.parent
KEYWORD = re.compile(r"(?<![\w-])(MUST|REQUIRED|SHALL|SHOULD|RECOMMENDED|MAY|OPTIONAL)(?![\w-])")


def cpu() -> float:
    """CPU seconds of this process and of its children waited for (git's processes), to
    the microsecond (os.times counts clock ticks, 10 ms)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def floor(repo: Path, commit: str, paths: list[str]) -> None:
    """What any coverage must do: list the tree, read every statement file."""
    subprocess.run(
        ["git", "--git-dir", str(repo), "ls-tree", "-r", "-z", commit],
        capture_output=True,
        check=True,
    )
    names = "".join(f"{commit}:{path}\n" for path in paths).encode()
    out = subprocess.run(
        ["git", "--git-dir", str(repo), "cat-file", "--batch"],
        input=names,
        capture_output=True,
        check=True,
    ).stdout
    assert b" missing\n" not in out, "a blob is missing"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=os.environ.get("REGISTER_SOURCE_SPEC"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--skips", action="store_true", help="what the extraction skips")
    parser.add_argument("--exact", action="store_true", help="the pre-filter changes nothing")
    options = parser.parse_args()
    if options.repo is None:
        raise SystemExit("--repo PATH (a clone of the spec holding the pinned commit)")
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
        registers = root / "registers"
        registers.mkdir()
        for name in ("sources.yaml", "meta.yaml"):
            shutil.copy(HERE / "registers" / name, registers / name)
        env = {
            **os.environ,
            "REGISTER_SOURCE_SPEC": str(options.repo.resolve()),
            "REGISTER_CACHE": str(root / "cache"),
        }
        measure(registers, env, options.repo.resolve(), options)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def measure(registers: Path, env: dict[str, str], repo: Path, options: argparse.Namespace) -> None:
    settings = api.Settings.read(env)
    paths = Paths.of(registers, settings.cache)
    sources = folder.read_sources(paths, {}, [])
    spec = sources.sources["spec"]
    commit = git(repo, "rev-parse", spec.commit).strip()
    blobs = listed_blobs(git(repo, "ls-tree", "-r", "-z", commit))
    files = statement_files(spec, blobs, sources.revisions)[0]
    texts = {blobs[p]: git(repo, "cat-file", "blob", blobs[p]) for p in files}
    pages = [plain_markdown(texts[blobs[p]]) for p in dict.fromkeys(files) if _is_page(p)]
    verified = api.verify_citations(
        registers,
        skip=[a for a in sources.sources if a != "spec"],
        settings=settings,
    )
    cache = paths.statements_cache

    def measured(cold: bool) -> run.Measured:
        if cold:
            cache.unlink(missing_ok=True)
        checkouts = pins.Checkouts(paths, settings)
        try:
            return run.measure(verified.registers, verified.outcomes, checkouts, cache)
        finally:
            checkouts.close()

    actions: dict[str, Callable[[], object]] = {
        "floor": lambda: floor(repo, commit, list(files)),
        "cold": lambda: measured(True),
        "warm": lambda: measured(False),
        "whole command": lambda: api.coverage(registers, settings=api.Settings.read(env)),
        "parser floor": lambda: [parse(page) for page in dict.fromkeys(pages)],
    }
    walls: dict[str, list[float]] = {name: [] for name in actions}
    cpus: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(options.repeat):  # in turn: a load that comes and goes weighs on all alike
        for name, action in actions.items():
            walls[name].append(best_call(action, 1))
            cpus[name].append(best_call(action, 1, clock=cpu))
    size = sum(len(texts[blobs[p]].encode()) for p in files)
    print(
        f"spec at {commit[:12]}: {len(files)} statement files ({len(set(texts))} distinct),"
        f" {size / 1e6:.1f} MB, {len(sources.revisions)} revisions; best of {options.repeat}"
    )
    print(f"{'':>14}  {'wall':>9}  {'':>12}  {'CPU':>9}")
    floor_wall, floor_cpu = min(walls["floor"]), min(cpus["floor"])
    for name in actions:
        wall, used = min(walls[name]), min(cpus[name])
        print(
            f"{name:>14}: {wall * 1000:6.1f} ms  {wall / floor_wall:5.2f}x floor"
            f"  {used * 1000:6.1f} ms  {used / floor_cpu:5.2f}x floor"
        )
    print("target: cold and warm within 2.0x of the floor")
    result = measured(True)
    if options.exact:
        exact(result, lambda: measured(True))
    print()
    print("revision     statements  cited  excluded  uncovered   new  changed  same")
    for revision, counts in result.coverage.summary().items():
        kinds = Counter(row.change.kind for row in result.coverage.of(revision))
        print(
            f"{revision:<12} {counts['statements']:>10} {counts['cited']:>6}"
            f" {counts['excluded']:>9}"
            f" {counts['uncovered']:>10} {kinds['new']:>5} {kinds['changed']:>8} {kinds['same']:>5}"
        )
    if options.skips:
        print_skips(repo, commit, files, result)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "--git-dir", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def _is_page(path: str) -> bool:
    return extract.reader(path) != "typescript"


def exact(result: run.Measured, cold: Callable[[], run.Measured]) -> None:
    """Cold once more with the pre-filter off: every statement, state, change and
    changelog item must be the same."""
    kept = markdown.may_hold_keyword
    markdown.may_hold_keyword = lambda _: True
    try:
        started = cpu()
        unfiltered = cold()
        used = cpu() - started
    finally:
        markdown.may_hold_keyword = kept
    same = rows(unfiltered) == rows(result) and unfiltered.changelogs == result.changelogs
    print(f"cold without the pre-filter: {used * 1000:.1f} ms CPU; results the same: {same}")
    if not same:
        raise SystemExit("the pre-filter changed the statements")


def rows(result: run.Measured) -> list[tuple[object, ...]]:
    return [
        (r.revision, r.source, r.statement, r.state, r.entries, r.exclusion, r.change)
        for r in result.coverage.rows
    ]


def print_skips(repo: Path, commit: str, files: dict[str, str], result: run.Measured) -> None:
    """Per revision: lines holding a keyword in capitals, those in a statement, and why
    the others are in none."""
    held: dict[str, set[int]] = {}
    for row in result.coverage.rows:
        held.setdefault(row.statement.path, set()).update(
            range(row.statement.line, row.statement.end + 1)
        )
    per: dict[str, Counter[str]] = {}
    for path, revision in files.items():
        text = subprocess.run(
            ["git", "--git-dir", str(repo), "cat-file", "blob", f"{commit}:{path}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        counts = per.setdefault(revision, Counter())
        for _, why in classify(path, text, held.get(path, set())):
            counts[why] += 1
    print()
    for revision, counts in per.items():
        total = sum(counts.values())
        print(
            f"{revision}: {total} lines with a keyword; "
            + ", ".join(f"{why} {n}" for why, n in counts.most_common())
        )


def classify(path: str, text: str, held: set[int]) -> list[tuple[int, str]]:
    """(line, why) for each line holding a keyword in capitals."""
    lines = text.split("\n")
    kinds: dict[int, str] = {}
    if path.endswith(".ts"):
        inside = False
        for number, line in enumerate(lines, 1):
            inside = inside or line.lstrip().startswith("/**")
            kinds[number] = "doc comment" if inside else "TypeScript code or line comment"
            inside = inside and "*/" not in line
    else:
        tokens, _ = parse(plain_markdown(text))
        names = {
            "fence": "fenced or indented code",
            "code_block": "fenced or indented code",
            "html_block": "HTML block",
            "front_matter": "front matter",
            "heading_open": "heading",
        }
        for token in tokens:
            if token.map and token.type in names:
                for number in range(token.map[0] + 1, token.map[1] + 1):
                    kinds.setdefault(number, names[token.type])
    found = []
    for number, line in enumerate(lines, 1):
        if not KEYWORD.search(line):
            continue
        if number in held:
            found.append((number, "in a statement"))
        elif number in kinds and kinds[number] != "doc comment":
            found.append((number, kinds[number]))
        elif boilerplate(" ".join(lines[max(0, number - 4) : number + 4])):
            found.append((number, "the BCP 14 boilerplate"))
        elif re.search(r"`[^`]*" + KEYWORD.pattern + r"[^`]*`", line):
            found.append((number, "in a code span only"))
        else:
            found.append((number, "other (a quoted keyword, a JSX attribute, ...)"))
    return found


if __name__ == "__main__":
    main()

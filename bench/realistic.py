"""The realistic synthetic set: cited files, prose and citations shaped like real registers.

    python bench/realistic.py DIR [--registers N --citations N --files N]

Two sources, each its own git repository: `code` (DIR/repo, Python files under src/) and
`spec` (DIR/spec, Markdown under docs/, with `**MUST**` and code spans, so quotes match
only once markup is dropped). Files run from 100 to 3,000 lines (log-uniform: most are a
few hundred lines, some thousands), with blank lines and comments as real files have.

Each entry holds ten citations: five listed (compact unprefixed, compact range, compact
with an `spec:` prefix and a quote, and two in the mapping form) and five in its prose
(what, the status note and a multi-paragraph detail), which also references entries of
its own and other registers, and a range of them.
"""

from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

from synthetic import commit_files, header_lines

SHORTEST, LONGEST = 100, 3_000


def line_count(number: int) -> int:
    """How many lines file `number` has: log-uniform between SHORTEST and LONGEST."""
    spread = math.log(LONGEST / SHORTEST)
    return int(SHORTEST * math.exp(spread * random.Random(number).random()))


def code_line(number: int, line: int) -> str:
    if line % 9 == 0:
        return ""
    if line % 9 == 1:
        return f"    # Step {line} of module {number}: forward the request and keep its id."
    return (
        f"        result_{number}_{line} = handler.call(request, key='k{line}', limit={line % 97})"
    )


def spec_line(number: int, line: int) -> str:
    if line % 9 == 0:
        return ""
    if line % 9 == 1:
        return f"## Part {number}, section {line}"
    return (
        f"Servers **MUST** answer request {line} of part {number} within `timeout_{line}`;"
        " clients SHOULD retry once."
    )


def code_quote(number: int, line: int) -> str:
    return f"result_{number}_{line} = handler.call(request"


def spec_quote(number: int, line: int) -> str:
    """The text of a spec line as a register quotes it: markup dropped."""
    return f"Servers MUST answer request {line} of part {number} within timeout_{line}"


def code_path(number: int) -> str:
    return f"src/pkg{number // 100:02d}/module_{number:04d}.py"


def spec_path(number: int) -> str:
    return f"docs/spec/part{number // 100:02d}/section_{number:04d}.md"


def write_source(repo: Path, files: int, path_of, line_of) -> str:  # type: ignore[no-untyped-def]
    texts = (
        (path_of(n), "".join(line_of(n, i) + "\n" for i in range(1, line_count(n) + 1)))
        for n in range(files)
    )
    return commit_files(repo, texts)


class Picker:
    """Chooses cited lines: always a line with text (not blank, not a heading)."""

    def __init__(self, rng: random.Random, files: int):
        self.rng, self.files = rng, files

    def place(self) -> tuple[int, int]:
        number = self.rng.randrange(self.files)
        line = self.rng.randrange(2, line_count(number) - 4)
        while line % 9 in (0, 1):
            line += 1
        return number, line


def listed(pick: Picker) -> list[str]:
    """Five listed citations, one per line of a YAML list (block mappings take several)."""
    (c1, l1), (c2, l2), (s1, m1), (s2, m2), (c3, l3) = (pick.place() for _ in range(5))
    return [
        f"- '{code_path(c1)}:{l1} “{code_quote(c1, l1)}”'",
        f"- {code_path(c2)}:{l2}-{l2 + 3}",
        f"- 'spec:{spec_path(s1)}:{m1} “{spec_quote(s1, m1)}”'",
        f"- source: spec\n  path: {spec_path(s2)}\n  lines: {m2}-{m2 + 1}\n"
        f"  quote: {spec_quote(s2, m2)}",
        f"- {{source: code, path: {code_path(c3)}, lines: {l3}}}",
    ]


def prose_citation(pick: Picker) -> str:
    number, line = pick.place()
    if pick.rng.random() < 0.5:
        return f"({code_path(number)}:{line}-{line + 2})"
    return f"spec:{spec_path(number)}:{line}"


def entry_lines(entry_id: str, others: list[str], span: str, pick: Picker) -> list[str]:
    cite = [prose_citation(pick) for _ in range(5)]
    what = (
        f"What {entry_id} records: the specification asks servers to answer every request in"
        f" time, and the proxy forwards each one {cite[0]} before the client gives up. The rule"
        f" came with a later revision, and the older text reads differently {cite[1]}. See"
        f" {others[0]} for the notification side and {span} for the rest of the lifecycle."
    )
    note = f"The handler keeps the request id on the way back {cite[2]}; {others[1]} differs."
    detail = (
        f"The proxy terminates one conversation and starts another, so the question is which"
        f" keys belong to one hop and which travel end to end. Tests cover the happy path"
        f" only {cite[3]}.\n\n"
        f"A second paragraph: the upstream server sees the proxy as its client, and a timeout"
        f" upstream surfaces as an error here {cite[4]}, as {others[2]} describes in detail.\n\n"
        f"A third paragraph that only explains, at the length authors write, why this matters"
        f" to a client that retries: a retried request must not run twice, and the id is how"
        f" a server tells the two apart."
    )
    return [
        f"  - id: {entry_id}",
        f"    title: Entry {entry_id} on request timeouts",
        "    what: >-",
        f"      {what}",
        "    status:",
        "      state: partial",
        "      note: >-",
        f"        {note}",
        "    value: {level: med, note: a proxy is where a timeout is felt first.}",
        "    effort: {size: M, note: to pass the id through both hops.}",
        "    risk: Retries run twice.",
        "    detail: |-",
        *(f"      {line}" if line else "" for line in detail.split("\n")),
        "    sources:",
        *("      " + part for item in listed(pick) for part in item.split("\n")),
    ]


def register_text(index: int, registers: int, entries: int, pick: Picker) -> str:
    prefix = f"R{index:03d}"
    neighbour = f"R{(index + 1) % registers:03d}-01"
    summary = [">-", f"  A generated register for benchmarks, next to {neighbour}."]
    lines = header_lines(index, f"Realistic synthetic register {index}.", summary)
    for entry in range(1, entries + 1):
        others = [
            f"R{(index + k) % registers:03d}-{(entry + k) % entries + 1:02d}" for k in (1, 2, 3)
        ]
        span = f"{prefix}-01..{prefix}-{entries:02d}"
        lines += entry_lines(f"{prefix}-{entry:02d}", others, span, pick)
    return "\n".join(lines) + "\n"


SOURCES = """\
revisions: [2026-01-01]
sources:
  code:
    title: Generated code
    repo: https://github.com/example/code
    commit: {code}
    path: ../repo
    claims: [src/**]
  spec:
    title: Generated specification
    repo: https://github.com/example/spec
    commit: {spec}
    path: ../spec
    claims: [docs/**]
"""


def generate_realistic(
    root: Path, registers: int = 100, citations: int = 20_000, files: int = 500
) -> Path:
    """Write `root/repo`, `root/spec` and `root/registers`; returns the registers directory.

    `files` is per source; `citations` counts listed and in-prose ones (ten per entry).
    """
    code = write_source(root / "repo", files, code_path, code_line)
    spec = write_source(root / "spec", files, spec_path, spec_line)
    out = root / "registers"
    out.mkdir(parents=True, exist_ok=True)
    (out / "sources.yaml").write_text(SOURCES.format(code=code, spec=spec), encoding="utf-8")
    pick = Picker(random.Random(20261201), files)
    entries = max(1, citations // registers // 10)
    for index in range(registers):
        text = register_text(index, registers, entries, pick)
        (out / f"r{index:03d}.yaml").write_text(text, encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", type=Path, help="folder to write registers/, repo/, spec/ into")
    parser.add_argument("--registers", type=int, default=100, help="register files (100)")
    parser.add_argument("--citations", type=int, default=20_000, help="citations (20000)")
    parser.add_argument("--files", type=int, default=500, help="files per source (500)")
    options = parser.parse_args()
    print(generate_realistic(options.dir, options.registers, options.citations, options.files))


if __name__ == "__main__":
    main()

"""A large synthetic register set over generated git repositories, for the benchmarks.

    python bench/synthetic.py DIR              # writes DIR/registers and DIR/repo
    python bench/synthetic.py DIR --history    # and 500 more commits on top of the pin
    python bench/synthetic.py --help

Deterministic (fixed seed). The plain set: `registers` register files holding `citations`
citations in all, half of them quoted, spread over a repository of `files` source files of
120 lines each. The realistic set builds on this module (bench/realistic.py, which has
its own command line).
"""

from __future__ import annotations

import argparse
import random
import subprocess
from collections.abc import Iterable
from pathlib import Path

LINES_PER_FILE = 120
CITATIONS_PER_ENTRY = 10
EPOCH = "1700000000 +0000"


def file_line(file_number: int, line: int) -> str:
    """The text of one generated source line: unique, so every quote has one home."""
    return f"    value_{file_number}_{line} = compute(arg_{line}, 'text {line}')  # note {line}"


def file_text(file_number: int) -> str:
    return "".join(file_line(file_number, n) + "\n" for n in range(1, LINES_PER_FILE + 1))


def file_path(file_number: int) -> str:
    return f"src/pkg{file_number // 100:02d}/module_{file_number:04d}.py"


def generate_repo(repo: Path, files: int) -> str:
    """A git repository with `files` files in one commit; returns the commit sha."""
    return commit_files(repo, ((file_path(n), file_text(n)) for n in range(files)))


def commit_files(repo: Path, files: Iterable[tuple[str, str]]) -> str:
    """A new git repository holding `files` (path, text) in one commit; returns its sha."""
    repo.mkdir(parents=True, exist_ok=True)
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    subprocess.run([*git, "init", "--quiet", "--initial-branch=main"], cwd=repo, check=True)
    for name, text in files:
        path = repo / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    env = {"GIT_AUTHOR_DATE": EPOCH, "GIT_COMMITTER_DATE": EPOCH, "PATH": "/usr/bin:/bin"}
    subprocess.run([*git, "add", "--all"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "--quiet", "-m", "generated"], cwd=repo, check=True, env=env)
    done = subprocess.run([*git, "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True)
    return done.stdout.decode().strip()


def citation(rng: random.Random, files: int) -> str:
    number = rng.randrange(files)
    line = rng.randrange(1, LINES_PER_FILE - 3)
    if rng.random() < 0.5:
        return f"{file_path(number)}:{line}-{line + 3}"
    quote = f"value_{number}_{line} = compute(arg_{line}"
    return f"'{file_path(number)}:{line} “{quote}”'"


def header_lines(index: int, description: str, summary: list[str]) -> list[str]:
    """A generated register's fields before its entries (`entries:` included); `summary`
    is the summary's YAML, its first line after `summary:`."""
    return [
        f"title: Register {index}",
        f"prefix: R{index:03d}",
        f"description: {description}",
        "status: standard",
        "tags: [area:bench]",
        "created: 2026-01-01T00:00:00Z",
        "last-updated: 2026-01-02T00:00:00Z",
        "increment: 1",
        "subject: code",
        f"summary: {summary[0]}",
        *summary[1:],
        "entries:",
    ]


def register_text(index: int, count: int, rng: random.Random, files: int, registers: int) -> str:
    prefix = f"R{index:03d}"
    summary = ["A generated register for benchmarks."]
    lines = header_lines(index, f"Synthetic register {index}.", summary)
    for entry in range(1, count // CITATIONS_PER_ENTRY + 1):
        other = f"R{(index + 1) % registers:03d}-01" if entry == 1 else f"{prefix}-{entry - 1:02d}"
        lines += entry_lines(f"{prefix}-{entry:02d}", rng, files, other)
    return "\n".join(lines) + "\n"


def entry_lines(entry_id: str, rng: random.Random, files: int, other: str) -> list[str]:
    """One entry of ten citations; its `what` references `other`."""
    return [
        f"  - id: {entry_id}",
        f"    title: Entry {entry_id}",
        f"    what: What {entry_id} says about the spec; see {other}.",
        "    status: {state: partial, note: Partly done.}",
        "    value: {level: med}",
        "    effort: {size: S}",
        "    risk: Low.",
        "    sources:",
        *(f"      - {citation(rng, files)}" for _ in range(CITATIONS_PER_ENTRY)),
    ]


def generate(root: Path, registers: int = 100, citations: int = 20_000, files: int = 2_000) -> Path:
    """Write `root/repo` and `root/registers`; returns the registers directory."""
    rng = random.Random(20261130)
    sha = generate_repo(root / "repo", files)
    out = root / "registers"
    out.mkdir(parents=True, exist_ok=True)
    sources = (
        "revisions: [2026-01-01]\n"
        "sources:\n"
        "  code:\n"
        "    title: Generated code\n"
        "    repo: null\n"
        f"    commit: {sha}\n"
        "    path: ../repo\n"
        "    claims: [src/**]\n"
    )
    (out / "sources.yaml").write_text(sources, encoding="utf-8")
    per_register = citations // registers
    for index in range(registers):
        text = register_text(index, per_register, rng, files, registers)
        (out / f"r{index:03d}.yaml").write_text(text, encoding="utf-8")
    return out


def add_history(repo: Path, commits: int = 500, files: int = 2_000, per_commit: int = 5) -> str:
    """Add `commits` commits on top of the repository's HEAD; returns the new HEAD's sha.

    Each commit inserts two lines at a random place in `per_commit` random files and edits
    one random line of each (appending a comment, so quotes still match). All commits go
    through one `git fast-import`, which writes 500 commits in a fraction of a second.
    """
    rng = random.Random(20261201)
    texts: dict[int, list[str]] = {}
    stream = [b"reset refs/heads/main\nfrom refs/heads/main^0\n"]
    for number in range(commits):
        stream.append(_commit_header(number))
        for _ in range(per_commit):
            stream.append(_touch(rng, texts, rng.randrange(files), number))
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(stream), check=True)
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True)
    return done.stdout.decode().strip()


def _data(text: str) -> bytes:
    raw = text.encode("utf-8")
    return b"data %d\n%s\n" % (len(raw), raw)


def _commit_header(number: int) -> bytes:
    when = f"{1700000000 + number + 1} +0000"
    who = f"bench <bench@example.com> {when}"
    return f"commit refs/heads/main\ncommitter {who}\n".encode() + _data(f"change {number}")


def _touch(rng: random.Random, texts: dict[int, list[str]], file: int, number: int) -> bytes:
    """One file's new content in a fast-import commit: two lines in, one line edited."""
    lines = texts.setdefault(file, file_text(file).splitlines())
    at = rng.randrange(len(lines) + 1)
    lines[at:at] = [f"    # inserted by change {number}", ""]
    edited = rng.randrange(len(lines))
    lines[edited] += f"  # edited in change {number}"
    return f"M 100644 inline {file_path(file)}\n".encode() + _data("\n".join(lines) + "\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="Prints the registers directory it wrote.",
    )
    parser.add_argument("dir", type=Path, help="folder to write registers/ and repo/ into")
    parser.add_argument("--registers", type=int, default=100, help="register files (100)")
    parser.add_argument("--citations", type=int, default=20_000, help="citations (20000)")
    parser.add_argument("--files", type=int, default=2_000, help="files per source (2000)")
    parser.add_argument(
        "--history", action="store_true", help="add 500 commits on top of the pin (plain set)"
    )
    options = parser.parse_args(argv)
    registers = generate(options.dir, options.registers, options.citations, options.files)
    if options.history:
        add_history(registers.parent / "repo", files=options.files)
    print(registers)


if __name__ == "__main__":
    main()

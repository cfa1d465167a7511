"""Histories for the bump benchmark: a real clone's last first-parent commits, or a generated
history of the same shape, and a register set citing the files at its start.

    registers, pin, head = cite_history(root, clone, commits=100, citations=7000)

`clone` is a local git repository (a bare mirror will do; it is cloned first); None generates one
(`shaped_history`): files of code and Markdown, commits that insert, edit, move blocks and
rename files. The citations are spread over the text files at the pin in proportion to
their length, each one to four lines, at a fixed seed.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

from synthetic import CITATIONS_PER_ENTRY, commit_files, header_lines

CITED = (".go", ".py", ".ts", ".md", ".mdx")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, check=True)
    return done.stdout.decode("utf-8", errors="replace")


def git_dir(repo: Path) -> Path:
    return Path(subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"], cwd=repo, capture_output=True, check=True
    ).stdout.decode().strip())  # fmt: skip


def cite_history(
    root: Path, clone: Path | None, commits: int, citations: int
) -> tuple[Path, str, str, list[str]]:
    """(registers dir, pin, head, cited files): registers at `commits` first-parent commits
    before the head of `clone` (or of a shaped history written under `root`)."""
    if clone is None:
        shaped_history(root / "repo", commits)
    else:  # a clone of its own, complete (a mirror may lack objects a first-parent walk reads)
        subprocess.run(
            ["git", "clone", "--bare", "--quiet", str(clone), str(root / "repo")], check=True
        )
    repo = git_dir(root / "repo")
    head = git(repo, "rev-parse", "HEAD").strip()
    pin = git(repo, "rev-parse", f"HEAD~{commits}").strip()
    listed = git(repo, "ls-tree", "-r", "--name-only", pin).split("\n")
    files = [p for p in listed if p.endswith(CITED)]
    sizes = {p: git(repo, "cat-file", "-p", f"{pin}:{p}").count("\n") for p in files}
    cited = write_registers(root / "registers", repo, pin, sizes, citations)
    return root / "registers", pin, head, cited


def write_registers(
    out: Path, repo: Path, pin: str, sizes: dict[str, int], citations: int
) -> list[str]:
    """Registers of `citations` citations over `sizes` (path -> lines); returns the files cited."""
    rng = random.Random(20261201)
    paths = [p for p, n in sizes.items() if n >= 5]
    weights = [sizes[p] for p in paths]
    out.mkdir(parents=True, exist_ok=True)
    sources = (
        "revisions: [2026-01-01]\nsources:\n  code:\n    title: History\n    repo: null\n"
        f"    commit: {pin}\n    path: {repo}\n    claims: ['**']\n"
    )
    (out / "sources.yaml").write_text(sources, encoding="utf-8")
    cited: set[str] = set()
    entries = citations // CITATIONS_PER_ENTRY
    per_register = 10
    for index in range(max(1, entries // per_register)):
        lines = header_lines(index, f"History register {index}.", ["Cites a real history."])
        for entry in range(1, per_register + 1):
            lines += [
                f"  - id: R{index:03d}-{entry:02d}",
                f"    title: Entry {entry}",
                "    what: What the code does.",
                "    status: {state: partial}",
                "    value: {level: med}",
                "    effort: {size: S}",
                "    risk: Low.",
                "    sources:",
            ]
            for path in rng.choices(paths, weights, k=CITATIONS_PER_ENTRY):
                start = rng.randrange(1, sizes[path] - 3)
                end = start + rng.randrange(4)
                cited.add(path)
                lines.append(f"      - {{path: '{path}', lines: {start}-{end}}}")
        (out / f"r{index:03d}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sorted(cited)


def _code(n: int) -> str:
    body = []
    for f in range(12):
        body += [
            f"func (s *Server{n}) handle{f}(ctx context.Context, req *Request) error {{",
            f'\tif req.Session{f} != "" {{',
            f"\t\treturn s.resume(ctx, req.Session{f}, {f})",
            "\t}",
            f"\tvalue := compute{f}(req.Params, s.options.limit{n})",
            "\treturn s.reply(ctx, value)",
            "}",
            "",
        ]
    return f"package pkg{n}\n\n" + "\n".join(body)


def _page(n: int) -> str:
    paragraphs = [
        f"Servers **MUST** answer request {k} of page {n} within the `timeout` the client set."
        for k in range(60)
    ]
    return f"# Page {n}\n\n" + "\n\n".join(paragraphs) + "\n"


def shaped_history(repo: Path, commits: int, files: int = 60) -> Path:
    """A repository shaped like a real one: `files` Go files and as many Markdown pages, then
    `commits` commits, each editing and inserting lines in three files; every seventh moves
    a function within its file and every eleventh renames a file."""
    texts = {f"pkg/server{n:02d}.go": _code(n) for n in range(files)}
    texts |= {f"docs/page{n:02d}.md": _page(n) for n in range(files)}
    commit_files(repo, texts.items())
    rng = random.Random(20261202)
    command = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    for number in range(commits):
        for path in rng.sample(sorted(texts), 3):
            lines = texts[path].split("\n")
            at = rng.randrange(len(lines))
            lines[at : at + 1] = [lines[at] + f" // edited {number}", f"// added {number}"]
            if number % 7 == 0 and path.endswith(".go"):
                start = 2 + 8 * rng.randrange(11)
                block = lines[start : start + 8]
                del lines[start : start + 8]
                lines += block
            texts[path] = "\n".join(lines)
            (repo / path).write_text(texts[path], encoding="utf-8")
        if number % 11 == 0:
            old = rng.choice(sorted(texts))
            new = old.replace(".", f"_v{number}.", 1)
            subprocess.run([*command, "mv", old, new], cwd=repo, check=True)
            texts[new] = texts.pop(old)
        message = f"change {number}"
        subprocess.run([*command, "commit", "--quiet", "-am", message], cwd=repo, check=True)
    return repo

"""Benchmark: the register plugin beside plain MkDocs (and sphinx-needs) on the same work.

    python bench/peers.py [--items 500 2000 5000] [--repeat 1] [--serve]
    python bench/peers.py --real /tmp/go-sdk --scale 0.05 0.1 [--profile OUT.prof]

The work (issue 25's table): ITEMS items in registers of ten, each with prose, two links (to
the next item of its register and to the first of the next register) and four citations
into a git repository (a checkout present, so each citation has its excerpt: the cited
lines with three lines of context, numbered, the cited ones marked). Two shapes:

- generated (--items): a repository of generated Python files of 120 short lines;
- real (--real CLONE, issue 36): the Go files of a local clone of the Go MCP SDK at
  REAL_COMMIT, real files of real length, with the `tags` plugin on as this repository's
  mkdocs.yml has it; --scale S builds 5,000 x S items in 500 x S registers (20,000 x S
  citations). The runs also time `register render --out DIR --offline` (no excerpts, no
  MkDocs) and check that `zensical build` (when installed) builds what render wrote.

Built, as child processes in this one run, each timed by wall clock and CPU (user
+ system) with its peak memory, the best of --repeat rounds (each round builds every size
in turn):

- plain MkDocs: one Markdown page per register holding the same items, each citation a
  permalink and, in a collapsed admonition, the same excerpt as a fenced block (`linenums`,
  `hl_lines`): the site an author would write by hand, with the same theme, plugins and
  Markdown extensions;
- the register plugin building its site from the YAML, with no excerpt cache (a cold CI
  build): the register pages, and the pages only it makes (overview, health pages,
  priorities, revision matrix), with the excerpts in files fetched when a reader opens one;
- sphinx-needs (when it is installed, generated shape only): one reStructuredText page per
  register, each item a `req` need linking the other two, its citations `literalinclude`s.

Ratios are to plain MkDocs at the same size. Growth: the exponent k of time = c * items^k
from the smallest size to the largest, and with three sizes or more, over each step (a
growth faster than the items shows where it starts). With --serve, each MkDocs site is also served
(`mkdocs serve`), one item's title edited and then its prose, and the rebuild MkDocs reports
is compared with plain MkDocs' rebuild after the same edit of its page; the server's peak
memory is read from /proc. With --profile, the plugin's cold build at the largest size is
run once more under cProfile, its statistics written to OUT.prof and summarised.

Targets (issue 36), in the real shape: the cold build at most 1.5x plain MkDocs' CPU, peak
memory at most 2x, growth exponent at most 1.05; `register render` at most a third of
plain MkDocs' build.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import itertools
import math
import os
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import Run, best, best_of, run_child, site_config  # noqa: E402
from serve import Server  # noqa: E402
from synthetic import file_path, file_text, generate_repo, header_lines  # noqa: E402

import compat_register  # noqa: E402
from compat_register.scaffold.newproject import zensical_config  # noqa: E402

PER_REGISTER = 10
CITATIONS = 4
CONTEXT = 3
FILES_PER_ITEM = 0.4
"""Cited files per item: 2,000 files of 120 lines at 5,000 items."""
REAL_ITEMS = 5_000
"""Items of the real shape at --scale 1 (issue 36: 500 registers, 20,000 citations)."""
REAL_COMMIT = "3d6450f"
REAL_URL = "https://github.com/modelcontextprotocol/go-sdk"


class Source:
    """The cited repository: its commit, its URL, the cited files' lines and their language."""

    def __init__(self, repo: Path, sha: str, url: str, files: dict[str, list[str]], lang: str):
        self.repo, self.sha, self.url, self.language = repo, sha, url, lang
        self.paths = sorted(files)
        self.lines = files


def generated_source(repo: Path, files: int) -> Source:
    """A new repository of `files` generated Python files of 120 lines."""
    sha = generate_repo(repo, files)
    texts = {file_path(n): file_text(n).splitlines() for n in range(files)}
    return Source(repo, sha, "https://github.com/example/peers", texts, "python")


def real_source(clone: Path, commit: str = REAL_COMMIT) -> Source:
    """The Go files of at least 20 lines of a local clone at `commit`, read from git."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(clone), *args], check=True, capture_output=True, text=True
        ).stdout

    sha = git("rev-parse", f"{commit}^{{commit}}").strip()
    files = {}
    for path in git("ls-tree", "-r", "--name-only", sha).splitlines():
        if path.endswith(".go"):
            lines = git("show", f"{sha}:{path}").splitlines()
            if len(lines) >= 20:
                files[path] = lines
    return Source(clone, sha, REAL_URL, files, "go")


class Work:
    """The generated items, as the three builds are given them."""

    def __init__(self, root: Path, items: int, source: Source) -> None:
        self.root = root
        self.items = items
        self.source = source
        self.registers = max(1, items // PER_REGISTER)
        rng = random.Random(items)
        self.cited = [
            [[self._citation(rng) for _ in range(CITATIONS)] for _ in range(PER_REGISTER)]
            for _ in range(self.registers)
        ]

    def _citation(self, rng: random.Random) -> tuple[str, int, int]:
        """(file path, first line, last line): one line, or a range of up to four."""
        path = rng.choice(self.source.paths)
        start = rng.randrange(1, len(self.source.lines[path]) - 3)
        return path, start, start + rng.choice((0, 0, 1, 3))

    def item(self, register: int, entry: int) -> str:
        return f"P{register:04d}-{entry + 1:02d}"

    def links(self, register: int, entry: int) -> tuple[str, str]:
        """The two items an item links to: the next of its register, the next register's first."""
        return (
            self.item(register, (entry + 1) % PER_REGISTER),
            self.item((register + 1) % self.registers, 0),
        )

    def prose(self, register: int, entry: int) -> str:
        one, two = self.links(register, entry)
        return (
            f"What {self.item(register, entry)} requires of a server, as the specification says"
            f" it; it builds on {one} and is checked again by {two}."
        )


def write_registers(work: Work) -> None:
    """The items as register YAML, for the plugin."""
    folder = work.root / "registers"
    folder.mkdir()
    (folder / "sources.yaml").write_text(
        "revisions: [2026-01-01]\nsources:\n  code:\n    title: Cited code\n"
        f"    repo: {work.source.url}\n    commit: {work.source.sha}\n"
        f"    path: {work.source.repo}\n    claims: ['**']\n"
    )
    for register in range(work.registers):
        lines = header_lines(register, f"Register {register}.", ["Generated items."])
        lines[1] = f"prefix: P{register:04d}"
        for entry in range(PER_REGISTER):
            lines += [
                f"  - id: {work.item(register, entry)}",
                f"    title: Item {work.item(register, entry)}",
                f"    what: {work.prose(register, entry)}",
                "    status: {state: partial, note: Partly done.}",
                "    value: {level: med}",
                "    effort: {size: S}",
                "    risk: Low.",
                "    sources:",
                *(
                    f"      - {f}:{a}" + (f"-{b}" if b > a else "")
                    for f, a, b in work.cited[register][entry]
                ),
            ]
        (folder / f"p{register:04d}.yaml").write_text("\n".join(lines) + "\n")


def write_plain(work: Work) -> None:
    """The same items as hand-written Markdown pages, each excerpt a collapsed fenced block."""
    docs = work.root / "docs_plain"
    docs.mkdir()
    (docs / "index.md").write_text("# Peers\n\nThe [registers](p0000.md).\n")
    for register in range(work.registers):
        parts = [f"# Register {register}\n\nGenerated items.\n"]
        for entry in range(PER_REGISTER):
            parts.append(plain_item(work, register, entry))
        (docs / f"p{register:04d}.md").write_text("\n".join(parts))


def plain_item(work: Work, register: int, entry: int) -> str:
    name = work.item(register, entry)
    one, two = work.links(register, entry)
    prose = work.prose(register, entry)
    for target in (one, two):
        page = f"p{int(target[1:5]):04d}.md"
        prose = prose.replace(target, f"[{target}]({page}#{target.lower()})", 1)
    lines = [f"## {name} Item {name} {{ #{name.lower()} }}\n", prose, "", "**State** partial.\n"]
    for file, start, end in work.cited[register][entry]:
        lines.append(plain_citation(work, file, start, end))
    return "\n".join(lines) + "\n"


def plain_citation(work: Work, path: str, start: int, end: int) -> str:
    source = work.source
    cited = f"{path}:{start}" + (f"-{end}" if end > start else "")
    url = f"{source.url}/blob/{source.sha}/{path}#L{start}" + (f"-L{end}" if end > start else "")
    lines = source.lines[path]
    first, last = max(1, start - CONTEXT), min(len(lines), end + CONTEXT)
    code = "\n".join(("        " + lines[n - 1]).rstrip() for n in range(first, last + 1))
    marked = f"{start - first + 1}" + (f"-{end - first + 1}" if end > start else "")
    return (
        f"- [`{cited}`]({url})\n\n"
        f'    ??? quote "{cited} @ {source.sha[:7]}"\n\n'
        f'        ``` {source.language} linenums="{first}" hl_lines="{marked}"\n'
        f"{code}\n        ```\n"
    )


def write_configs(work: Work, plugins: str) -> None:
    """plain.yml and plugin.yml, with `plugins` (whole lines) before the register plugin;
    and zensical/mkdocs.yml for the pages `register render` writes into zensical/docs."""
    docs = work.root / "docs_plugin"
    docs.mkdir()
    (docs / "index.md").write_text("# Peers\n\nThe [registers](registers/index.md).\n")
    for name, plugin in (("plain", ""), ("plugin", "  - register")):
        text = site_config("peers", f"docs_{name}", plugin, plugins=plugins)
        (work.root / f"{name}.yml").write_text(text)
    (work.root / "zensical").mkdir()
    (work.root / "zensical" / "mkdocs.yml").write_text(zensical_config("peers"))


def write_sphinx(work: Work) -> None:
    """The same items as sphinx-needs `req` needs, excerpts as `literalinclude`s."""
    docs = work.root / "docs_sphinx"
    docs.mkdir()
    (docs / "conf.py").write_text(
        "project = 'peers'\nextensions = ['sphinx_needs']\nhtml_theme = 'alabaster'\n"
        "needs_id_regex = r'^[A-Z0-9_]+$'\n"
    )
    pages = [f"p{r:04d}" for r in range(work.registers)]
    toctree = "\n".join(f"   {page}" for page in pages)
    (docs / "index.rst").write_text(f"Peers\n=====\n\n.. toctree::\n\n{toctree}\n")
    for register, page in enumerate(pages):
        parts = [f"Register {register}\n{'=' * 20}\n\nGenerated items.\n"]
        for entry in range(PER_REGISTER):
            parts.append(sphinx_item(work, register, entry))
        (docs / f"{page}.rst").write_text("\n".join(parts))


def sphinx_item(work: Work, register: int, entry: int) -> str:
    def need_id(item: str) -> str:
        return item.replace("-", "_")

    name = work.item(register, entry)
    one, two = work.links(register, entry)
    prose = work.prose(register, entry)
    for target in (one, two):
        prose = prose.replace(target, f":need:`{need_id(target)}`", 1)
    lines = [
        f".. req:: Item {name}",
        f"   :id: {need_id(name)}",
        f"   :links: {need_id(one)}, {need_id(two)}",
        "   :status: partial",
        "",
        f"   {prose}",
        "",
    ]
    for path, start, end in work.cited[register][entry]:
        first, last = max(1, start - CONTEXT), min(len(work.source.lines[path]), end + CONTEXT)
        marked = ",".join(str(n - first + 1) for n in range(start, end + 1))
        lines += [
            f"   .. literalinclude:: {work.source.repo}/{path}",
            "      :language: python",
            f"      :lines: {first}-{last}",
            f"      :lineno-start: {first}",
            f"      :emphasize-lines: {marked}",
            "",
        ]
    return "\n".join(lines) + "\n"


def environment(work: Work) -> dict[str, str]:
    return {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "REGISTER_SOURCE_CODE": str(work.source.repo),
        "REGISTER_CACHE": str(work.root / "cache"),
    }


Build = tuple[list[str], list[str] | None]
"""A peer's build command, and the command run (untimed) before each run of it, or None."""


def peer_builds(work: Work, real: bool) -> dict[str, Build]:
    """Each peer's cold build of `work`; the plugin's excerpt cache is removed before each
    of its runs. In the real shape, `register render` too, into a fresh folder each run."""
    forget = ["rm", "-rf", str(work.root / "cache"), str(work.root / ".register")]
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q", "-d"]
    builds: dict[str, Build] = {
        "plain MkDocs": ([*mkdocs, "site_plain", "-f", "plain.yml"], None),
        "register plugin": ([*mkdocs, "site_plugin", "-f", "plugin.yml"], forget),
    }
    if real:
        out = work.root / "zensical" / "docs"
        render = [str(Path(sys.executable).parent / "register"), "render", "--offline"]
        builds["register render"] = ([*render, "--out", str(out)], ["rm", "-rf", str(out)])
    elif importlib.util.find_spec("sphinx_needs") is not None:
        write_sphinx(work)
        sphinx = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E"]
        builds["sphinx-needs"] = ([*sphinx, "docs_sphinx", "site_sphinx"], None)
    return builds


def zensical_builds(work: Work) -> str:
    """Whether `zensical build` builds what `register render` last wrote, and its time."""
    if importlib.util.find_spec("zensical") is None:
        return "not installed"
    done = subprocess.run(
        [sys.executable, "-m", "zensical", "build"],
        cwd=work.root / "zensical",
        env=environment(work),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        return f"FAILED: {(done.stdout + done.stderr).strip().splitlines()[-1]}"
    return "builds"


def profile(work: Work, out: Path) -> None:
    """The plugin's cold build once more under cProfile; the functions that hold the most
    time, with their share of the whole."""
    shutil.rmtree(work.root / "cache", ignore_errors=True)
    mkdocs = ["-m", "mkdocs", "build", "-q", "-d", "site_plugin", "-f", "plugin.yml"]
    args = [sys.executable, "-m", "cProfile", "-o", str(out), *mkdocs]
    run_child(args, environment(work), cwd=work.root)
    stats = pstats.Stats(str(out))
    total = max(entry[3] for entry in stats.stats.values())  # type: ignore[attr-defined]
    print(f"\nprofile of the plugin's cold build at {work.items} items ({out}):")
    rows = sorted(stats.stats.items(), key=lambda row: -row[1][3])  # type: ignore[attr-defined]
    for (file, line, name), (_, _, _, cumulative, _) in rows[:40]:
        place = f"{Path(file).parent.name}/{Path(file).name}:{line}"
        print(f"  {cumulative / total:6.1%}  {name} ({place})")


def cold_builds(works: list[Work], repeat: int, real: bool) -> dict[int, dict[str, Run]]:
    """Each peer's cold build at each size, the best of `repeat` rounds (as `common.best`
    takes it). A round builds every size in turn: the growth exponent compares sizes, and
    a load that comes and goes on the shared machine then weighs on each size alike, not
    on whichever size ran while it lasted. A size is reported once its last round is done."""
    builds = [(work, peer_builds(work, real)) for work in works]
    runs: dict[int, dict[str, list[Run]]] = {w.items: {n: [] for n in b} for w, b in builds}
    for left in reversed(range(repeat)):
        for work, peers in builds:
            for name, (args, before) in peers.items():
                run = best(args, environment(work), 1, before=before, cwd=work.root)
                runs[work.items][name].append(run)
            if not left:
                report_size(work.items, fastest(runs[work.items]))
                if real:
                    print(f"  zensical build of what render wrote: {zensical_builds(work)}")
    return {items: fastest(peers) for items, peers in runs.items()}


def fastest(runs: dict[str, list[Run]]) -> dict[str, Run]:
    """Each peer's best run (`common.best_of`)."""
    return {name: best_of(done) for name, done in runs.items()}


def peak_memory(pid: int) -> float:
    """A process's peak resident memory so far (VmHWM), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


Served = tuple[list[float], list[float], float]
"""Seconds MkDocs reports for each rebuild, the server's CPU seconds for each, its peak
memory in MiB."""

WAIT = 3600
"""Seconds a served build may take: on a loaded shared machine a first build at 5,000
items can take ten minutes of wall time."""


def served(work: Work, config: str, edits: list[tuple[Path, str, str]]) -> Served:
    """`mkdocs serve` of one site: the seconds MkDocs reports for each rebuild after each
    edit (file, old text, new text), the CPU the server used meanwhile (steady on a busy
    machine, where wall time is not), and the server's peak memory in MiB."""
    os.environ.update(environment(work))
    server = Server(work.root, config)
    try:
        server.built(WAIT)
        server.watching(WAIT)
        seconds, cpu = [], []
        for path, old, new in edits:
            text = path.read_text()
            assert old in text, (path, old)
            server.settle()
            before = server.cpu()
            path.write_text(text.replace(old, new, 1))
            seconds.append(server.rebuilt(WAIT))
            cpu.append(server.cpu() - before)
        return seconds, cpu, peak_memory(server.proc.pid)
    finally:
        server.stop()


def serve_rounds(work: Work) -> dict[str, Served]:
    """The plugin and plain MkDocs served, one item's title edited, then its prose."""
    item = work.item(0, 1)
    yaml_file = work.root / "registers" / "p0000.yaml"
    page = work.root / "docs_plain" / "p0000.md"
    prose = "requires of a server"
    return {
        "plain MkDocs": served(
            work,
            "plain.yml",
            [
                (page, f"Item {item} {{", f"Item {item} edited {{"),
                (page, prose, "requires of a client"),
            ],
        ),
        "register plugin": served(
            work,
            "plugin.yml",
            [
                (yaml_file, f"title: Item {item}\n", f"title: Item {item} edited\n"),
                (yaml_file, prose, "requires of a client"),
            ],
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, nargs="+", default=[500, 2_000, 5_000])
    parser.add_argument("--real", type=Path, help=f"a local clone of {REAL_URL}: the real shape")
    parser.add_argument("--scale", type=float, nargs="+", help="real shape: sizes of 5,000 items")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--serve", action="store_true", help="also time rebuilds under serve")
    parser.add_argument("--profile", type=Path, help="profile the largest plugin build into")
    args = parser.parse_args()
    sizes = [round(REAL_ITEMS * s) for s in args.scale or [1]] if args.real else args.items
    # Bytecode written first, as pip writes it for an installed wheel: a checkout run under
    # PYTHONDONTWRITEBYTECODE would compile every module of ours in every timed run.
    compileall.compile_dir(Path(compat_register.__file__).parent, quiet=1)
    roots: list[Path] = []
    try:
        works = []
        for items in sizes:
            roots.append(Path(tempfile.mkdtemp(prefix="register-peers-")))
            if args.real:
                source = real_source(args.real)
            else:
                source = generated_source(roots[-1] / "repo", max(10, int(items * FILES_PER_ITEM)))
            works.append(Work(roots[-1], items, source))
            write_registers(works[-1])
            write_plain(works[-1])
            write_configs(works[-1], "  - tags\n" if args.real else "")
        report_growth(cold_builds(works, args.repeat, bool(args.real)))
        largest = max(works, key=lambda work: work.items)
        if args.profile:
            profile(largest, args.profile)
        serving = serve_rounds(largest) if args.serve else {}
    finally:
        for root in roots:
            shutil.rmtree(root, ignore_errors=True)
    if serving:
        report_serve(largest.items, serving)


def report_size(items: int, runs: dict[str, Run]) -> None:
    base = runs["plain MkDocs"]
    print(f"\n{items} items ({items * CITATIONS} citations), cold builds:", flush=True)
    print(f"  {'':18} {'wall':>9} {'cpu':>9} {'peak':>9}   cpu ratio  memory ratio")
    for name, (wall, memory, cpu) in runs.items():
        print(
            f"  {name:18} {wall:7.2f} s {cpu:7.2f} s {memory:5.0f} MiB"
            f"   {cpu / base[2]:7.2f}x  {memory / base[1]:9.2f}x",
            flush=True,
        )


def report_growth(results: dict[int, dict[str, Run]]) -> None:
    sizes = sorted(results)
    if len(sizes) < 2:
        return
    low, high = sizes[0], sizes[-1]
    print(f"\ngrowth of cpu time from {low} to {high} items (exponent; target at most 1.05):")
    for name in results[low]:
        print(f"  {name:18} {growth(results, name, low, high):.2f}")
    if len(sizes) > 2:
        steps = list(itertools.pairwise(sizes))
        print("  each step: " + ", ".join(f"{a} to {b}" for a, b in steps))
        for name in results[low]:
            shown = ", ".join(f"{growth(results, name, a, b):.2f}" for a, b in steps)
            print(f"  {name:18} {shown}")


def growth(results: dict[int, dict[str, Run]], name: str, low: int, high: int) -> float:
    """The exponent k of cpu time = c * items^k from `low` items to `high`."""
    return math.log(results[high][name][2] / results[low][name][2]) / math.log(high / low)


def report_serve(items: int, serving: dict[str, Served]) -> None:
    base, base_cpu, peak = serving["plain MkDocs"]
    print(f"\nmkdocs serve at {items} items (seconds MkDocs reports for each rebuild; cpu):")
    for name, (seconds, cpu, memory) in serving.items():
        (title, prose), (title_cpu, prose_cpu) = seconds, cpu
        print(
            f"  {name:18} title edit {title:6.2f} s ({title / base[0]:.2f}x),"
            f" cpu {title_cpu:6.2f} s ({title_cpu / base_cpu[0]:.2f}x);"
            f" prose edit {prose:6.2f} s ({prose / base[1]:.2f}x),"
            f" cpu {prose_cpu:6.2f} s ({prose_cpu / base_cpu[1]:.2f}x);"
            f" peak memory {memory:4.0f} MiB ({memory / peak:.2f}x)"
        )
    print("  targets: title edit at most 0.35x, prose edit at most 0.2x, memory at most 2x")


if __name__ == "__main__":
    main()

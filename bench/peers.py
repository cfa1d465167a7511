"""Benchmark: the register plugin beside plain MkDocs (and sphinx-needs) on the same work.

    python bench/peers.py [--items 500 2000 5000] [--repeat 1] [--serve]

The work (issue 25's table): ITEMS items in registers of ten, each with prose, two links (to
the next item of its register and to the first of the next register) and four citations
into a real git repository of generated Python files (a checkout present, so each citation
has its excerpt: the cited lines with three lines of context, numbered, the cited ones
marked). Built, as child processes in this one run, each timed by wall clock and CPU (user
+ system) with its peak memory, the best of --repeat rounds (each round builds every size
in turn):

- plain MkDocs: one Markdown page per register holding the same items, each citation a
  permalink and, in a collapsed admonition, the same excerpt as a fenced block (`linenums`,
  `hl_lines`): the site an author would write by hand, with the same theme, plugins and
  Markdown extensions;
- the register plugin building its site from the YAML, with no excerpt cache (a cold CI
  build): the register pages, and the pages only it makes (overview, health pages,
  priorities, revision matrix), with the excerpts in files fetched when a reader opens one;
- sphinx-needs (when it is installed): one reStructuredText page per register, each item a
  `req` need linking the other two, its citations `literalinclude`s of the same lines.

Ratios are to plain MkDocs at the same size. Growth: the exponent k of time = c * items^k
from the smallest size to the largest, and with three sizes or more, over each step (a
growth faster than the items shows where it starts). With --serve, each MkDocs site is also served
(`mkdocs serve`), one item's title edited and then its prose, and the rebuild MkDocs reports
is compared with plain MkDocs' rebuild after the same edit of its page; the server's peak
memory is read from /proc.

Targets (issue 25), at 5,000 items: the cold build at most 1.5x plain MkDocs' CPU, peak
memory at most 2x (serve included), growth exponent at most 1.05; rebuild after a title
edit at most 0.35x plain MkDocs' rebuild, after a prose edit at most 0.2x.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import math
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import Run, best, best_of, site_config  # noqa: E402
from serve import Server  # noqa: E402
from synthetic import LINES_PER_FILE, file_line, file_path, generate_repo, header_lines  # noqa: E402

PER_REGISTER = 10
CITATIONS = 4
CONTEXT = 3
FILES_PER_ITEM = 0.4
"""Cited files per item: 2,000 files of 120 lines at 5,000 items."""
REPO_URL = "https://github.com/example/peers"


class Work:
    """The generated items, as the three builds are given them."""

    def __init__(self, root: Path, items: int) -> None:
        self.root = root
        self.items = items
        self.registers = max(1, items // PER_REGISTER)
        self.files = max(10, int(items * FILES_PER_ITEM))
        self.sha = generate_repo(root / "repo", self.files)
        rng = random.Random(items)
        self.cited = [
            [[self._citation(rng) for _ in range(CITATIONS)] for _ in range(PER_REGISTER)]
            for _ in range(self.registers)
        ]

    def _citation(self, rng: random.Random) -> tuple[int, int, int]:
        """(file number, first line, last line): one line, or a range of up to four."""
        start = rng.randrange(1, LINES_PER_FILE - 3)
        return rng.randrange(self.files), start, start + rng.choice((0, 0, 1, 3))

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
        "revisions: [2026-01-01]\nsources:\n  code:\n    title: Generated code\n"
        f"    repo: {REPO_URL}\n    commit: {work.sha}\n    path: ../repo\n    claims: [src/**]\n"
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
                    f"      - {file_path(f)}:{a}" + (f"-{b}" if b > a else "")
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


def plain_citation(work: Work, file: int, start: int, end: int) -> str:
    path = file_path(file)
    cited = f"{path}:{start}" + (f"-{end}" if end > start else "")
    url = f"{REPO_URL}/blob/{work.sha}/{path}#L{start}" + (f"-L{end}" if end > start else "")
    first, last = max(1, start - CONTEXT), min(LINES_PER_FILE, end + CONTEXT)
    code = "\n".join("        " + file_line(file, n) for n in range(first, last + 1))
    marked = f"{start - first + 1}" + (f"-{end - first + 1}" if end > start else "")
    return (
        f"- [`{cited}`]({url})\n\n"
        f'    ??? quote "{cited} @ {work.sha[:7]}"\n\n'
        f'        ``` python linenums="{first}" hl_lines="{marked}"\n'
        f"{code}\n        ```\n"
    )


def write_configs(work: Work) -> None:
    docs = work.root / "docs_plugin"
    docs.mkdir()
    (docs / "index.md").write_text("# Peers\n\nThe [registers](registers/index.md).\n")
    for name, plugin in (("plain", ""), ("plugin", "  - register")):
        text = site_config("peers", f"docs_{name}", plugin)
        (work.root / f"{name}.yml").write_text(text)


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
    for file, start, end in work.cited[register][entry]:
        first, last = max(1, start - CONTEXT), min(LINES_PER_FILE, end + CONTEXT)
        marked = ",".join(str(n - first + 1) for n in range(start, end + 1))
        lines += [
            f"   .. literalinclude:: ../repo/{file_path(file)}",
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
        "REGISTER_SOURCE_CODE": str(work.root / "repo"),
        "REGISTER_CACHE": str(work.root / "cache"),
    }


Build = tuple[list[str], list[str] | None]
"""A peer's build command, and the command run (untimed) before each run of it, or None."""


def peer_builds(work: Work) -> dict[str, Build]:
    """Each peer's cold build of `work`; the plugin's excerpt cache is removed before each
    of its runs."""
    forget = ["rm", "-rf", str(work.root / "cache"), str(work.root / ".register")]
    mkdocs = [sys.executable, "-m", "mkdocs", "build", "-q", "-d"]
    builds: dict[str, Build] = {
        "plain MkDocs": ([*mkdocs, "site_plain", "-f", "plain.yml"], None),
        "register plugin": ([*mkdocs, "site_plugin", "-f", "plugin.yml"], forget),
    }
    if importlib.util.find_spec("sphinx_needs") is not None:
        write_sphinx(work)
        sphinx = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E"]
        builds["sphinx-needs"] = ([*sphinx, "docs_sphinx", "site_sphinx"], None)
    return builds


def cold_builds(works: list[Work], repeat: int) -> dict[int, dict[str, Run]]:
    """Each peer's cold build at each size, the best of `repeat` rounds (as `common.best`
    takes it). A round builds every size in turn: the growth exponent compares sizes, and
    a load that comes and goes on the shared machine then weighs on each size alike, not
    on whichever size ran while it lasted. A size is reported once its last round is done."""
    builds = [(work, peer_builds(work)) for work in works]
    runs: dict[int, dict[str, list[Run]]] = {w.items: {n: [] for n in b} for w, b in builds}
    for left in reversed(range(repeat)):
        for work, peers in builds:
            for name, (args, before) in peers.items():
                run = best(args, environment(work), 1, before=before, cwd=work.root)
                runs[work.items][name].append(run)
            if not left:
                report_size(work.items, fastest(runs[work.items]))
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
        time.sleep(1.0)  # let the watcher settle before the first edit
        seconds, cpu = [], []
        for path, old, new in edits:
            text = path.read_text()
            assert old in text, (path, old)
            before = server.cpu()
            path.write_text(text.replace(old, new, 1))
            seconds.append(server.built(WAIT))
            cpu.append(server.cpu() - before)
            time.sleep(0.5)
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
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--serve", action="store_true", help="also time rebuilds under serve")
    args = parser.parse_args()
    roots: list[Path] = []
    try:
        works = []
        for items in args.items:
            roots.append(Path(tempfile.mkdtemp(prefix="register-peers-")))
            works.append(Work(roots[-1], items))
            write_registers(works[-1])
            write_plain(works[-1])
            write_configs(works[-1])
        report_growth(cold_builds(works, args.repeat))
        largest = max(works, key=lambda work: work.items)
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

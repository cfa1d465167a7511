"""Benchmark: the author's loop under a real `mkdocs serve`, and what a reader downloads.

    python bench/serve.py [--registers 20] [--citations 3000] [--files 300] [--edits 3]

The synthetic set (bench/synthetic.py) with its checkout present (every citation has an
excerpt), in one run: a cold `mkdocs build` (wall and CPU, best of --repeat); a real `mkdocs
serve --dirty` (docs/site.md's author's loop) and a plain `mkdocs serve`, each rebuilding
after --edits edits of an entry's title (on every page listing entries: the costly edit)
and then of its `what` (its page alone), timed by MkDocs' "Documentation built in" line and
the server's CPU (/proc); and what a reader downloads from the cold build's site. Targets:
a rebuild at most 0.15x the cold build; pages at most a third of what they would weigh
holding their excerpts; no excerpt code in the search index (2,174 KiB when it held it).
"""

from __future__ import annotations

import argparse
import os
import queue
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from build import forget_cache, prepare  # noqa: E402
from common import best  # noqa: E402

BUILT = re.compile(r"Documentation built in ([\d.]+) seconds")
BUILDING = re.compile(r"Building documentation")
ENDED = re.compile(r"Documentation built in ([\d.]+) seconds|Reloading browsers")
"""A build's end: MkDocs logs no message twice in a process (its `DuplicateFilter`), so a
rebuild as long as an earlier one to the hundredth ends with the live server's line alone."""
WATCHING = re.compile(r"Watching paths for changes")
EXCERPT_CODE = "# note "
"""Text of every generated source line that no quote holds: found in the search index, it
means excerpt code was indexed."""


class Server:
    """`mkdocs serve` as a child process, its log lines read by a thread."""

    def __init__(self, root: Path, config: str, dirty: bool = True):
        port = free_port()
        command = [sys.executable, "-m", "mkdocs", "serve", "-f", config]
        command += ["-a", f"127.0.0.1:{port}", *(["--dirty"] if dirty else [])]
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        self.proc = subprocess.Popen(
            command, cwd=root, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self.lines.put(raw.decode(errors="replace"))

    def built(self, timeout: float = 600) -> float:
        """The X of the next "Documentation built in X seconds" logged."""
        return float(self._logged(BUILT, timeout, "built nothing")[1])

    def rebuilt(self, timeout: float = 600) -> float:
        """The X of the first build that starts after now (`built`): one already under way
        when an edit was made ends first, and is not the edit's."""
        self._logged(BUILDING, timeout, "started no build")
        start = time.monotonic()
        ended = self._logged(ENDED, timeout, "ended no build")
        return float(ended[1]) if ended[1] else time.monotonic() - start

    def watching(self, timeout: float = 600) -> None:
        """Wait for MkDocs' "Watching paths" line, and a second more: its polling watcher
        takes its first look in a thread of its own, and misses an edit made before it."""
        self._logged(WATCHING, timeout, "watched nothing")
        time.sleep(1.0)

    def _logged(self, pattern: re.Pattern[str], timeout: float, missed: str) -> re.Match[str]:
        """The next line logged that `pattern` finds; an error logged, or none in `timeout`
        seconds, ends the bench in one line."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                raise SystemExit(f"mkdocs serve {missed} in time") from None
            if "ERROR" in line or "Traceback" in line:
                raise SystemExit(f"mkdocs serve: {line.strip()}")
            if found := pattern.search(line):
                return found

    def settle(self, quiet: float = 1.0) -> None:
        """Wait until the server has logged nothing for `quiet` seconds, and forget what it
        logged: an edit seen twice by the watcher builds twice, and the second build's line
        must not be taken for the next edit's."""
        while True:
            try:
                self.lines.get(timeout=quiet)
            except queue.Empty:
                return

    def cpu(self) -> float:
        """CPU seconds (user + system) the server has used so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


EDITS = {
    "title": r"(\n    title: Entry \S+)",
    "what": r"(\n    what: What \S+ says about the spec; see \S+\.)",
}
"""The field of the first entry each kind of edit changes."""


def edit(register: Path, kind: str, number: int) -> None:
    """Change the first entry's field of this `kind` of edit (`EDITS`)."""
    text = register.read_text(encoding="utf-8")
    text = re.sub(EDITS[kind] + r"( edit \d+)?\n", rf"\1 edit {number}\n", text, count=1)
    register.write_text(text, encoding="utf-8")


Rebuild = tuple[float, float, float]
"""Seconds MkDocs reports, wall seconds from the edit, CPU seconds of the server."""


def serve(root: Path, edits: int, dirty: bool = True) -> tuple[float, dict[str, list[Rebuild]]]:
    """The first build's seconds, and each rebuild after each kind of edit (`dirty`: under
    `mkdocs serve --dirty`)."""
    server = Server(root, "plugin.yml", dirty)
    rebuilds: dict[str, list[Rebuild]] = {kind: [] for kind in EDITS}
    try:
        first = server.built()
        server.watching()
        for kind, done in rebuilds.items():
            for number in range(1, edits + 1):
                server.settle()
                cpu, start = server.cpu(), time.monotonic()
                edit(root / "registers" / "r000.yaml", kind, number)
                seconds = server.rebuilt()
                done.append((seconds, time.monotonic() - start, server.cpu() - cpu))
    finally:
        server.stop()
    return first, rebuilds


def weights(site: Path, registers: int, citations: int) -> dict[str, float]:
    """Bytes a reader downloads: register pages, excerpt files, the search index."""
    pages = [site / "registers" / f"r{index:03d}" / "index.html" for index in range(registers)]
    fragments = [p for p in (site / "registers").rglob("*") if "excerpt" in p.name]
    index = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    return {
        "page": sum(p.stat().st_size for p in pages) / citations,
        "largest page": max(p.stat().st_size for p in pages),
        "excerpts": sum(p.stat().st_size for p in fragments) / citations,
        "index": len(index.encode()),
        "code in index": index.count(EXCERPT_CODE),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registers", type=int, default=20)
    parser.add_argument("--citations", type=int, default=3_000)
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--edits", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
        prepare(root, options.registers, options.citations, options.files)
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", "plugin.yml", "-d", "site"]
        cold = forget_cache(root)  # every build here starts with no excerpt highlighted
        cold_wall, _, cold_cpu = best(command, env, options.repeat, cwd=root, before=cold)
        cited = options.citations // options.registers // 10 * 10 * options.registers
        weight = weights(root / "site", options.registers, cited)
        subprocess.run(cold, check=True)
        first, rebuilds = serve(root, options.edits)
        _, whole = serve(root, options.edits, dirty=False)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    report(options, cited, (cold_wall, cold_cpu), first, rebuilds, weight)
    for kind, done in whole.items():
        fastest, least_cpu = min(r[0] for r in done), min(r[2] for r in done)
        print(
            f"plain mkdocs serve (every page built again), {kind} edits: rebuild"
            f" {fastest:.2f} s, {fastest / cold_wall:.3f}x the cold build's wall,"
            f" {least_cpu / cold_cpu:.3f}x its cpu"
        )


def report(
    options: argparse.Namespace,
    cited: int,
    cold: tuple[float, float],
    first: float,
    rebuilds: dict[str, list[Rebuild]],
    weight: dict[str, float],
) -> None:
    print(
        f"{options.registers} registers, {cited} citations, {options.files} files, checkout present"
    )
    print(
        f"cold mkdocs build (best of {options.repeat}): {cold[0]:.2f} s wall, {cold[1]:.2f} s cpu"
    )
    print(f"mkdocs serve --dirty, first build: {first:.2f} s")
    for kind, done in rebuilds.items():
        for n, (seconds, wall, cpu) in enumerate(done, 1):
            print(
                f"  rebuild {n} after editing an entry's {kind} in r000.yaml: {seconds:.2f} s"
                f" ({wall:.2f} s from the edit), {cpu:.2f} s cpu"
            )
        fastest = min(r[0] for r in done)
        least_cpu = min(r[2] for r in done)
        target = " (target: at most 0.15x)" if kind == "title" else ""
        print(
            f"ratio, {kind} edits: rebuild {fastest / cold[0]:.3f}x the cold build's wall,"
            f" {least_cpu / cold[1]:.3f}x its cpu, {fastest / first:.3f}x serve's first build"
            + target
        )
    print(
        f"register page HTML: {weight['page']:.0f} bytes per citation"
        f" (largest page {weight['largest page'] / 1024:.0f} KiB)"
    )
    inlined = weight["page"] + weight["excerpts"]
    print(
        "excerpt files (fetched when a reader opens one):"
        f" {weight['excerpts']:.0f} bytes per citation; a page holding its excerpts would"
        f" weigh {inlined:.0f}, so pages weigh {weight['page'] / inlined:.2f}x that"
        " (target: at most 0.33x)"
    )
    print(
        f"search index: {weight['index'] / 1024:.0f} KiB,"
        f" excerpt code lines in it: {weight['code in index']:.0f}"
    )


if __name__ == "__main__":
    main()

"""Benchmark: `mkdocs build` with the register plugin against a plain build of the same pages.

    python bench/build.py [--registers 100] [--citations 20000] [--files 2000] [--repeat 1]

Both sites use the same theme, plugins and Markdown extensions. The plain one builds the
pages `register render` wrote beforehand (with the same checkout, so it has the same
excerpts); the plugin one loads, verifies and renders the registers during the build. Both
run as child processes in this one run, timed by wall clock (best of --repeat). Target: the
plugin build within 1.5x of the plain one.

Since the excerpts left the pages (each register's excerpt file is highlighted once, by the
plugin or by `register render`, not by MkDocs while converting a page), a plain build copies
excerpt files `register render` already highlighted. So `register render` is timed too, and
the plugin build is compared with both the plain build alone and `register render` followed
by the plain build: the whole job of making the same site without the plugin. Each of these
runs starts without the excerpt cache (`.register/cache/excerpts/`); one more plugin build
keeps the cache the last one left, as a second build on the same machine (or a CI job that
restores the cache) would, which is the like of a plain build of pages whose excerpts are
already highlighted.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import best, site_config, synthetic_parser  # noqa: E402
from synthetic import generate  # noqa: E402

TAGS = "  - tags\n"
"""Material's tags plugin: the register pages carry their tags (`site.jinja`)."""


def prepare(root: Path, registers: int, citations: int, files: int) -> None:
    """The synthetic registers (with a public repo URL, so sources link), and both sites."""
    generate(root, registers, citations, files)
    sources = root / "registers" / "sources.yaml"
    text = sources.read_text().replace("repo: null", "repo: https://github.com/example/bench")
    sources.write_text(text)
    for docs in ("docs_plugin", "docs_plain"):
        (root / docs).mkdir()
        (root / docs / "index.md").write_text("# Bench\n\nThe [registers](registers/index.md).\n")
    plugin = site_config("bench", "docs_plugin", "  - register", plugins=TAGS)
    extra = (
        "extra_css: [assets/compat-register/register.css]\n"
        "extra_javascript: [assets/compat-register/register.js]"
    )
    plain = site_config("bench", "docs_plain", "", extra, plugins=TAGS)
    (root / "plugin.yml").write_text(plugin)
    (root / "plain.yml").write_text(plain)
    cli = "from compat_register.cli import main; main()"
    render = [sys.executable, "-c", cli, "render", "--out", "docs_plain"]
    subprocess.run(render, cwd=root, check=True, stdout=subprocess.DEVNULL)


def build(root: Path, config: str, repeat: int, cold: bool = True) -> tuple[float, float]:
    """Best wall time and best CPU time (user + sys) of `mkdocs build -f config`, in seconds;
    `cold`: each run without the excerpt cache an earlier run left (`forget_cache`).

    CPU time is printed too because it holds still when other work shares the machine.
    """
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", config, "-d", "site"]
    wall, _, cpu = best(command, env, repeat, cwd=root, before=forget_cache(root) if cold else None)
    return wall, cpu


def forget_cache(root: Path) -> list[str]:
    """The command that removes the cache (`.register/`, beside the registers folder) that
    a build or `register render` leaves: the highlighted excerpts among others."""
    return ["rm", "-rf", str(root / ".register")]


def main() -> None:
    args = synthetic_parser(__doc__.split("\n")[0], repeat=1).parse_args()
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
        prepare(root, args.registers, args.citations, args.files)
        rendered = render(root, args.repeat)
        plain = build(root, "plain.yml", args.repeat)
        plugin = build(root, "plugin.yml", args.repeat)
        warm = build(root, "plugin.yml", args.repeat, cold=False)
        pages = heaviest(root / "site")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{args.registers} registers, {args.citations} citations, {args.files} files")
    without = (rendered[0] + plain[0], rendered[1] + plain[1])
    rows = [
        ("register render (pages and excerpt files)", rendered),
        ("plain mkdocs build (pages from register render)", plain),
        ("render, then the plain build", without),
        ("mkdocs build with the register plugin", plugin),
        ("the same, excerpt cache kept", warm),
    ]
    print(f"{'':49} {'wall':>8} {'cpu':>8}")
    for name, (wall, cpu) in rows:
        print(f"{name + ':':49} {wall:6.2f} s {cpu:6.2f} s")
    comparisons = (
        ("plugin build to the plain build", plugin, plain),
        ("plugin build to render, then the plain build", plugin, without),
        ("plugin build, excerpt cache kept, to the plain build", warm, plain),
    )
    for name, build_time, base in comparisons:
        ratio = f"{build_time[0] / base[0]:.2f}x wall, {build_time[1] / base[1]:.2f}x cpu"
        print(f"{name}: {ratio} (target: within 1.5x)")
    print("heaviest pages of the plugin's site (target: about 1 MB at most):")
    for name, size in pages:
        print(f"  {size / 1024:8.0f} KiB  {name}")


def heaviest(site: Path, count: int = 5) -> list[tuple[str, int]]:
    """The `count` largest HTML pages of a built site, and the health page: (path, bytes)."""
    sizes = {p.relative_to(site).as_posix(): p.stat().st_size for p in site.rglob("*.html")}
    top = sorted(sizes.items(), key=lambda item: -item[1])[:count]
    health = "registers/health/index.html"
    if health in sizes and health not in dict(top):
        top.append((health, sizes[health]))
    return top


def render(root: Path, repeat: int) -> tuple[float, float]:
    """Best wall and CPU time of `register render` writing the plain site's pages."""
    cli = "from compat_register.cli import main; main()"
    command = [sys.executable, "-c", cli, "render", "--out", "docs_plain"]
    wall, _, cpu = best(command, dict(os.environ), repeat, cwd=root, before=forget_cache(root))
    return wall, cpu


if __name__ == "__main__":
    main()

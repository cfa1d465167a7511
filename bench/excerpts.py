"""Benchmark: what an excerpt costs, highlighted and read back from the excerpt cache.

    python bench/excerpts.py [--registers 100] [--citations 20000] [--files 2000] [--repeat 3]

Verifies the synthetic register set against its checkout and renders it, so that every
citation has its excerpt (the blocks a build highlights), then times in this one process,
best of --repeat, over the same excerpts:

- the Markdown route: each block converted by Python-Markdown with the site's extensions and
  cleaned (how every excerpt was made before issue 25: the baseline);
- `excerpts.Highlighter`: Pygments directly, one formatter for the site, each block cleaned;
- a build whose excerpts all come from the cache (`.register/cache/excerpts/`): the store
  read, and each block cleaned again, since the cache is not trusted as HTML (issue 20);
  beside it the same read without that cleaning, so the cost of distrust is its own line.

Target (issue 25): highlighting at most a fifth of the Markdown route; the cache's cleaning
a small part of a cached build.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import markdown  # noqa: E402
from common import best_call, synthetic_parser  # noqa: E402
from synthetic import generate  # noqa: E402

from compat_register import api  # noqa: E402
from compat_register.site import excerpts, sanitize  # noqa: E402
from compat_register.site import renderer as render  # noqa: E402
from compat_register.site.excerpts import ExcerptStore  # noqa: E402
from compat_register.site.extensions import MARKDOWN_EXTENSIONS  # noqa: E402


def cpu(action: Callable[[], object], repeat: int) -> float:
    """The least CPU time of `repeat` calls (the machine may be shared)."""
    return best_call(action, repeat, clock=time.process_time)


def markdown_route(files: dict[str, render.ExcerptFile]) -> None:
    """Every block as it was made before: a Markdown conversion each, then cleaned."""
    configs = {
        **MARKDOWN_EXTENSIONS,
        "pymdownx.highlight": {**MARKDOWN_EXTENSIONS["pymdownx.highlight"], "stripnl": False},
    }
    converter = markdown.Markdown(extensions=list(configs), extension_configs=configs)
    for file in files.values():
        for excerpt in file.excerpts:
            converter.reset()
            sanitize.clean_excerpt(converter.convert(excerpt.block.markdown()))


def main() -> None:
    args = synthetic_parser(__doc__.split("\n")[0]).parse_args()
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
        registers = generate(root, args.registers, args.citations, args.files)
        os.environ["REGISTER_SOURCE_CODE"] = str(root / "repo")
        result = api.verify_citations(registers, settings=api.Settings.read())
        renderer = render.Renderer(result.registers, result.outcomes)
        renderer.pages()
        files = renderer.excerpts
        count = sum(len(file.excerpts) for file in files.values())
        cache = root / "cache"
        rows = measure(files, cache, args.repeat)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(
        f"{count} excerpts in {len(files)} excerpt files"
        f" (CPU ms per excerpt, best of {args.repeat})"
    )
    base = rows[0][1]
    for name, seconds in rows:
        print(f"{name + ':':56} {seconds / count * 1000:7.3f} ms  {seconds / base:5.2f}x")


def measure(
    files: dict[str, render.ExcerptFile], cache: Path, repeat: int
) -> list[tuple[str, float]]:
    def store(settings: str) -> ExcerptStore:
        return ExcerptStore(cache, settings)

    excerpts.documents(files, excerpts.Highlighter(store=store))  # fills the cache
    trusting = sanitize.clean_excerpt
    cached = cpu(lambda: excerpts.documents(files, excerpts.Highlighter(store=store)), repeat)
    sanitize.clean_excerpt = lambda html: html  # the same read, trusting the cache
    try:
        trusted = cpu(lambda: excerpts.documents(files, excerpts.Highlighter(store=store)), repeat)
    finally:
        sanitize.clean_excerpt = trusting
    return [
        (
            "Markdown conversion per excerpt, cleaned (before)",
            cpu(lambda: markdown_route(files), repeat),
        ),
        (
            "Pygments directly, cleaned (excerpts.Highlighter)",
            cpu(lambda: excerpts.documents(files), repeat),
        ),
        ("from the cache, each block cleaned again", cached),
        ("from the cache, trusted as it is (not done)", trusted),
    ]


if __name__ == "__main__":
    main()

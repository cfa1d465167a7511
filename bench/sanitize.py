"""Benchmark: what the HTML safety costs beside converting the pages at all.

    python bench/sanitize.py [--registers 100] [--citations 20000] [--files 2000] [--repeat 3]

Renders the synthetic register set (offline), converts every page to HTML with
Python-Markdown and the site's extensions (the floor, measured in the same run), then times
`sanitize.clean` (nh3, what the plugin does to each page) and `sanitize.unexpected` (what
`register render` checks before writing) over the same HTML. Prints each as a ratio to the
conversion. Targets: cleaning within 0.25x of converting, the check within 1.5x.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from common import best_call, synthetic_parser  # noqa: E402
from synthetic import generate  # noqa: E402

from compat_register import api  # noqa: E402
from compat_register.site import renderer as render  # noqa: E402
from compat_register.site import sanitize  # noqa: E402


def main() -> None:
    args = synthetic_parser(__doc__.split("\n")[0]).parse_args()
    root = Path(tempfile.mkdtemp(prefix="register-bench-"))
    try:
        registers = generate(root, args.registers, args.citations, args.files)
        result = api.verify_citations(registers, offline=True)
        pages = list(render.Renderer(result.registers, result.outcomes).pages().values())
    finally:
        shutil.rmtree(root, ignore_errors=True)
    html = [sanitize.to_html(page) for page in pages]
    size = sum(len(page) for page in html) / 1e6
    convert = best_call(lambda: [sanitize.to_html(page) for page in pages], args.repeat)
    clean = best_call(lambda: [sanitize.clean(page) for page in html], args.repeat)
    check = best_call(lambda: [sanitize.unexpected(page) for page in html], args.repeat)
    print(f"{len(pages)} pages, {size:.1f} MB of HTML ({args.citations} citations)")
    print(f"{'Python-Markdown conversion (floor):':44} {convert:6.2f} s")
    print(f"{'nh3 clean (the plugin, every page):':44} {clean:6.2f} s  {clean / convert:.2f}x")
    print(f"{'unexpected() (register render check):':44} {check:6.2f} s  {check / convert:.2f}x")
    print("targets: clean within 0.25x, the check within 1.5x of the conversion")


if __name__ == "__main__":
    main()

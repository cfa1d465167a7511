"""bench/peers.py's real shape on a small Go repository: the register files it writes
verify, every citation ok, and the hand-written pages it builds them against hold the same
excerpts, so the benchmark times the same work both ways (a work whose citations fail
would time error pages, not the site)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gitrepo import GitRepo

BENCH = Path(__file__).parent.parent / "bench"

SCRIPT = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import peers
root, clone, commit = Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
work = peers.Work(root, 20, peers.real_source(clone, commit))
peers.write_registers(work)
peers.write_plain(work)
for path, start, end in work.cited[0][0]:
    print(path, start, end)
"""


def go_file(number: int) -> str:
    body = "".join(f"\tx{number}_{n} := call({n})\n" for n in range(40))
    return f"package p\n\nfunc f{number}() {{\n{body}}}\n"


def test_the_real_shape_verifies_and_matches_its_plain_pages(tmp_path: Path) -> None:
    clone = GitRepo(tmp_path / "clone")
    for number in range(3):
        clone.write(f"pkg/f{number}.go", go_file(number))
    clone.write("short.go", "package p\n")  # under 20 lines: never cited
    sha = clone.commit()
    root = tmp_path / "work"
    root.mkdir()
    args = [str(BENCH), str(root), str(clone.root), sha[:7]]
    done = subprocess.run([sys.executable, "-c", SCRIPT, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    verify = [Path(sys.executable).parent / "register", "verify", "--registers", "registers"]
    verified = subprocess.run(verify, cwd=root, capture_output=True, text=True)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith("80 citations: 80 ok,"), verified.stdout
    plain = (root / "docs_plain" / "p0000.md").read_text()
    for line in done.stdout.splitlines():
        path, start, end = line.split()
        number = int(path.removeprefix("pkg/f").removesuffix(".go"))
        assert f"`{path}:{start}" in plain
        cited = go_file(number).splitlines()[int(end) - 1].expandtabs(8).strip()
        assert cited in plain.expandtabs(8)

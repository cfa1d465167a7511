"""A built site served over HTTP for the browser tests, on a port the system picks: two
servers of parallel test workers never share one (a port found free, then bound by
another process, would serve one worker's site to the other's browser)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path


def served(site: Path) -> Iterator[str]:
    """The site in `site` served by `python -m http.server` on 127.0.0.1, port 0; yields its
    base URL, read from the line the server prints once it listens."""
    command = [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1"]
    with subprocess.Popen(
        command, cwd=site, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()  # Serving HTTP on 127.0.0.1 port N (http://...:N/) ...
            assert "(http://" in line, f"http.server did not start: {line!r}"
            yield line.split("(", 1)[1].split(")", 1)[0]
        finally:
            server.terminate()

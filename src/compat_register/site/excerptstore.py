"""Highlighted excerpts kept between builds: one JSON file per register under
`.register/cache/excerpts/<settings>/`, its excerpts' HTML by the digest of their block. A
file of other settings or library versions is ignored; one not written costs time only."""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..storage import makers, shape

VERSION = 2
"""Raised whenever what an excerpt's HTML holds changes in this package."""

SHAPE = shape.checker(
    shape.record({"settings": {"type": "string"}, "blocks": shape.strings({"type": "string"})})
)
"""What `ExcerptStore.write` writes: anything else is not used."""

MAKERS = ("compat-register", "pymdown-extensions", "pygments", "nh3")
"""The distributions whose version changes the HTML of an excerpt."""


def digest(block: str) -> str:
    """The key of a block in a register's file."""
    return hashlib.sha256(block.encode("utf-8")).hexdigest()


class ExcerptStore:
    """The excerpt files of one site's registers, for one highlighting's settings."""

    def __init__(self, folder: Path, settings: str) -> None:
        self.folder = folder
        self.settings = digest(f"{makers.made_by(VERSION, *MAKERS)}\n{settings}")
        """Which settings and libraries the stored HTML was made with."""
        self.dropped: list[str] = []
        """Each file read that was not used, as a line naming it (`shape.Cached`)."""

    def path(self, slug: str) -> Path:
        """`<folder>/<settings>/<slug>.json`: two highlightings never share a file."""
        return self.folder / self.settings[:16] / f"{slug}.json"

    def read(self, slug: str) -> dict[str, str]:
        """The register's stored excerpts by block digest (none when unusable)."""
        found = shape.read(self.path(slug), "settings", self.settings, SHAPE)
        if found.dropped is not None:
            self.dropped.append(found.dropped)
        return {} if found.data is None else dict(found.data["blocks"])

    def write(self, slug: str, blocks: dict[str, str]) -> str | None:
        """Store the register's excerpts (replacing what was stored); a message on failure."""
        data = {"settings": self.settings, "blocks": blocks}
        return shape.write(self.path(slug), data, "the excerpt cache")

"""Positions in a register file: the path to a value in its document, and a place to point at."""

from __future__ import annotations

from dataclasses import dataclass

Path_ = tuple[str | int, ...]
"""The keys and indexes leading to a value in a YAML document: `("entries", 3, "what")`."""


@dataclass(frozen=True, slots=True)
class Where:
    """A position in a register file, carried by everything a diagnostic can point at."""

    file: str
    line: int  # 1-based, as is col
    col: int

"""Register files for tests: the header every test register shares, entries added after it."""

from __future__ import annotations


def register_head(title: str = "Test", prefix: str = "T", subject: str = "up") -> str:
    """A valid register header ending in `entries:`, for a test to append its entries to."""
    return f"""title: {title}
prefix: {prefix}
description: A test register.
status: draft
created: 2026-01-01
last-updated: 2026-01-02
increment: 1
subject: {subject}
entries:
"""

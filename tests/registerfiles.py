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


def done_entry(sources: str, id: str = "T-01") -> str:
    """A done entry of a `register_head()` register citing `sources` (a YAML flow list)."""
    return f"""  - id: {id}
    title: One
    what: w.
    status: {{state: done}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: r.
    sources: {sources}
"""


REVISION_SOURCES = """revisions: [2024-11-05, 2025-06-18, 2025-11-25, draft]
sources:
  spec: {title: Spec, repo: null, commit: 1234567, claims: ['schema/**']}
  up: {title: Up, repo: null, commit: 89abcde, claims: ['internal/**']}
"""


def revision_entry(
    number: int,
    state: str = "missing",
    value: str = "low",
    effort: str = "S",
    revisions: str = "",
    cite: str = "internal/a.go:1",
    note: str = "",
    concept: str = "",
) -> str:
    """Entry T-NN of a `register_head()` register over `REVISION_SOURCES` (subject `up`)."""
    lines = [
        f"  - id: T-{number:02d}",
        f"    title: Entry {number}",
        "    what: w.",
        f"    status: {{state: {state}{', note: ' + repr(note) if note else ''}}}",
        f"    value: {{level: {value}}}",
        f"    effort: {{size: {effort}}}",
        f"    risk: Risk {number}.",
        f"    sources: [{cite}]",
    ]
    if revisions:
        lines.append(f"    revisions: {revisions}")
    if concept:
        lines.append(f"    concept: {concept}")
    return "\n".join(lines) + "\n"


GO_SOURCES = """revisions: [2025-06-18]
sources:
  go-sdk: {title: Go SDK, repo: null, commit: 3d6450fab12, claims: ['mcp/**']}
"""
"""One unpinned-checkout subject, the Go SDK, for conformance results to be recorded for."""

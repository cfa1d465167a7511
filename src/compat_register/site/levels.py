"""How a site build reports the problems of a register set: its log policy.

`register render` and the MkDocs plugin report through it alike, so a page engine with no
plugin and a strict MkDocs build fail on the same problems.
"""

from __future__ import annotations

from ..model.diagnostic import Diagnostic

QUIET = frozenset({"pending-reference", "source-unavailable"})
"""Diagnostic codes a site reports at info level: expected while a register is pending or
no checkout of a source is present, none named nor synced (its citations then show as
unverified). A checkout that is named (`path:`, `REGISTER_SOURCE_<ALIAS>`) or synced but
does not hold the pinned commit is `checkout-lacks-pin`, an error like any other."""


def site_level(diagnostic: Diagnostic) -> str:
    """How a site build reports a diagnostic: `info`, `warning` or `error`."""
    if diagnostic.code in QUIET:
        return "info"
    if diagnostic.code.startswith("citation-"):
        return "warning"  # stale: `register verify` fails on it; a site shows it and warns
    return "error" if diagnostic.severity == "error" else "warning"

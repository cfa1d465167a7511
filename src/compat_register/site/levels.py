"""How a site build reports the problems of a register set: its log policy.

`register render` and the MkDocs plugin report through it alike, so a page engine with no
plugin and a strict MkDocs build fail on the same problems. The level of each code is the
catalogue's (`model.codes`): a stale citation is a warning on a site (`register verify`
fails on it), and what is expected while a register is pending or no checkout of a source
is present, none named nor synced, is said at info level (its citations then show as
unverified). A checkout that is named (`path:`, `REGISTER_SOURCE_<ALIAS>`) or synced but
does not hold the pinned commit is `checkout-lacks-pin`, an error like any other.
"""

from __future__ import annotations

from ..model.codes import CODES, Level
from ..model.diagnostic import Diagnostic


def run_notice(diagnostic: Diagnostic) -> bool:
    """Whether a diagnostic is said of the run as a whole (the catalogue's `run`: no Changes
    page and why, a cache not written), which a site build says as its message alone."""
    code = CODES.get(diagnostic.code)
    return code is not None and code.run


def site_level(diagnostic: Diagnostic) -> Level:
    """How a site build reports a diagnostic: `info`, `warning` or `error`: the catalogue's
    level for its code, else its own severity."""
    code = CODES.get(diagnostic.code)
    return code.site if code is not None and code.site is not None else diagnostic.severity

"""How a site build reports a diagnostic: the catalogue's (`model.codes`) level for its
code, so `register render` and a strict MkDocs build fail on the same problems. A stale
citation is a warning on a site; what is expected (a pending register, no checkout) is info.
"""

from __future__ import annotations

from ..model.codes import CODES, Level
from ..model.diagnostic import Diagnostic


def run_notice(diagnostic: Diagnostic) -> bool:
    """Whether a diagnostic is said of the run as a whole (the catalogue's `run`)."""
    code = CODES.get(diagnostic.code)
    return code is not None and code.run


def site_level(diagnostic: Diagnostic) -> Level:
    """The catalogue's site level for a diagnostic's code, else its own severity."""
    code = CODES.get(diagnostic.code)
    return code.site if code is not None and code.site is not None else diagnostic.severity

"""The public API: one function per command, each returning data and diagnostics.

`cli` prints what these return and `plugin` renders it; neither holds logic. One module per
family of commands (`loading`, `rewriting`, `measuring`, `publishing`, `authoring`,
`comparing`, `recording`) and what the shells need besides (`shellsupport`); the shells
import this package alone, and the names below are the whole of it.
"""

import importlib
from typing import TYPE_CHECKING

from ..model.diagnostic import Diagnostic as Diagnostic
from ..site.urls import ASSET_DIR as ASSET_DIR
from ..site.urls import Layout as Layout
from ..site.values import ExtensionConflict as ExtensionConflict
from ..site.values import Site as Site
from ..site.values import SiteOptions as SiteOptions
from ..site.values import TemplateProblem as TemplateProblem
from ..storage.errors import RegisterError as RegisterError
from ..storage.settings import REGISTERS_VARIABLE as REGISTERS_VARIABLE
from ..storage.settings import Settings as Settings
from .loading import Checked as Checked
from .loading import Verified as Verified
from .loading import Waiting as Waiting
from .loading import check as check
from .loading import verify_citations as verify_citations
from .loading import writer as writer
from .rewriting import Bumped as Bumped
from .rewriting import Fixed as Fixed
from .rewriting import Stamped as Stamped
from .rewriting import Synced as Synced
from .rewriting import UnknownID as UnknownID
from .rewriting import bump as bump
from .rewriting import fix as fix
from .rewriting import stamp as stamp
from .rewriting import sync as sync
from .shellsupport import DEFAULT_REGISTERS as DEFAULT_REGISTERS
from .shellsupport import refuse_links_under as refuse_links_under
from .shellsupport import registers_folder as registers_folder
from .shellsupport import write_files as write_files

if TYPE_CHECKING:  # at run time, `__getattr__` imports these when first used
    from .authoring import Imports as Imports
    from .authoring import InitError as InitError
    from .authoring import Initialised as Initialised
    from .authoring import cite as cite
    from .authoring import cite_grep as cite_grep
    from .authoring import import_pages as import_pages
    from .authoring import init as init
    from .comparing import Matrixed as Matrixed
    from .comparing import matrix as matrix
    from .measuring import Covered as Covered
    from .measuring import UnknownRevision as UnknownRevision
    from .measuring import coverage as coverage
    from .measuring import site_coverage as site_coverage
    from .publishing import PlainPages as PlainPages
    from .publishing import build_site as build_site
    from .publishing import clean_html as clean_html
    from .publishing import complete_extensions as complete_extensions
    from .publishing import diff as diff
    from .publishing import history as history
    from .publishing import render_plain as render_plain
    from .publishing import site_edit_url as site_edit_url
    from .publishing import site_log as site_log
    from .publishing import site_watched as site_watched
    from .publishing import write_site as write_site
    from .recording import Imported as Imported
    from .recording import Recorded as Recorded
    from .recording import UnknownSubject as UnknownSubject
    from .recording import import_results as import_results
    from .recording import recorded as recorded
    from .recording import with_conformance as with_conformance

LATER = {
    "authoring": (
        "Imports",
        "InitError",
        "Initialised",
        "cite",
        "cite_grep",
        "import_pages",
        "init",
    ),
    "comparing": ("Matrixed", "matrix"),
    "measuring": ("Covered", "UnknownRevision", "coverage", "site_coverage"),
    "publishing": (
        "PlainPages",
        "build_site",
        "clean_html",
        "complete_extensions",
        "diff",
        "history",
        "render_plain",
        "site_edit_url",
        "site_log",
        "site_watched",
        "write_site",
    ),
    "recording": (
        "Imported",
        "Recorded",
        "UnknownSubject",
        "import_results",
        "recorded",
        "with_conformance",
    ),
}
"""The families of commands imported when one of their names is first used (PEP 562): each
loads stages (the site's, conformance's, importing's) that `check` and `verify` never run."""
_HOME = {name: module for module, names in LATER.items() for name in names}


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)

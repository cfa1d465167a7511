"""The public API: one function per command, each returning data and diagnostics.

`cli` prints what these return and `plugin` renders it; the names below are the whole of it.
"""

import importlib
from typing import TYPE_CHECKING

from ..model.diagnostic import Diagnostic
from ..reading.projectdir import DEFAULT as DEFAULT_REGISTERS
from ..reading.projectdir import registers_folder
from ..storage.errors import RegisterError
from ..storage.settings import REGISTERS_VARIABLE, Settings
from .loading import (
    Checked,
    Verified,
    Waiting,
    check,
    refuse_links_under,
    verify_citations,
    write_files,
    writer,
)
from .rewriting import Bumped, Fixed, Stamped, Synced, UnknownID, bump, fix, stamp, sync

LATER = {
    ".authoring": "Imports InitError Initialised cite cite_grep import_pages init",
    ".comparing": "Matrixed matrix",
    ".measuring": "Covered Imported Recorded Scored UnknownRevision UnknownSubject coverage "
    "import_results recorded scores with_conformance",
    ".publishing": "PlainPages build_site clean_html complete_extensions diff history keep_reads "
    "render_plain site_edit_url site_log site_watched write_site",
    "..site.urls": "ASSET_DIR Layout",
    "..site.values": "ExtensionConflict Site SiteOptions TemplateProblem",
}
"""The families (and the site's values) imported when one of their names is first used (PEP
562): each loads stages (the site's, conformance's, importing's) that `check` and `verify`,
run most, never need."""
_HOME = {name: module for module, names in LATER.items() for name in names.split()}

if TYPE_CHECKING:  # the same names, for mypy
    from ..site.urls import ASSET_DIR, Layout
    from ..site.values import ExtensionConflict, Site, SiteOptions, TemplateProblem
    from .authoring import *  # noqa: F403
    from .comparing import *  # noqa: F403
    from .measuring import *  # noqa: F403
    from .publishing import *  # noqa: F403


def __getattr__(name: str) -> object:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name], __name__), name)

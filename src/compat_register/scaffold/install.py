"""The line of requirements.txt that installs compat-register as this copy was: from where
pip's PEP 610 `direct_url.json` says (importlib.metadata reads it only from Python 3.13),
else the registry version; each with a comment on what CI needs for it."""

from __future__ import annotations

import json
from importlib import metadata
from typing import Any
from urllib.parse import unquote, urlsplit

NAME = "compat-register"


def requirement() -> str:
    """requirements.txt's lines for this installed copy (comment, then the requirement)."""
    try:
        dist = metadata.distribution(NAME)
    except metadata.PackageNotFoundError:  # running from a source tree that was not installed
        return _lines("not installed: give the version or URL you install it from", NAME)
    try:
        direct = json.loads(dist.read_text("direct_url.json") or "null")
    except ValueError:
        direct = None
    valid = isinstance(direct, dict) and isinstance(direct.get("url"), str)
    return install_lines(dist.version, direct if valid else None)


def install_lines(version: str, direct: dict[str, Any] | None) -> str:
    """The requirement, with its comment, for `version` installed from `direct` (PEP 610's
    `direct_url.json`; None for a registry)."""
    if direct is None:
        return _lines(f"{NAME} {version}, as installed from a package index", f"{NAME}=={version}")
    url = direct["url"]
    vcs = direct.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
        commit, said = vcs.get("commit_id"), vcs.get("requested_revision")
        at = f"@{commit}" if isinstance(commit, str) and commit else ""
        asked = f" (asked for {said})" if isinstance(said, str) and said else ""
        why = f"{NAME} {version} from {vcs['vcs']}, at the commit installed{asked}"
        return _lines(why, f"{NAME} @ {vcs['vcs']}+{url}{at}")
    local = urlsplit(url).scheme == "file"
    shown = unquote(urlsplit(url).path) if local else url
    if isinstance(direct.get("dir_info"), dict):
        editable = " (installed editable)" if direct["dir_info"].get("editable") else ""
        why = f"{NAME} {version} from the folder {shown}{editable}"
        return _lines(why, f"{NAME} @ {url}", "folder" if local else None)
    why = f"{NAME} {version} from the archive {shown}"
    return _lines(why, f"{NAME} @ {url}", "file" if local else None)


def _lines(why: str, requirement: str, local: str | None = None) -> str:
    """The comment, a note when the requirement is a `local` file or folder CI must have,
    and the requirement."""
    comments = [f"# The tools CI installs (.github/workflows/registers.yml): {why}."]
    if local:
        comments.append(
            f"# A {local} on this machine: CI has it only when it is in this repository (then "
            "name it here by its path from the project's root) or install from a URL CI can reach."
        )
    return "\n".join([*comments, requirement]) + "\n"

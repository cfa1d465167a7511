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
    return install_lines(dist.version, _direct_url(dist.read_text("direct_url.json")))


def _direct_url(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) and isinstance(data.get("url"), str) else None


def install_lines(version: str, direct: dict[str, Any] | None) -> str:
    """The requirement, with its comment, for `version` installed from `direct` (PEP 610's
    `direct_url.json`; None for a registry)."""
    if direct is None:
        return _lines(f"{NAME} {version}, as installed from a package index", f"{NAME}=={version}")
    url = direct["url"]
    vcs = direct.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
        commit = vcs.get("commit_id")
        at = f"@{commit}" if isinstance(commit, str) and commit else ""
        said = vcs.get("requested_revision")
        asked = f" (asked for {said})" if isinstance(said, str) and said else ""
        why = f"{NAME} {version} from {vcs['vcs']}, at the commit installed{asked}"
        return _lines(why, f"{NAME} @ {vcs['vcs']}+{url}{at}")
    local = urlsplit(url).scheme == "file"
    if isinstance(direct.get("dir_info"), dict):
        editable = " (installed editable)" if direct["dir_info"].get("editable") else ""
        why = f"{NAME} {version} from the folder {_path(url)}{editable}"
        return _lines(why, f"{NAME} @ {url}", _ci_note(local, "folder"))
    why = f"{NAME} {version} from the archive {_path(url) if local else url}"
    return _lines(why, f"{NAME} @ {url}", _ci_note(local))


def _path(url: str) -> str:
    return unquote(urlsplit(url).path) if urlsplit(url).scheme == "file" else url


def _ci_note(local: bool, what: str = "file") -> str | None:
    """What CI needs of a `file:` requirement: the file (or folder) at a path it has."""
    if not local:
        return None
    return (
        f"A {what} on this machine: CI has it only when it is in this repository (then name "
        f"it here by its path from the project's root) or install from a URL CI can reach."
    )


def _lines(why: str, requirement: str, note: str | None = None) -> str:
    comments = [f"# The tools CI installs (.github/workflows/registers.yml): {why}."]
    if note:
        comments.append(f"# {note}")
    return "\n".join([*comments, requirement]) + "\n"

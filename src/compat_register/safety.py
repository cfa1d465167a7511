"""What may be handed to git: repository locations, commits and paths written by users.

Pure checks, shared by validation (which needs no git) and the git layer, so that a value
rejected by `register check` is the same value `register sync` refuses to run.
"""

from __future__ import annotations

import re

_HEX = re.compile(r"[0-9a-fA-F]{7,40}\Z")
_SCP = re.compile(r"[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^:]")
_TRANSPORT = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*::")


def check_repo_url(url: str) -> str | None:
    """An error message unless `url` is https://, ssh://, scp-like, or a local path."""
    if not url or any(c in url for c in "\n\r\0"):
        return "repository location is empty or holds a control character"
    if url.startswith("-"):
        return f"repository location '{url}' starts with '-', which git would read as an option"
    if _TRANSPORT.match(url):
        return f"repository location '{url}' uses a git transport helper; use https, ssh or a path"
    scheme = url.split("://", 1)[0].lower() if "://" in url else None
    if scheme in ("https", "ssh", "file") or (scheme is None and not _looks_like_url(url)):
        return None
    if scheme is None and _SCP.match(url):
        return None
    return f"repository location '{url}' is not https://, ssh:// or a local path"


def _looks_like_url(url: str) -> bool:
    return ":" in url.split("/", 1)[0] and not _SCP.match(url)


def check_commit(commit: str) -> str | None:
    """An error message unless `commit` is 7 to 40 hex digits."""
    if _HEX.match(commit):
        return None
    return f"commit '{commit}' is not 7 to 40 hex digits"


def check_repo_path(path: str) -> str | None:
    """An error message unless `path` is a plain path inside a repository."""
    if not path or any(c in path for c in "\n\r\0\\"):
        return f"path '{path}' is empty or holds a control character or backslash"
    if path.startswith(("/", "-")):
        return f"path '{path}' must be relative to the repository root and not start with '-'"
    if ".." in path.split("/"):
        return f"path '{path}' leaves the repository ('..')"
    return None

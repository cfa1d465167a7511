"""What may be handed to git: repository locations, commits and paths written by users;
one check for validation and the git layer, so `check` rejects what `sync` refuses."""

from __future__ import annotations

import re
from functools import lru_cache

_HEX = re.compile(r"[0-9a-fA-F]{7,40}")
SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/]*)")
"""A URL's scheme and authority."""
# git hands `<helper>::<address>` to the program git-remote-<helper> (`ext::` runs a command).
_TRANSPORT = re.compile(r"[A-Za-z0-9+.-]*::")
_SCHEMES = ("https", "ssh", "file")
# Path segments of ordinary characters, none of them '.' or '..' nor starting with '-'.
_PLAIN_PATH = re.compile(
    r"(?!-)(?!\.\.?(?:/|$))[\w.@+=,~ -]+(?:/(?!-)(?!\.\.?(?:/|$))[\w.@+=,~ -]+)*"
)


def check_repo_url(url: str) -> str | None:
    """Why `url` is not an https://, ssh://, scp-like or local repo location, or None."""
    if not url:
        return "repo URL is empty"
    scheme = SCHEME.match(url)
    name = scheme.group(1) if scheme else None
    authority = (scheme.group(2) if scheme else scp_host(url)) or ""
    problems = (
        (any(c in url for c in "\n\r\0"), " holds a newline or NUL"),
        (url.startswith("-"), " starts with '-', which git would read as an option"),
        (_TRANSPORT.match(url), " names a git transport ('...::'); use https, ssh or a path"),
        (name not in (None, *_SCHEMES), f": '{name}://' is not allowed; use https, ssh or a path"),
        # ssh would read a user or host starting with '-' as an option (CVE-2017-1000117).
        (authority.startswith("-") or "@-" in authority, " has a user or host starting with '-'"),
        (name not in (None, "file") and not authority, " has no host"),
    )
    return next((f"repo URL {url!r}{text}" for bad, text in problems if bad), None)


def scp_host(url: str) -> str | None:
    """The `user@host` of an scp-like URL (a ':' before any '/'), None for a local path."""
    head, colon, _ = url.partition(":")
    return head if colon and "/" not in head else None


def is_local_path(repo: str) -> bool:
    """Whether git reads a repo location as a path here: not `scheme://`, not `host:path`."""
    return not SCHEME.match(repo) and scp_host(repo) is None


def check_commit(commit: str) -> str | None:
    """Error message unless `commit` is 7..40 hex digits."""
    return None if _HEX.fullmatch(commit) else f"commit {commit!r} is not 7 to 40 hex digits"


@lru_cache(maxsize=65536)  # pure, and asked about each cited path at every stage of a run
def check_repo_path(path: str) -> str | None:
    """Error unless a safe, canonical repository-relative path."""
    if _PLAIN_PATH.fullmatch(path):  # the quick answer for nearly every path
        return None
    problems = (
        (not path, "is empty"),
        (any(c in path for c in "\n\r\0"), "holds a newline or NUL"),
        ("\\" in path, "holds a backslash"),
        (path.startswith("/"), "is absolute"),
        (path.startswith("-"), "starts with '-'"),
        (".." in path.split("/"), "has a '..' segment"),
    )
    if found := next((f"path {path!r} {text}" for bad, text in problems if bad), None):
        return found
    # Not the one way git names it (`./a`, `a//b`): git's reader may take it relative to
    # where it runs, or end on it for every other path of the source.
    segments = path.split("/")
    if "." not in segments and "" not in segments:
        return None
    canonical = "/".join(segment for segment in segments if segment not in ("", "."))
    return f"path {path!r} is not canonical: write {canonical or 'a file path'!r}"

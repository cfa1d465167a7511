"""The git layer's own checks of what reaches git (full shas, revision and ref names,
aliases; `checking.safety` has those `register check` shares): each `check_` returns the
problem in one line or None; `require` raises it.
"""

from __future__ import annotations

import re

from .git import GitSourceError

FULL_SHA = re.compile(r"[0-9a-f]{40}")
_ALIAS = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")  # a folder's name: bounded
# A branch or tag name as `bump` fetches it: no refspec syntax (':', '+', '*', '^'), no option.
_REF = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)*")


def require(problem: str | None) -> None:
    """Raise the problem a check found, if any."""
    if problem is not None:
        raise GitSourceError(problem)


def require_sha(sha: str) -> None:
    """Refuse anything but a full lowercase sha (so git never reads it as an option)."""
    if not FULL_SHA.fullmatch(sha):
        raise GitSourceError(f"{sha!r} is not a full lowercase commit sha")


def check_rev(rev: str) -> str | None:
    """Error unless `rev` fits on one line of `cat-file --batch`'s input."""
    # cat-file --batch reads one name per line: a newline would start a second request.
    if not rev or len(rev) > 256 or any(c in rev for c in "\n\r\0"):
        return f"revision {rev!r} is empty, too long, or holds a newline or NUL"
    return None


def check_ref(ref: str) -> str | None:
    """Error unless `ref` is HEAD or a plain branch or tag name (it goes into a refspec)."""
    if _REF.fullmatch(ref) and ".." not in ref and not ref.endswith((".lock", "/", ".")):
        return None
    return f"{ref!r} is not a branch or tag name"


def check_alias(alias: str) -> str | None:
    """Error unless `alias` is a plain name, fit to name a folder of the cache."""
    return None if _ALIAS.fullmatch(alias) else f"source alias {alias!r} is not a plain name"

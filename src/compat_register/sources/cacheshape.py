"""Whether a cached repository is one `register sync` made (`foreign` says why not): only
the files git writes into a bare repository it fetches into, a config of the tool's own
keys, no link or special file. A planted one is never read; the next sync fetches anew.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import git
from .git import GitSourceError

MADE = frozenset(
    {"HEAD", "config", "objects", "refs", "packed-refs", "shallow", "FETCH_HEAD"}
    | {"logs", "gc.log", "gc.pid"}  # what git's reflogs and automatic gc may add
)
"""What a repository `git init --bare --template=` made holds once fetched into."""

CONFIG = frozenset(
    {"core.repositoryformatversion", "core.filemode", "core.bare", "remote.origin.url"}
    | {"core.ignorecase", "core.precomposeunicode", "core.symlinks"}  # as the disk needs
)
"""The config keys `git init --bare` and the tool (`remote.origin.url`) write."""

ELSEWHERE = ("objects/info/alternates", "objects/info/http-alternates")
"""Files that make git read objects from another repository."""


def foreign(repo_dir: Path) -> str | None:
    """Why the repository at `repo_dir` is not one the tool made (a few words after its
    path: "is a symbolic link ..."), or None when it is."""
    if os.path.islink(repo_dir):
        return f"is a symbolic link (to {os.readlink(repo_dir)!r})"
    if not os.path.isdir(repo_dir):
        return "is not a folder"
    names = set(os.listdir(repo_dir))
    if not {"HEAD", "config", "objects", "refs"} <= names:
        return "is not a git repository"
    odd = sorted(names - MADE)
    if odd:
        return f"holds {', '.join(odd[:4])}, which register sync never writes"
    borrowed = next((name for name in ELSEWHERE if os.path.lexists(repo_dir / name)), None)
    if borrowed:
        return f"holds {borrowed}, which register sync never writes"
    special = _not_plain(repo_dir)
    if special:
        return f"holds {special}, a symbolic link or special file"
    keys = _config_keys(repo_dir)
    if keys is None:
        return "has a config git cannot read"
    unknown = sorted(keys - CONFIG)
    if unknown:
        return f"sets {unknown[0]} in its config, which register sync never writes"
    return None


def _not_plain(folder: Path) -> str | None:
    """The first entry under `folder` that is neither a plain file nor a folder (a link,
    a FIFO, a device), as a path from `folder`; links are not followed."""
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                inner = _not_plain(Path(entry.path))
                if inner:
                    return f"{entry.name}/{inner}"
            elif not entry.is_file(follow_symlinks=False):
                return entry.name
    return None


def _config_keys(repo_dir: Path) -> set[str] | None:
    """The keys the repository's own config file sets (its includes not followed, and
    listed as keys), None when git cannot read it."""
    try:
        out = git.run(["config", "--file", str(repo_dir / "config"), "--list", "-z", "--name-only"])
    except GitSourceError:
        return None
    return {git.text(key) for key in out.split(b"\0") if key}

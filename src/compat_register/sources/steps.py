"""The history between two pins as git tells it, one `git` per call: the first-parent
commits and what each did to files, and their hunks (`following.follow` walks them)."""

from __future__ import annotations

from collections.abc import Collection

from ..checking.safety import check_repo_path
from .checkout import Checkout
from .diffs import (
    CHANGES_FORMAT,
    RECORD_FORMAT,
    Changes,
    Hunk,
    parse_changes_log,
    parse_files,
    parse_hunks,
    parse_patch_log,
)
from .git import GitSourceError

# The parse must not depend on the user's config: no colour, external diff or textconv, the
# `a/` and `b/` prefixes whatever diff.noprefix says, and --text so that a `-diff` attribute
# does not turn hunks into "Binary files differ".
_PLAIN = (
    *("--no-color", "--no-ext-diff", "--no-textconv", "--text"),
    *("--src-prefix=a/", "--dst-prefix=b/"),
)
_FIRST_PARENT = ("--first-parent", "--diff-merges=first-parent")
_MOST_COMMITS = 20_000  # beyond this many, the range is followed as one diff
_DIFF = ("diff", "--unified=0", "--no-renames", *_PLAIN)


def first_parent_steps(checkout: Checkout, old: str, new: str) -> list[Changes] | None:
    """The commits after `old` up to `new` along first parents, oldest first, with what each
    did to files; None when the chain does not lead back to `old` (then: one diff)."""
    try:
        text = checkout.run_git(
            "log", *_FIRST_PARENT, "--reverse", "--raw", "-M", "--no-abbrev", *_PLAIN,
            CHANGES_FORMAT, f"--max-count={_MOST_COMMITS}", f"{old}..{new}", "--",
        )  # fmt: skip
    except GitSourceError:
        return None
    steps = parse_changes_log(text)
    if not steps or steps[0].parent != old or steps[-1].sha != new:
        return None
    return steps


def range_step(checkout: Checkout, old: str, new: str, *paths: str) -> Changes:
    """One step from `old` to `new`: what a single `git diff -M` says changed (to `paths`)."""
    text = checkout.run_git("diff", "--raw", "-M", "--no-abbrev", *_PLAIN, old, new, "--", *paths)
    return Changes(old, new).read_raw(text.split("\n"))


def step_hunks(
    checkout: Checkout, steps: list[Changes], paths: Collection[str], *, commits: bool
) -> dict[str, dict[str, list[Hunk]]]:
    """{step's sha: {path: hunks}} of each modified file among `paths` (renames: `pair_hunks`):
    one `git log -p` when the steps are `commits`, else one `git diff` per step."""
    wanted = sorted(p for p in paths if check_repo_path(p) is None)
    if not wanted or not steps:
        return {}
    if not commits:
        return {
            step.sha: _modified(checkout.run_git(*_DIFF, step.parent, step.sha, "--", *wanted))
            for step in steps
        }
    text = checkout.run_git(
        "log", *_FIRST_PARENT, "--full-history", "-p", *_DIFF[1:], RECORD_FORMAT,
        f"{steps[0].parent}..{steps[-1].sha}", "--", *wanted,
    )  # fmt: skip
    return {sha: _modified(patch) for sha, patch in parse_patch_log(text).items()}


def _modified(diff: str) -> dict[str, list[Hunk]]:
    return {path: hunks for path, (hunks, _) in parse_files(diff).items() if hunks}


def pair_hunks(checkout: Checkout, old_blob: str, new_blob: str) -> list[Hunk]:
    """The hunks of `git diff --unified=0` between two blobs (a renamed file's two sides)."""
    if old_blob == new_blob:
        return []
    return parse_hunks(checkout.run_git("diff", "--unified=0", *_PLAIN, old_blob, new_blob))


def pair_score(checkout: Checkout, step: Changes, old_path: str, new_path: str) -> int:
    """How similar git's rename detection finds `old_path` and `new_path` in `step`, in
    percent; 0 when it would not pair them."""
    if check_repo_path(old_path) or check_repo_path(new_path):
        return 0
    found = range_step(checkout, step.parent, step.sha, old_path, new_path).renamed.get(old_path)
    return found[1] if found is not None and found[0] == new_path else 0


def written_lines(
    checkout: Checkout, step: Changes
) -> dict[str, tuple[list[Hunk], dict[int, str]]]:
    """{path: (hunks, {line: text})} of the lines `step` added to each file (renames not
    paired), to find where deleted lines went."""
    files = parse_files(checkout.run_git(*_DIFF, step.parent, step.sha))
    return {path: found for path, found in files.items() if found[0]}


def files_holding(checkout: Checkout, sha: str, text: str) -> list[str]:
    """The files of commit `sha` holding `text` on one line (`git grep -F`): whether a text
    is a block's own or boilerplate."""
    if not text or "\n" in text:
        return []
    try:
        out = checkout.run_git("grep", "-l", "-F", "-I", "-e", text, sha, "--")
    except GitSourceError:  # git grep exits 1 when nothing matches
        return []
    prefix = f"{sha}:"
    return [line.removeprefix(prefix) for line in out.split("\n") if line]

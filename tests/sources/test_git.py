"""The git layer (checkouts, the cache, where sources are) against real repositories
built in tmp dirs (no git mocks)."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commands import HANG_GUARD
from compat_register.checking.safety import check_commit, check_repo_path, check_repo_url
from compat_register.model.positions import Where
from compat_register.model.registers import Source
from compat_register.sources import git
from compat_register.sources import sourcecache as caching
from compat_register.sources.checkout import (
    CHUNK,
    CHUNK_BYTES,
    Checkout,
    _plain_git_dir,
    chunks,
    text_of,
)
from compat_register.sources.diffs import first_parent_steps, pair_hunks, range_step, step_hunks
from compat_register.sources.filetext import FileText
from compat_register.sources.git import GitSourceError
from compat_register.sources.pins import checkout_places
from compat_register.sources.sourcecache import SourceCache
from compat_register.storage.layout import Paths
from compat_register.storage.settings import Settings
from gitrepo import EPOCH, GitRepo, git_env


@pytest.fixture(autouse=True)
def _quiet_git_config(monkeypatch: pytest.MonkeyPatch) -> None:
    """The git the runner starts reads no user or system config either."""
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)


@pytest.fixture
def src(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "src")


def one_line(exc: pytest.ExceptionInfo[GitSourceError]) -> str:
    message = str(exc.value)
    assert message and "\n" not in message and "Traceback" not in message
    return message


# --- input checks -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/modelcontextprotocol/modelcontextprotocol",
        "ssh://git@github.com/owner/repo.git",
        "ssh://git@[::1]:2222/repo.git",
        "git@github.com:owner/repo.git",
        "file:///srv/git/repo.git",
        "/srv/git/repo",
        "../mcpx",
        "mcpx",
        "./odd:name",
    ],
)
def test_accepted_repo_urls(url: str) -> None:
    assert check_repo_url(url) is None


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("ext::sh -c touch% /tmp/pwned", "transport"),
        ("fd::17", "transport"),
        ("::x", "transport"),
        ("http://example.com/repo", "'http://' is not allowed"),
        ("git://example.com/repo", "'git://' is not allowed"),
        ("HTTPS://example.com/repo", "not allowed"),
        ("-uhack", "starts with '-'"),
        ("--upload-pack=touch x", "starts with '-'"),
        ("https://example.com/a\nb", "newline"),
        ("/srv/repo\0", "NUL"),
        ("ssh://-oProxyCommand=touch%20x/repo", "starting with '-'"),
        ("-oProxyCommand=x:repo", "starts with '-'"),
        ("git@-oProxyCommand=x:repo", "starting with '-'"),
        ("https:///repo", "no host"),
        ("", "empty"),
    ],
)
def test_rejected_repo_urls(url: str, says: str) -> None:
    message = check_repo_url(url)
    assert message is not None and says in message and "\n" not in message


@pytest.mark.parametrize("commit", ["05c78b2", "B0F60BA5409DB7A6582440A7B473CC0398890F15"])
def test_accepted_commits(commit: str) -> None:
    assert check_commit(commit) is None


@pytest.mark.parametrize(
    "commit", ["", "05c78b", "g5c78b2", "05c78b2\n", "a" * 41, "--upload-pack=touch x", "HEAD"]
)
def test_rejected_commits(commit: str) -> None:
    message = check_commit(commit)
    assert message is not None and "7 to 40 hex" in message and "\n" not in message


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("", "empty"),
        ("/etc/passwd", "absolute"),
        ("../../etc/passwd", "'..'"),
        ("docs/../../x", "'..'"),
        ("--output=/tmp/x", "starts with '-'"),
        ("a\\b", "backslash"),
        ("a\nb", "newline"),
        ("a\0b", "NUL"),
    ],
)
def test_rejected_paths(path: str, says: str) -> None:
    message = check_repo_path(path)
    assert message is not None and says in message and "\n" not in message


def test_accepted_paths() -> None:
    assert check_repo_path("docs/specification/2025-06-18/basic/index.mdx") is None
    assert check_repo_path("a/..b/c..d/.hidden") is None


# --- Checkout -----------------------------------------------------------------------------


def test_read_lines_at_two_commits(src: GitRepo) -> None:
    src.write("docs/a.md", "one\ntwo\n")
    first = src.commit()
    src.write("docs/a.md", "zero\none\r\ntwo\n\nlast, no newline \xe9")
    second = src.commit()
    with Checkout(src.root) as checkout:
        assert checkout.read_text(first, "docs/a.md") == ["one", "two"]
        assert checkout.read_text(second, "docs/a.md") == [
            "zero",
            "one",
            "two",
            "",
            "last, no newline \xe9",
        ]


def test_lines_split_on_newline_only_and_decode_with_replacement(src: GitRepo) -> None:
    src.write("a.txt", b"form\x0cfeed\x1cfs \xe2\x80\xa8 ls\nbad \xff byte\n")
    sha = src.commit()
    with Checkout(src.root) as checkout:
        assert checkout.read_text(sha, "a.txt") == [
            "form\x0cfeed\x1cfs \u2028 ls",
            "bad \ufffd byte",
        ]


def test_empty_file_has_no_lines(src: GitRepo) -> None:
    src.write("empty", "")
    sha = src.commit()
    with Checkout(src.root) as checkout:
        assert checkout.read_text(sha, "empty") == []


def test_missing_file_and_directory_are_none(src: GitRepo) -> None:
    src.write("docs/a.md", "one\n")
    first = src.commit()
    src.write("docs/b.md", "b\n")
    second = src.commit()
    with Checkout(src.root) as checkout:
        assert checkout.read_text(first, "docs/b.md") is None
        assert checkout.read_text(second, "docs/b.md") == ["b"]
        assert checkout.read_text(second, "docs") is None
        assert checkout.read_text(second, "docs/a.md/x") is None
        assert checkout.read_text(second, "docs/a.md") == ["one"]  # still in sync after misses


def test_binary_file_is_an_error(src: GitRepo) -> None:
    src.write("logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    src.write("late.bin", b"x" * 8000 + b"\0")  # NUL past git's 8000 bytes: text
    sha = src.commit()
    with Checkout(src.root) as checkout:
        for _ in range(2):  # the cached answer raises too
            with pytest.raises(GitSourceError) as exc:
                checkout.read_text(sha, "logo.png")
            assert one_line(exc) == "logo.png is a binary file"
        assert checkout.read_text(sha, "late.bin") == ["x" * 8000 + "\0"]


def test_each_path_is_read_once(src: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    src.write("a.md", "a\n")
    sha = src.commit()
    calls: list[str] = []
    real = Checkout._object
    monkeypatch.setattr(
        Checkout, "_object", lambda self, name: calls.append(name) or real(self, name)
    )
    with Checkout(src.root) as checkout:
        lines = checkout.read_text(sha, "a.md")
        assert lines == ["a"]
        assert checkout.read_text(sha, "a.md") is lines  # the one cache: no copy
        text = checkout.file_text(sha, "a.md")
        assert text is not None and text.lines is lines
        assert checkout.file_text(sha, "a.md") is text  # its quote index is built once
        assert checkout.read_text(sha, "gone.md") is None
        assert checkout.read_text(sha, "gone.md") is None
    assert calls == [f"{sha}:a.md", f"{sha}:gone.md"]


def spy(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Record the git command (its arguments after the global options) of every call of
    the runner's `run`."""
    calls: list[list[str]] = []
    real = git.run

    def recording(args: list[str], **kwargs: object) -> bytes:
        command = list(args)
        while command and command[0] in ("--git-dir", "-c"):
            command = command[2:]
        calls.append(command)
        return real(args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(git, "run", recording)
    return calls


def test_read_text_rejects_hostile_input(src: GitRepo, tmp_path: Path) -> None:
    sha = src.commit()
    marker = tmp_path / "x"
    with Checkout(src.root) as checkout:
        for path in (f"--output={marker}", "../../etc/passwd", "a\nHEAD:b"):
            with pytest.raises(GitSourceError) as exc:
                checkout.read_text(sha, path)
            assert "path" in one_line(exc)
        for bad_sha in ("HEAD", sha[:7], "--output=x"):
            with pytest.raises(GitSourceError) as exc:
                checkout.read_text(bad_sha, "a.md")
            assert "full lowercase commit sha" in one_line(exc)
    assert not marker.exists()


def test_resolve_short_full_and_absent(src: GitRepo) -> None:
    src.write("a.md", "a\n")
    sha = src.commit()
    blob = src.git("rev-parse", "HEAD:a.md")
    with Checkout(src.root) as checkout:
        assert checkout.resolve(sha) == sha
        assert checkout.resolve(sha[:7]) == sha
        assert checkout.resolve(sha[:12].upper()) == sha
        assert checkout.resolve("0" * 40) is None
        assert checkout.resolve("deadbee") is None
        assert checkout.resolve(blob) is None  # an object, but not a commit
        with pytest.raises(GitSourceError) as exc:
            checkout.resolve("--upload-pack=touch x")
        assert "7 to 40 hex" in one_line(exc)


def colliding_commits(repo: GitRepo) -> tuple[str, str]:
    """Write two commits whose shas share their first 7 hex digits (found by brute force)."""
    tree = repo.git("hash-object", "-t", "tree", "-w", "--stdin", input="")
    seen: dict[str, str] = {}
    for n in range(1_000_000):
        body = (
            f"tree {tree}\nauthor a <a@b> {EPOCH} +0000\ncommitter a <a@b> {EPOCH} +0000\n\n{n}\n"
        )
        data = body.encode()
        sha = hashlib.sha1(b"commit %d\0" % len(data) + data).hexdigest()
        if sha[:7] in seen:
            break
        seen[sha[:7]] = body
    written = [
        repo.git("hash-object", "-t", "commit", "-w", "--stdin", input=text)
        for text in (seen[sha[:7]], body)
    ]
    assert written[0][:7] == written[1][:7] and written[1] == sha
    return written[0], written[1]


def test_resolve_ambiguous_prefix_is_an_error(src: GitRepo) -> None:
    one, two = colliding_commits(src)
    with Checkout(src.root) as checkout:
        with pytest.raises(GitSourceError) as exc:
            checkout.resolve(one[:7])
        assert "ambiguous" in one_line(exc)
        assert checkout.resolve(one[:12]) == one
        assert checkout.resolve(two) == two


def test_checkout_of_a_non_repository(tmp_path: Path) -> None:
    for root in (tmp_path, tmp_path / "absent"):
        with pytest.raises(GitSourceError) as exc:
            Checkout(root)
        assert one_line(exc) == f"{root} is not a git repository"


def test_a_checkout_is_the_repository_at_its_root_not_one_above(
    src: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src.write("sub/a.md", "a\n")
    sha = src.commit()
    for root in (src.root / "sub", tmp_path / "link"):  # a folder inside, a link to it
        if root.name == "link":
            root.symlink_to(src.root / "sub")
        with pytest.raises(GitSourceError) as exc:
            Checkout(root)
        assert one_line(exc) == f"{root} is not a git repository"
    monkeypatch.setenv("GIT_DIR", str(src.root / ".git"))  # git's own, not the checkout's
    with pytest.raises(GitSourceError):
        Checkout(tmp_path)
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(src.root), str(bare)], check=True)
    for root in (src.root, src.root / ".git", bare):
        with Checkout(root) as checkout:
            assert checkout.read_text(sha, "sub/a.md") == ["a"]


def _asked_of_git(root: Path) -> str | None:
    done = subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"],
        cwd=root,
        capture_output=True,
        env={**git_env(), "GIT_CEILING_DIRECTORIES": str(root.parent)},
        check=False,
    )
    return done.stdout.decode().strip() if done.returncode == 0 else None


def test_a_git_directory_seen_on_disk_is_the_one_git_finds(src: GitRepo, tmp_path: Path) -> None:
    """The git directory is looked at without starting git only where it is plainly one; it
    is then the one `rev-parse --absolute-git-dir` names, and anything else is asked of git."""
    src.write("a.md", "a\n")
    sha = src.commit()
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(src.root), str(bare)], check=True)
    linked = tmp_path / "linked"
    src.git("worktree", "add", "--quiet", "--detach", str(linked), sha)
    (tmp_path / "link").symlink_to(src.root)
    seen = {root: _plain_git_dir(root) for root in (src.root, src.root / ".git", bare)}
    seen[tmp_path / "link"] = _plain_git_dir(tmp_path / "link")
    assert all(found == _asked_of_git(root) for root, found in seen.items()), seen
    assert _plain_git_dir(linked) is None  # a `.git` file: git is asked
    assert _plain_git_dir(src.root / ".git" / "worktrees" / "linked") is None  # commondir
    fake = tmp_path / "fake"
    (fake / "refs").mkdir(parents=True)
    (fake / "HEAD").write_text("ref: refs/heads/main\n")
    assert _plain_git_dir(fake) is None  # no objects/: not a repository to git either
    (fake / "objects").mkdir()
    (fake / "HEAD").write_text("not a ref\n")
    assert _plain_git_dir(fake) is None
    with Checkout(linked) as checkout:
        assert checkout.git_dir == _asked_of_git(linked)
        assert checkout.read_text(sha, "a.md") == ["a"]


def test_names_git_answers_missing_even_with_spaces(src: GitRepo) -> None:
    src.write("a b.md", "a\n")
    sha = src.commit()
    with Checkout(src.root) as checkout:
        assert checkout.read_text(sha, "a b.md") == ["a"]
        assert checkout.read_text(sha, "a b c.md") is None
        assert checkout.read_text(sha, "a b") is None
        assert checkout.resolve_rev("no such branch") is None


def test_many_long_names_read_in_one_pass_never_stall(src: GitRepo) -> None:
    """A chunk of names written before their answers are read fits whole in the pipe: past
    it, git, blocked writing answers nobody reads yet, stopped reading names, and verify
    waited forever (100 cited paths of 2,000 characters, or long paths of large files)."""
    folder = "d" * 200 + "/" + "e" * 200 + "/" + "f" * 200 + "/" + "g" * 200
    for n in range(100):
        src.write(f"{folder}/{n}.md", f"{n}\n" * 20_000)
    sha = src.commit()
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from compat_register.sources.checkout import Checkout\n"
        f"sha, folder = {sha!r}, {folder!r}\n"
        "found = [(sha, f'{folder}/{n}.md') for n in range(100)]\n"
        "missing = [(sha, 'm' * 2_000 + f'/{n}.md') for n in range(100)]\n"
        f"with Checkout(Path({str(src.root)!r})) as checkout:\n"
        "    checkout.read_many(found + missing)\n"
        "    assert checkout.read_text(*found[7]) == ['7'] * 20_000\n"
        "    assert checkout.read_text(*missing[0]) is None\n"
    )
    # killed at the guard: before, cat-file and its reader waited for each other forever
    subprocess.run([sys.executable, "-c", script], check=True, timeout=HANG_GUARD)


@given(st.lists(st.integers(1, 9_000), max_size=300))
def test_a_chunk_of_names_fits_a_pipe_unless_it_is_one_name(lengths: list[int]) -> None:
    names = ["n" * length for length in lengths]
    chunked = list(chunks(names))
    assert [name for chunk in chunked for name in chunk] == list(enumerate(names))
    for chunk in chunked:
        written = sum(len(name) + 1 for _, name in chunk)
        assert len(chunk) <= CHUNK
        assert written <= CHUNK_BYTES or len(chunk) == 1


def test_reading_at_a_pin_never_imports_gitpython(src: GitRepo) -> None:
    # GitPython took longer to import than verify takes to read a large set's blobs: the
    # runner starts git itself, and no module may bring GitPython back in
    src.write("a.md", "a\n")
    sha = src.commit()
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from compat_register.sources.checkout import Checkout\n"
        f"with Checkout(Path({str(src.root)!r})) as checkout:\n"
        f"    assert checkout.resolve({sha[:7]!r}) == {sha!r}\n"
        "    checkout.prefetch(checkout.resolve_rev('HEAD'), ['a.md'])\n"
        f"    assert checkout.read_text({sha!r}, 'a.md') == ['a']\n"
        "print(sorted(name for name in sys.modules if name.startswith('git.')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, check=True)
    assert done.stdout == b"[]\n"


def test_paths_with_dollar_or_tilde_are_read_as_written(src: GitRepo, tmp_path: Path) -> None:
    """No shell-like expansion anywhere (GitPython expanded '$' and '~', so such paths were
    refused): a folder named `$HOME` is that folder, never the home directory."""
    src.write("a.md", "a\n")
    sha = src.commit()
    odd = tmp_path / "$HOME" / "~"
    odd.parent.mkdir()
    src.root.rename(odd)
    with Checkout(odd) as checkout:
        assert checkout.git_dir == str(odd / ".git")
        assert checkout.read_text(sha, "a.md") == ["a"]
        assert checkout.paths(sha) == ["a.md"]
    cache = SourceCache(tmp_path / "$HOME" / "cache")
    assert cache.sync("spec", str(odd), sha) == sha
    assert (tmp_path / "$HOME" / "cache" / "spec.git").is_dir()


def test_checkout_of_a_bare_repository(src: GitRepo, tmp_path: Path) -> None:
    src.write("a.md", "a\n")
    sha = src.commit()
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(src.root), str(bare)], check=True)
    with Checkout(bare) as checkout:
        assert checkout.read_text(sha, "a.md") == ["a"]


# --- steps: what git says changed between two commits ------------------------------------


def numbered(n: int, tag: str = "line") -> str:
    return "".join(f"{tag} {i}\n" for i in range(1, n + 1))


def changed(
    checkout: Checkout, old: str, new: str, path: str, commits: bool = False
) -> tuple[str | None, list[tuple[int, int, int, int]]]:
    """Where `path` went from `old` to `new` (None: deleted) and its hunks, as `follow`
    asks: the step's renames and deletions, then the hunks of the pair or of the file."""
    if commits:
        steps = first_parent_steps(checkout, old, new)
        assert steps is not None and len(steps) == 1
        step = steps[0]
    else:
        step = range_step(checkout, old, new)
    if path in step.renamed:
        to, _, old_blob, new_blob = step.renamed[path]
        return to, pair_hunks(checkout, old_blob, new_blob)
    if path in step.deleted:
        return None, []
    hunks = step_hunks(checkout, [step], [path], commits=commits)
    return path, hunks.get(step.sha, {}).get(path, [])


@pytest.mark.parametrize("commits", [False, True])
def test_changed_files(src: GitRepo, commits: bool) -> None:
    src.write("docs/above.md", numbered(10))
    src.write("docs/old-name.md", numbered(20))
    src.write("docs/gone.md", numbered(5))
    src.write("docs/same.md", numbered(3))
    old = src.commit()
    src.write("docs/above.md", "new 1\nnew 2\n" + numbered(10).replace("line 7\n", ""))
    src.mv("docs/old-name.md", "spec/new-name.md")
    src.write("spec/new-name.md", numbered(20).replace("line 15\n", "line fifteen\n"))
    src.rm("docs/gone.md")
    src.write("docs/added.md", "x\n")
    new = src.commit()
    with Checkout(src.root) as checkout:
        assert changed(checkout, old, new, "docs/above.md", commits) == (
            "docs/above.md",
            [(0, 0, 1, 2), (7, 1, 8, 0)],
        )
        assert changed(checkout, old, new, "docs/old-name.md", commits) == (
            "spec/new-name.md",
            [(15, 1, 15, 1)],
        )
        assert changed(checkout, old, new, "docs/gone.md", commits) == (None, [])
        assert changed(checkout, old, new, "docs/same.md", commits) == ("docs/same.md", [])
        assert changed(checkout, new, old, "spec/new-name.md") == (
            "docs/old-name.md",
            [(15, 1, 15, 1)],
        )


@pytest.mark.parametrize("commits", [False, True])
def test_changed_files_of_awkward_names(src: GitRepo, commits: bool) -> None:
    names = ["sp ace.md", "tab\there.md", "caf\u00e9.md", 'quote".md', "x b/y.md"]
    for name in names:
        src.write(name, numbered(4, name))
    src.write("mode.sh", "echo\n")
    old = src.commit()
    for name in names:
        src.write(name, numbered(4, name).replace(" 2\n", " two\n"))
    src.mv("sp ace.md", "moved/sp ace 2.md")
    src.mv("tab\there.md", "moved/tab\tthere.md")
    src.git("update-index", "--chmod=+x", "mode.sh")
    new = src.commit()
    with Checkout(src.root) as checkout:
        assert changed(checkout, old, new, "sp ace.md", commits) == (
            "moved/sp ace 2.md",
            [(2, 1, 2, 1)],
        )
        assert changed(checkout, old, new, "tab\there.md", commits) == (
            "moved/tab\tthere.md",
            [(2, 1, 2, 1)],
        )
        for name in ("caf\u00e9.md", 'quote".md', "x b/y.md"):
            assert changed(checkout, old, new, name, commits) == (name, [(2, 1, 2, 1)])
        assert changed(checkout, old, new, "mode.sh", commits) == ("mode.sh", [])


@pytest.mark.parametrize("commits", [False, True])
def test_changed_files_whatever_the_users_diff_config(src: GitRepo, commits: bool) -> None:
    """diff.noprefix would drop the `a/` and `b/` the parse reads paths by."""
    src.write("a.md", "a\n")
    src.write("same.md", "s\n")
    old = src.commit()
    src.mv("a.md", "b.md")
    src.write("b.md", "a\nb\n")
    src.write("same.md", "t\n")
    new = src.commit()
    for key, value in [
        ("diff.noprefix", "true"),
        ("color.diff", "always"),
        ("color.ui", "always"),
        ("diff.renames", "false"),
        ("diff.context", "5"),
        ("diff.external", "false"),
    ]:
        src.git("config", key, value)
    with Checkout(src.root) as checkout:
        assert changed(checkout, old, new, "a.md", commits) == ("b.md", [(1, 0, 2, 1)])
        assert changed(checkout, old, new, "same.md", commits) == ("same.md", [(1, 1, 1, 1)])


@pytest.mark.parametrize("where", ["checkout", "global"])
def test_changed_lines_of_a_file_git_calls_binary(
    src: GitRepo, where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `-diff` attribute would make git print "Binary files ... differ" with no hunks."""
    if where == "checkout":
        src.write(".gitattributes", "*.md -diff\n")
    else:
        attributes = tmp_path / "attributes"
        attributes.write_text("*.md binary\n", encoding="utf-8")
        config = tmp_path / "gitconfig"
        config.write_text(f"[core]\n\tattributesFile = {attributes}\n", encoding="utf-8")
        monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    src.write("a.md", numbered(4, "a"))
    old = src.commit()
    src.write("a.md", numbered(4, "a").replace(" 2\n", " two\n"))
    new = src.commit()
    with Checkout(src.root) as checkout:
        assert changed(checkout, old, new, "a.md") == ("a.md", [(2, 1, 2, 1)])
        assert changed(checkout, old, new, "a.md", commits=True) == ("a.md", [(2, 1, 2, 1)])


def test_a_step_to_an_absent_commit(src: GitRepo) -> None:
    sha = src.commit()
    with Checkout(src.root) as checkout, pytest.raises(GitSourceError) as exc:
        range_step(checkout, sha, "0" * 40)
    assert "git diff failed" in one_line(exc)


# --- SourceCache --------------------------------------------------------------------------


@pytest.fixture
def cache(tmp_path: Path) -> SourceCache:
    return SourceCache(tmp_path / "cache")


def read_cached(cache: SourceCache, alias: str, sha: str, path: str) -> list[str] | None:
    with Checkout(cache.repo_dir(alias)) as checkout:
        assert checkout.resolve(sha[:7]) == sha
        return checkout.read_text(sha, path)


def test_sync_then_read_from_the_cache(src: GitRepo, cache: SourceCache) -> None:
    src.write("docs/a.md", "pinned\n")
    pinned = src.commit()
    src.write("docs/a.md", "later\n")
    src.commit()
    lines: list[str] = []
    assert cache.sync("spec", src.url, pinned, progress=lines.append) == pinned
    assert any("objects" in line for line in lines)
    assert read_cached(cache, "spec", pinned, "docs/a.md") == ["pinned"]
    assert cache.repo_dir("spec").is_dir()
    assert sorted(p.name for p in cache.root.iterdir()) == ["spec.git", "spec.lock"]


def test_sync_twice_is_a_no_op(src: GitRepo, cache: SourceCache) -> None:
    pinned = src.commit()
    assert cache.sync("spec", src.url, pinned) == pinned
    packs = sorted((cache.repo_dir("spec") / "objects" / "pack").iterdir())
    lines: list[str] = []
    assert cache.sync("spec", src.url, pinned[:7], progress=lines.append) == pinned
    assert lines == []  # nothing fetched
    assert sorted((cache.repo_dir("spec") / "objects" / "pack").iterdir()) == packs


def test_sync_a_short_sha_fetches_all_refs(src: GitRepo, cache: SourceCache) -> None:
    src.write("a.md", "a\n")
    first = src.commit()
    src.git("tag", "v1")
    src.write("a.md", "b\n")
    src.commit()
    assert cache.sync("spec", src.url, first[:9].upper()) == first
    assert read_cached(cache, "spec", first, "a.md") == ["a"]


def test_a_pin_fetched_with_its_branch_outlives_the_branch(
    src: GitRepo, cache: SourceCache
) -> None:
    src.write("a.md", "a\n")
    first = src.commit()
    src.write("a.md", "b\n")
    second = src.commit()
    cache.sync("spec", src.url, first[:9])  # a short sha fetches every branch: `second` too
    assert cache.sync("spec", src.url, second) == second  # already there: nothing fetched
    src.git("reset", "--hard", first)  # the branch is force-pushed: `second` is on none
    src.write("a.md", "c\n")
    third = src.commit()
    cache.sync("spec", src.url, third[:9])  # every branch fetched again, `main` moved
    git_dir = str(cache.repo_dir("spec"))
    subprocess.run(["git", "--git-dir", git_dir, "gc", "--prune=now", "-q"], check=True)
    assert read_cached(cache, "spec", second, "a.md") == ["b"]


def test_sync_moves_to_a_new_commit_in_place(src: GitRepo, cache: SourceCache) -> None:
    src.write("a.md", "a\n")
    first = src.commit()
    cache.sync("spec", src.url, first)
    src.write("a.md", "b\n")
    second = src.commit()
    assert cache.sync("spec", src.url, second) == second
    assert read_cached(cache, "spec", first, "a.md") == ["a"]
    assert read_cached(cache, "spec", second, "a.md") == ["b"]


def test_sync_from_a_relative_local_path(
    src: GitRepo, cache: SourceCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    sha = src.commit()
    monkeypatch.chdir(src.root.parent)
    assert cache.sync("spec", "src", sha) == sha


def test_sync_of_an_absent_commit_keeps_the_cache(src: GitRepo, cache: SourceCache) -> None:
    src.write("a.md", "a\n")
    pinned = src.commit()
    cache.sync("spec", src.url, pinned)
    for absent in ("f" * 40, "fffffff"):
        with pytest.raises(GitSourceError) as exc:
            cache.sync("spec", src.url, absent)
        assert one_line(exc) == f"commit {absent} not found in {src.url}"
        assert read_cached(cache, "spec", pinned, "a.md") == ["a"]


def test_sync_of_an_absent_commit_into_an_empty_cache(src: GitRepo, cache: SourceCache) -> None:
    src.commit()
    with pytest.raises(GitSourceError) as exc:
        cache.sync("spec", src.url, "f" * 40)
    assert "not found" in one_line(exc)
    assert sorted(p.name for p in cache.root.iterdir()) == ["spec.lock"]
    assert not cache.repo_dir("spec").exists()


def test_sync_of_an_absent_repository(tmp_path: Path, cache: SourceCache) -> None:
    with pytest.raises(GitSourceError) as exc:
        cache.sync("spec", (tmp_path / "nowhere").as_uri(), "a" * 40)
    assert one_line(exc).startswith(f"cannot fetch {'a' * 40} from file://")
    assert "fatal: " in one_line(exc)
    assert not cache.repo_dir("spec").exists()


class Interrupted(Exception):
    pass


def interrupt(line: str) -> None:
    raise Interrupted(line)


def test_interrupted_sync_leaves_no_cache(src: GitRepo, cache: SourceCache) -> None:
    src.write("a.md", "a\n")
    pinned = src.commit()
    with pytest.raises(Interrupted):
        cache.sync("spec", src.url, pinned, progress=interrupt)
    assert sorted(p.name for p in cache.root.iterdir()) == ["spec.lock"]
    assert not cache.repo_dir("spec").exists()
    assert cache.sync("spec", src.url, pinned) == pinned


def test_interrupted_sync_keeps_the_previous_commit(src: GitRepo, cache: SourceCache) -> None:
    src.write("a.md", "a\n")
    first = src.commit()
    cache.sync("spec", src.url, first)
    src.write("a.md", "b\n")
    second = src.commit()
    with pytest.raises(Interrupted):
        cache.sync("spec", src.url, second, progress=interrupt)
    assert read_cached(cache, "spec", first, "a.md") == ["a"]
    # git may or may not have finished before it was stopped: never half of it.
    with Checkout(cache.repo_dir("spec")) as checkout:
        if checkout.resolve(second) is not None:
            assert checkout.read_text(second, "a.md") == ["b"]


KILLER = """
import os, signal, sys
from pathlib import Path
from compat_register.sources.sourcecache import SourceCache
from compat_register.sources.diffs import first_parent_steps, pair_hunks, range_step, step_hunks
from compat_register.storage.layout import Paths
def die(line):
    os.killpg(0, signal.SIGKILL)  # this process and its git, as a cancelled CI job
SourceCache(Path(sys.argv[1])).sync("spec", sys.argv[2], sys.argv[3], progress=die)
"""


def test_killed_sync_leaves_no_valid_looking_cache(src: GitRepo, cache: SourceCache) -> None:
    src.write("a.md", "a\n")
    pinned = src.commit()
    run = [sys.executable, "-c", KILLER, str(cache.root), src.url, pinned]
    killed = subprocess.run(run, env=git_env(), start_new_session=True)
    assert killed.returncode == -signal.SIGKILL
    leftovers = sorted(p.name for p in cache.root.iterdir())
    assert "spec.git" not in leftovers
    assert any(name.startswith("spec.git.tmp-") for name in leftovers)
    assert not cache.repo_dir("spec").exists()
    assert cache.sync("spec", src.url, pinned) == pinned  # and cleans up after the dead one
    assert sorted(p.name for p in cache.root.iterdir()) == ["spec.git", "spec.lock"]


def test_two_syncs_at_once(src: GitRepo, cache: SourceCache) -> None:
    src.write("a.md", "a\n")
    pinned = src.commit()
    start = threading.Barrier(3)
    results: list[str] = []

    def sync(cache: SourceCache) -> None:
        start.wait()
        results.append(cache.sync("spec", src.url, pinned))

    threads = [threading.Thread(target=sync, args=(SourceCache(cache.root),)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [pinned] * 3
    assert read_cached(cache, "spec", pinned, "a.md") == ["a"]


def test_two_sync_processes_at_once(src: GitRepo, cache: SourceCache) -> None:
    pinned = src.commit()
    code = (
        "import sys; from pathlib import Path;"
        "from compat_register.sources.sourcecache import SourceCache;"
        "print(SourceCache(Path(sys.argv[1])).sync('spec', sys.argv[2], sys.argv[3]))"
    )
    run = [sys.executable, "-c", code, str(cache.root), src.url, pinned]
    procs = [subprocess.Popen(run, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    assert [proc.communicate()[0].strip() for proc in procs] == [pinned, pinned]


def test_sync_rejects_hostile_input(src: GitRepo, cache: SourceCache, tmp_path: Path) -> None:
    sha = src.commit()
    pwned = tmp_path / "pwned"
    cases = [
        ("spec", f"ext::sh -c touch% {pwned}", sha, "transport"),
        ("spec", src.url, f"--upload-pack=touch {pwned}", "7 to 40 hex"),
        ("spec", f"--upload-pack=touch {pwned}", sha, "starts with '-'"),
        ("../spec", src.url, sha, "not a plain name"),
    ]
    for alias, repo, commit, says in cases:
        with pytest.raises(GitSourceError) as exc:
            cache.sync(alias, repo, commit)
        assert says in one_line(exc)
    assert not pwned.exists()
    assert not cache.root.exists()


def test_fetch_allows_no_other_transport(src: GitRepo, tmp_path: Path) -> None:
    """Even an ext:: URL that got past the checks is refused by git itself."""
    pwned = tmp_path / "pwned"
    repo = GitRepo(tmp_path / "cache.git")
    repo.git("config", "remote.origin.url", f"ext::sh -c touch% {pwned}")
    with pytest.raises(GitSourceError):
        caching._fetch(repo.root / ".git", "a" * 40, None)
    assert not pwned.exists()


# --- where checkouts are ------------------------------------------------------------------


def test_checkout_places_order(tmp_path: Path) -> None:
    """REGISTER_SOURCE_<ALIAS>, else `path:`; then the cache when it holds anything."""
    paths = Paths.of(tmp_path / "registers", tmp_path / "cache")
    cache = SourceCache(paths.cache)

    def places(path: str | None, settings: Settings) -> list[Path]:
        source = Source("spec-v2", "Spec", None, "abc1234", path, (), Where("s.yaml", 1, 1))
        return [root for root, _ in checkout_places(source, paths, cache, settings)]

    assert places(None, Settings()) == []
    cache.repo_dir("spec-v2").mkdir(parents=True)
    assert places(None, Settings()) == [cache.repo_dir("spec-v2")]
    assert places("../spec", Settings())[0] == paths.registers / "../spec"
    environ = Settings.read({"REGISTER_SOURCE_SPEC_V2": "/src/spec"})
    assert places("../spec", environ)[0] == Path("/src/spec")
    unset = Settings.read({"REGISTER_SOURCE_SPEC_V2": ""})
    assert places("../spec", unset)[0] == paths.registers / "../spec"


def test_a_relative_local_repo_is_relative_to_the_registers_directory() -> None:
    from compat_register.model.registers import Source, Where
    from compat_register.sources.pins import _repo
    from compat_register.storage.layout import Paths

    def repo_of(repo: str) -> str:
        source = Source("up", "Up", repo, "1234567", None, (), Where("s.yaml", 1, 1))
        return _repo(source, Paths.of(Path("registers")))

    assert repo_of("../up") == str(Path("registers/../up"))
    assert repo_of("./a:b") == str(Path("registers/a:b"))  # a ':' after a '/': still a path
    assert repo_of("/srv/up") == "/srv/up"
    assert repo_of("git@example.com:up.git") == "git@example.com:up.git"
    assert repo_of("file:///srv/up") == "file:///srv/up"


def test_a_pin_that_cannot_be_resolved_closes_its_checkout(
    src: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compat_register.model.registers import Source, Where
    from compat_register.sources.pins import Checkouts
    from compat_register.storage.layout import Paths

    src.commit()
    closed: list[Path] = []

    def ambiguous(self: Checkout, commit: str) -> str:
        raise GitSourceError(f"commit {commit!r} is ambiguous in {self.root}")

    monkeypatch.setattr(Checkout, "resolve", ambiguous)
    monkeypatch.setattr(Checkout, "close", lambda self: closed.append(self.root))
    source = Source("up", "Up", None, "1234567", str(src.root), (), Where("s.yaml", 1, 1))
    pin = Checkouts(Paths.of(tmp_path), Settings()).pin(source)
    assert pin.checkout is None and "ambiguous" in (pin.problem or "")
    assert closed == [src.root]


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"", []),
        (b"\n", [""]),
        (b"a", ["a"]),
        (b"a\n\n", ["a", ""]),
        (b"a\r\nb\r\n", ["a", "b"]),
        (b"a\rb\n\r", ["a\rb", ""]),
    ],
)
def test_a_blob_is_split_on_newlines_only_and_loses_each_line_end(
    data: bytes, lines: list[str]
) -> None:
    """Lines as git and GitHub number them: '\\n' ends a line, a '\\r' before it goes."""
    text = text_of(("0" * 40, "blob", data))
    assert isinstance(text, FileText) and text.lines == lines

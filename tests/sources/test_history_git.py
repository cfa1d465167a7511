"""The registers' own repository through `projectrepo.ProjectRepo`, and the pure parsers of
git's log and trees in `sources.diffs`."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import builder
from compat_register.sources.diffs import ZERO_SHA, parse_log, tree_blobs
from compat_register.sources.projectrepo import ProjectRepo, blob_id, repository_of

sha = st.text("0123456789abcdef", min_size=40, max_size=40)
subject = st.text(st.characters(blacklist_characters="\x1e\x1f\n\r", codec="utf-8"), max_size=30)
path = st.text("abcxyz_./-", min_size=1, max_size=20).filter(lambda p: not p.startswith('"'))


@given(
    st.lists(
        st.tuples(
            sha,
            st.lists(sha, max_size=2),
            st.integers(0, 2**33),
            subject,
            st.lists(st.tuples(path, sha, sha), max_size=3),
        ),
        max_size=4,
    )
)
def test_a_log_reads_back(commits: list) -> None:  # type: ignore[type-arg]
    text = ""
    for commit, parents, time, said, changes in commits:
        text += f"\x1e{commit}\x1f{' '.join(parents)}\x1f{time}\x1f{said}\n\n"
        text += "".join(f":100644 100644 {a} {b} M\t{p}\n" for p, a, b in changes)
    found = parse_log(text)
    assert [(c.sha, c.parent, c.time, c.subject, c.changes) for c in found] == [
        (commit, parents[0] if parents else None, time, said, [(p, a, b) for p, a, b in changes])
        for commit, parents, time, said, changes in commits
    ]


def test_tree_blobs_keeps_files_only() -> None:
    blob, tree = bytes(range(20)), bytes(range(20, 40))
    raw = b"100644 a.yaml\0" + blob + b"40000 sub\0" + tree + b"120000 link.yaml\0" + blob
    raw += b"100755 run.yaml\0" + tree
    assert tree_blobs(raw) == {"a.yaml": blob.hex(), "run.yaml": tree.hex()}


def test_the_project_repository(tmp_path: Path) -> None:
    repo, first = builder.source(
        tmp_path / "p",
        {
            "registers/méta.yaml": "one\n",
            "registers/nested/x.yaml": "nested\n",
            "elsewhere.yaml": "out\n",
        },
        "first",
    )
    repo.write("registers/méta.yaml", "two\n")
    repo.write("elsewhere.yaml", "out again\n")
    second = repo.commit("second")
    repo.rm("registers/méta.yaml")
    third = repo.commit("third")
    assert repository_of(repo.root / "registers") == repo.root.resolve()
    with ProjectRepo(repo.root) as project:
        log = project.log("registers")
        assert [c.sha for c in log] == [third, second, first]
        assert log[2].parent is None and log[1].parent == first
        one, two = blob_id(b"one\n"), blob_id(b"two\n")
        assert log[2].changes == [("registers/méta.yaml", ZERO_SHA, one)]  # nested/ is not in
        assert log[1].changes == [("registers/méta.yaml", one, two)]
        assert log[0].changes == [("registers/méta.yaml", two, ZERO_SHA)]
        assert project.tree(second, "registers") == {"méta.yaml": two}
        assert project.tree(third, "registers") == {}
        assert project.blob(two) == b"two\n"
        assert project.head() == third and project.shallow_roots() == set()

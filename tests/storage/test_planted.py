"""What a pull request plants in `.register/` (or links from the registers folder) never
makes a command delete, overwrite or read anything outside the project, nor act on a file
the tool did not write; each refusal is one line naming the file, and a command that only
reads writes nothing at all (issue 35)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from planted import digest, journal, make_project, one_line_error, plant, register, snapshot

from compat_register.history.repository import CACHE_MADE_BY as MADE_BY

ABSOLUTE = '{{"state": "rolling back", "files": [["{0}", "{1}", null]]}}'
"""A journal of the format main wrote before issue 35 (absolute paths, no digests)."""


@pytest.mark.parametrize("committed", [True, False], ids=["committed", "restored"])
@pytest.mark.parametrize("form", ["absolute", "relative"])
def test_a_planted_journal_deletes_nothing(tmp_path: Path, form: str, committed: bool) -> None:
    repo = make_project(tmp_path)
    victim = tmp_path / "outside" / "victim"
    if form == "absolute":
        text = ABSOLUTE.format(victim, victim.with_name(".victim.1-abcdef01.tmp"))
    else:
        made = digest(victim.read_bytes())  # even the victim's own digest does not help
        entry = {"in": "registers", "file": "../../outside/victim", "token": "1-abcdef01"}
        text = journal("rolling back", {**entry, "made": made, "was": None})
    if committed:
        plant(repo, ".register/journal.json", text)
    else:  # as a CI cache restore adds it
        (repo.root / ".register").mkdir()
        (repo.root / ".register" / "journal.json").write_text(text, "utf-8")
    before, outside = snapshot(repo.root), snapshot(tmp_path / "outside")
    checked = register(repo.root, "check")
    assert snapshot(tmp_path / "outside") == outside  # main: check deleted the victim
    assert checked.returncode == 0 and "Traceback" not in checked.stderr
    assert ".register/journal.json:1:1: warning: " in checked.stdout, checked.stdout
    assert snapshot(repo.root) == before  # a reader finishes nothing, takes no lock
    line = one_line_error(register(repo.root, "fix"))
    assert ".register/journal.json" in line
    if not committed:  # the refusal says what to do, as every writer refuses it until then
        assert line.endswith("; nothing done: remove it"), line
    after = snapshot(repo.root)
    after.pop(".register/lock", None)  # the writer's own, taken before it read the journal
    assert after == before and snapshot(tmp_path / "outside") == outside


def test_a_journal_through_a_linked_folder_is_refused(tmp_path: Path) -> None:
    repo = make_project(tmp_path)
    plant(repo, "registers/sub", link="../../outside")
    victim = tmp_path / "outside" / "victim"
    entry = {"in": "registers", "file": "sub/victim", "token": "1-abcdef01", "was": None}
    (repo.root / ".register").mkdir()
    (repo.root / ".register" / "journal.json").write_text(
        journal("rolling back", {**entry, "made": digest(victim.read_bytes())}), "utf-8"
    )
    line = one_line_error(register(repo.root, "sync"))
    assert "registers/sub, a symbolic link" in line
    assert victim.read_text("utf-8") == "keep me\n"


def test_a_journal_acts_only_on_the_bytes_it_wrote(tmp_path: Path) -> None:
    """Its own names, inside the registers folder, but bytes it did not write: nothing is
    renamed over a register file or deleted, and each file left is named."""
    repo = make_project(tmp_path)
    meta = repo.root / "registers" / "meta.yaml"
    original = meta.read_bytes()
    token = "4242-abcdef01"
    new = meta.with_name(f".meta.yaml.{token}.tmp")
    new.write_text("title: planted\n", "utf-8")
    entry = {"in": "registers", "file": "meta.yaml", "token": token, "was": None}
    (repo.root / ".register").mkdir()
    (repo.root / ".register" / "journal.json").write_text(
        journal("committed", {**entry, "made": digest(b"title: what the journal says\n")}),
        "utf-8",
    )
    done = register(repo.root, "sync")  # it fails after: the base set's source is remote
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert f"registers/.meta.yaml.{token}.tmp: left in place: not the bytes" in done.stderr
    assert meta.read_bytes() == original and new.read_text("utf-8") == "title: planted\n"
    assert not (repo.root / ".register" / "journal.json").exists()


@pytest.mark.parametrize("kind", ["link to a file", "link to /dev/null", "FIFO", "hard link"])
def test_the_lock_is_never_opened_through_a_link_nor_waited_on(tmp_path: Path, kind: str) -> None:
    """A hard link is no pull request's (git has none), but another name of a file outside
    would be overwritten with the holder's line all the same."""
    repo = make_project(tmp_path)
    lock = repo.root / ".register" / "lock"
    lock.parent.mkdir()
    if kind == "FIFO":
        os.mkfifo(lock)
    elif kind == "hard link":
        os.link(tmp_path / "outside" / "victim", lock)
    else:
        lock.symlink_to("/dev/null" if "null" in kind else tmp_path / "outside" / "victim")
    outside = snapshot(tmp_path / "outside")
    for args in (["sync"], ["fix"], ["stamp"]):
        line = one_line_error(register(repo.root, *args))
        assert ".register/lock" in line, line
    assert snapshot(tmp_path / "outside") == outside


@pytest.mark.parametrize("folder", [".register", ".register/cache"])
def test_a_linked_state_folder_is_never_followed(tmp_path: Path, folder: str) -> None:
    repo = make_project(tmp_path)
    (repo.root / folder).parent.mkdir(exist_ok=True)
    (repo.root / folder).symlink_to(tmp_path / "outside")
    outside = snapshot(tmp_path / "outside")
    checked = register(repo.root, "check")
    assert checked.returncode == 0
    assert f"{folder}:1:1: warning: " in checked.stdout and "symbolic link" in checked.stdout
    for args in (["sync"], ["fix"], ["render", "--offline", "--out", "site"]):
        line = one_line_error(register(repo.root, *args))
        assert line.startswith(f"Error: {folder}: a symbolic link"), line
    assert snapshot(tmp_path / "outside") == outside


def fake_history(repo_root: Path, title: str) -> dict[str, object]:
    """A history cache holding a made-up change of META-01 for the last commit of
    meta.yaml, under the key the real one has (blob ids a stranger can read too)."""

    def blob(rev: str) -> str:
        import subprocess

        return subprocess.run(
            ["git", "rev-parse", f"{rev}:registers/meta.yaml"],
            cwd=repo_root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

    change = {"register": "meta", "id": "META-01", "change": "changed", "title": title}
    citations = {"added": [], "removed": [], "moved": []}
    diff = {"registers": [], "sources": [], "source_problems": []}
    diff["entries"] = [{**change, "fields": {"title": "changed"}, "citations": citations}]
    return {"diffs": {f"meta.yaml:{blob('HEAD~1')}..{blob('HEAD')}": diff}, "counts": {}}


def edit_title(repo_root: Path) -> None:
    meta = repo_root / "registers" / "meta.yaml"
    meta.write_text(meta.read_text("utf-8").replace("title: _meta", "title: Meta"), "utf-8")


def test_a_committed_cache_is_never_read(tmp_path: Path) -> None:
    """Well formed, of the right version and makers: only git knows it is not the tool's."""
    repo = make_project(tmp_path)
    edit_title(repo.root)
    repo.commit("retitle")
    data = {"made_by": MADE_BY, **fake_history(repo.root, "PLANTED-TITLE")}
    plant(repo, ".register/cache/history.json", json.dumps(data))
    checked = register(repo.root, "check")
    assert ".register/cache/history.json:1:1: warning: " in checked.stdout
    assert "tracked by git" in checked.stdout
    out = tmp_path / "site"
    line = one_line_error(register(repo.root, "render", "--offline", "--out", str(out)))
    assert "tracked by git" in line and not out.exists()
    assert json.loads((repo.root / ".register/cache/history.json").read_text("utf-8")) == data


def test_a_wrongly_typed_history_cache_is_dropped_with_a_notice(tmp_path: Path) -> None:
    """As a cache restore would add it (untracked): fields a list, not an object."""
    repo = make_project(tmp_path)
    edit_title(repo.root)
    repo.commit("retitle")
    data = {"version": 3, "made_by": MADE_BY, **fake_history(repo.root, "PLANTED-TITLE")}
    data["diffs"][next(iter(data["diffs"]))]["entries"][0]["fields"] = []  # type: ignore[index]
    cache = repo.root / ".register" / "cache" / "history.json"
    cache.parent.mkdir(parents=True)
    cache.write_text(json.dumps(data), "utf-8")
    out = tmp_path / "site"
    done = register(repo.root, "render", "--offline", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    said = "not using .register/cache/history.json (not the shape this tool writes)"
    assert said in done.stderr, done.stderr
    pages = "".join(p.read_text("utf-8") for p in out.rglob("*.md"))
    assert "PLANTED-TITLE" not in pages and "META-01" in pages
    assert MADE_BY in cache.read_text("utf-8") and "PLANTED" not in cache.read_text("utf-8")


def test_a_register_file_linked_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    repo = make_project(tmp_path)
    secret = (repo.root / "registers" / "meta.yaml").read_text("utf-8")
    (tmp_path / "outside" / "secret.yaml").write_text(secret.replace("_meta", "SECRET"), "utf-8")
    plant(repo, "registers/evil.yaml", link="../../outside/secret.yaml")
    (repo.root / "shared").mkdir()
    (repo.root / "shared" / "kept.yaml").write_text(secret.replace("META", "KEPT"), "utf-8")
    plant(repo, "registers/kept.yaml", link="../shared/kept.yaml")  # inside: read as ever
    checked = register(repo.root, "check")
    assert checked.returncode == 1
    error = "registers/evil.yaml:1:1: error: evil: a symbolic link to '../../outside/secret.yaml'"
    assert error in checked.stdout, checked.stdout
    assert checked.stdout.count("error:") == 1
    exported = register(repo.root, "export")
    assert "SECRET" not in exported.stdout and "KEPT-01" in exported.stdout


def test_render_writes_nothing_through_a_linked_folder_under_its_out(tmp_path: Path) -> None:
    """`register render --out docs` runs on a pull request (Zensical's workflow), whose
    docs/ may hold a committed link to a folder outside: nothing is written through it."""
    repo = make_project(tmp_path)
    plant(repo, "docs/registers/revisions", link="../../../outside")
    before = snapshot(tmp_path / "outside")
    done = register(repo.root, "render", "--out", "docs")
    assert done.returncode == 1, done.stdout + done.stderr
    assert snapshot(tmp_path / "outside") == before
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.splitlines()[-1] == (
        "Error: docs/registers/revisions: a symbolic link (to '../../../outside'): nothing is "
        "written through a link under --out; remove it; nothing written"
    ), done.stderr

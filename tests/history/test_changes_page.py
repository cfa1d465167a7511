"""The Changes page and each entry's last changes, from a real history; the cache that
makes a rebuild read only new commits; shallow clones."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

import builder
from compat_register import api
from compat_register.history import repository
from compat_register.history.diffing import summarise
from compat_register.site import renderer as render
from gitrepo import GitRepo, git_env
from historyrepo import History

URL = "https://github.com/example/project"


def pages(registers: Path, cache: Path | None = None) -> dict[str, str]:
    checked = api.check(registers)
    found = repository.read_history(registers, cache)
    return render.Renderer(checked.registers, history=found, repo_url=URL).pages()


def sections(page: str) -> dict[str, list[str]]:
    """Heading -> the lines under it, for each `## ` section of a page."""
    found: dict[str, list[str]] = {}
    heading = ""
    for line in page.splitlines():
        if line.startswith("## "):
            heading = line[3:]
            found[heading] = []
        elif heading and line:
            found[heading].append(line)
    return found


def test_one_section_per_commit_newest_first(history: History) -> None:
    page = pages(history.registers)["registers/changes.md"]
    commits = history.commits
    headings = [h for h in sections(page) if h.startswith("2023-")]
    subjects = [h.split(": ", 1)[1].split(" { #")[0] for h in headings]
    assert subjects == [
        "Rename T-03",
        "register bump up",
        "register fix",
        "Reword T-01",
        "T-03 in, T-02 out",
        "T-01 is partial",
        "Add the ext register",
        "Start the registers",
    ]
    found = sections(page)
    state = next(h for h in found if h.endswith(f"{{ #commit-{commits['state'][:12]} }}"))
    assert found[state] == [
        f"Commit [`{commits['state'][:7]}`]({URL}/commit/{commits['state']}).",
        "- [T-01](t.md#t-01) Handles requests: `missing` → `partial`",
    ]
    entries = next(h for h in found if h.startswith("2023-11-14: T-03 in"))
    assert found[entries][1:] == [
        "- T-02 Goes away: **removed**",
        "- [T-03](t.md#t-03) New: **added**",
    ]
    prose = next(h for h in found if h.startswith("2023-11-14: Reword"))
    assert found[prose][1:] == ["- [T-01](t.md#t-01) Handles requests: what: changed"]
    fixed = next(h for h in found if h.startswith("2023-11-14: register fix"))
    quote = " “func handle() error {”"
    assert found[fixed][1:] == [
        "- [T-01](t.md#t-01) Handles requests: 1 citation moved",
        f"    - citation moved `src/server.go:4{quote}` → `src/server.go:3{quote}`",
    ]
    bumped = next(h for h in found if h.startswith("2023-11-14: register bump"))
    assert found[bumped][1].startswith("- source `up`: pin moved `")
    assert found[bumped][2:4] == [
        "- [E-01](ext.md#e-01) Extra: 1 citation moved",
        "    - citation moved `src/server.go:2` → `src/server.go:4`",
    ]
    title = next(h for h in found if h.startswith("2023-11-14: Rename"))
    assert found[title][1:] == ["- [T-03](t.md#t-03) Renamed: title: New → Renamed"]
    added = next(h for h in found if h.startswith("2023-11-14: Add the ext"))
    assert found[added][1:] == ["- register `ext`: added", "- [E-01](ext.md#e-01) Extra: **added**"]
    assert "Shallow clone" not in page


def test_each_entry_ends_with_its_last_changes(history: History) -> None:
    page = pages(history.registers)["registers/t.md"]
    c = {name: sha[:12] for name, sha in history.commits.items()}
    [line] = [x for x in page.splitlines() if x.startswith("Last changes:") and "added." in x][:1]
    assert line == (
        f"Last changes: [2023-11-14](changes.md#commit-{c['bump']}): 2 citations moved; "
        f"[2023-11-14](changes.md#commit-{c['fix']}): 1 citation moved; "
        f"[2023-11-14](changes.md#commit-{c['prose']}): what changed; "
        f"[2023-11-14](changes.md#commit-{c['state']}): missing → partial; "
        f"[2023-11-14](changes.md#commit-{c['start']}): added."
    )
    # the section of T-01 holds it: after its sources, before the next entry
    t01 = page.index("## T-01 ")
    assert t01 < page.index(line) < page.index("## T-03 ")


def test_a_chart_per_register_with_its_numbers_in_its_title(history: History) -> None:
    page = pages(history.registers)["registers/changes.md"]
    assert (
        '<title id="chart-t">Test: 0 done, 1 partial, 1 missing on 2023-11-14; '
        "1 done, 0 partial, 1 missing on 2023-11-14, 6 changes since</title>" in page
    )
    assert '<title id="chart-ext">Ext: 0 done, 1 partial, 0 missing on 2023-11-14' in page
    assert page.count('<svg class="reg-chart"') == 2
    assert page.count('<polyline class="reg-chart-line reg-chart-missing"') == 2


def clone(source: GitRepo, target: Path, *options: str) -> GitRepo:
    subprocess.run(
        ["git", "clone", "--quiet", *options, source.url, str(target)],
        check=True,
        capture_output=True,
        env=git_env(),
    )
    repo = GitRepo(target)  # re-initialising a clone changes nothing in it
    repo.ticks = 100  # new commits come after the cloned ones
    return repo


def test_a_rebuild_reads_only_the_new_commits(
    history: History, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = clone(history.project, tmp_path / "copy")
    registers = copy.root / "registers"
    parsed: list[str] = []

    def counting(name: str, data: bytes, memo: Any = None) -> dict:  # type: ignore[type-arg]
        parsed.append(name)
        return summarise(name, data, memo)

    monkeypatch.setattr(repository, "summarise", counting)
    cache = tmp_path / "cache" / "history.json"
    first = repository.read_history(registers, cache)
    assert len(parsed) >= 8 and cache.exists()
    parsed.clear()
    again = repository.read_history(registers, cache)
    assert parsed == []  # every diff and count came from the cache
    assert again.commits == first.commits
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    copy.write("registers/t.yaml", text.replace("{state: partial, note:", "{state: done, note:", 1))
    copy.commit("T-01 is done")
    parsed.clear()
    third = repository.read_history(registers, cache)
    assert sorted(parsed) == ["t.yaml", "t.yaml"]  # the one file, before and after
    assert third.commits[1:] == first.commits
    assert third.commits[0].diff.entries[0].fields == {"status.state": ("partial", "done")}
    cache.write_text("{not json", encoding="utf-8")
    assert repository.read_history(registers, cache).commits == third.commits  # rebuilt


def test_a_shallow_clone_shows_what_it_holds(history: History, tmp_path: Path) -> None:
    shallow = clone(history.project, tmp_path / "shallow", "--depth", "3")
    registers = shallow.root / "registers"
    found = repository.read_history(registers, None)
    assert found.shallow
    assert [c.sha for c in found.commits] == [
        history.commits[name] for name in ("title", "bump", "fix")
    ]
    edge = found.commits[-1]
    assert edge.edge and edge.diff.empty  # its parent is not in the clone: changes unknown
    page = render.Renderer(api.check(registers).registers, history=found).pages()[
        "registers/changes.md"
    ]
    assert '!!! note "Shallow clone"' in page
    assert "The oldest commit in this clone" in page
    assert "[T-03](t.md#t-03) Renamed: title: New → Renamed" in page


def test_outside_a_repository_there_is_no_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # whatever holds tmp
    (tmp_path / "registers").mkdir()
    with pytest.raises(repository.HistoryError, match="is not inside a git repository"):
        repository.read_history(tmp_path / "registers", None)


def test_a_repository_without_commits_has_an_empty_history(tmp_path: Path) -> None:
    GitRepo(tmp_path / "empty")
    builder.registers(tmp_path / "empty" / "registers", "sources: {}\n")
    found = repository.read_history(tmp_path / "empty" / "registers", None)
    assert found.commits == [] and not found.shallow


def test_a_file_that_did_not_load_is_located_then_compared_when_mended(
    history: History, tmp_path: Path
) -> None:
    copy = clone(history.project, tmp_path / "copy")
    registers = copy.root / "registers"
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    copy.write("registers/t.yaml", text.replace("  - id: T-03", "  - id: [T-03"))
    copy.commit("Break t.yaml")
    copy.write("registers/t.yaml", text.replace("{state: partial, note:", "{state: done, note:", 1))
    copy.commit("Mend t.yaml, T-01 done")
    found = repository.read_history(registers, tmp_path / "cache.json")
    page = render.Renderer(api.check(registers).registers, history=found).pages()
    lines = sections(page["registers/changes.md"])
    broken = next(h for h in lines if ": Break t.yaml" in h)
    [line] = lines[broken][1:]
    assert line.startswith("- `t.yaml:") and " does not load at this commit: " in line
    mended = next(h for h in lines if ": Mend t.yaml" in h)
    # compared with the last version that loaded: the state change made meanwhile is seen
    assert lines[mended][1:] == ["- [T-01](t.md#t-01) Handles requests: `partial` → `done`"]
    series = [counts for _, counts in found.counts["t"]]
    assert series[-2:] == [
        {"done": 0, "partial": 1, "missing": 1, "n/a": 0},
        {"done": 1, "partial": 0, "missing": 1, "n/a": 0},
    ]  # no point for the commit whose file did not load
    again = repository.read_history(registers, tmp_path / "cache.json")
    assert again.commits == found.commits  # the same from the cache


def test_a_clone_of_one_commit_builds(history: History, tmp_path: Path) -> None:
    shallow = clone(history.project, tmp_path / "one", "--depth", "1")
    registers = shallow.root / "registers"
    found = repository.read_history(registers, None)
    [only] = found.commits
    assert found.shallow and only.edge and only.sha == history.commits["title"]
    page = render.Renderer(api.check(registers).registers, history=found).pages()
    text = page["registers/changes.md"]
    assert "the history shown starts at" in text and "<svg" in text
    assert "Last changes" not in page["registers/t.md"]  # what the edge changed is unknown


def test_a_damaged_repository_is_one_line(tmp_path: Path) -> None:
    repo, _ = builder.source(tmp_path / "damaged", {"registers/t.yaml": "title: T\n"}, "first")
    repo.write("registers/t.yaml", "title: U\n")
    repo.commit("second")
    blob = repo.git("rev-parse", "HEAD~1:registers/t.yaml")
    (repo.root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()  # a lost object
    with pytest.raises(repository.HistoryError, match=f"does not hold blob {blob}"):
        repository.read_history(repo.root / "registers", None)


def test_a_long_message_is_headed_by_its_first_words(history: History, tmp_path: Path) -> None:
    """git's subject is the message's whole first paragraph: twenty lines with no blank
    line make one subject; the heading (and so the table of contents) shows its first 72
    characters, cut at a word, and the section the whole of it."""
    copy = clone(history.project, tmp_path / "copy")
    registers = copy.root / "registers"
    text = (registers / "t.yaml").read_text(encoding="utf-8")
    copy.write("registers/t.yaml", text.replace("{state: partial, note:", "{state: done, note:", 1))
    message = "\n".join(f"Line {n} of a long message about the T-01 change" for n in range(20))
    copy.commit(message)
    found = repository.read_history(registers, None)
    page = render.Renderer(api.check(registers).registers, history=found).pages()
    [heading] = [h for h in sections(page["registers/changes.md"]) if "Line 0" in h]
    shown = heading.split(": ", 1)[1].split(" { #")[0]
    assert shown == "Line 0 of a long message about the T-01 change Line 1 of a long message…"
    assert len(shown) <= 72
    whole = " ".join(message.split("\n"))
    assert f"`: {whole}." in "\n".join(sections(page["registers/changes.md"])[heading])

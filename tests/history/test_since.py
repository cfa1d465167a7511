"""Since when each entry has held its state, from a real history of the registers."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from compat_register import api
from compat_register.history.repository import read_history
from compat_register.history.since import Since, first_commits, since_when
from gitrepo import EPOCH
from historyrepo import History, build_history


def since(history: History) -> dict[str, Since]:
    checked = api.check(history.registers)
    commits = read_history(history.registers, None).commits
    return since_when(history.registers, checked.registers, commits)


def day(commit: str, history: History) -> str:
    """The UTC date of a commit of the project (each is one second after the last)."""
    seconds = int(history.project.git("show", "-s", "--format=%ct", commit))
    assert seconds > EPOCH
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).date().isoformat()


@pytest.fixture
def own_history(tmp_path: Path) -> History:
    """A history of the test's own, which it may add commits to."""
    return build_history(tmp_path)


def test_each_entry_is_dated_by_the_commit_that_gave_it_its_state(own_history: History) -> None:
    found = since(own_history)
    first, _ = own_history.pins
    commits = own_history.commits
    # T-01: missing at start, partial at `state`; its prose, a fix and a bump came after
    assert found["T-01"] == Since(day(commits["state"], own_history), commits["state"], first[:12])
    assert found["T-03"].commit == commits["entries"]  # added then; renamed later
    assert found["E-01"].commit == commits["register"]  # its register was added then
    assert set(found) == {"T-01", "T-03", "E-01"}  # T-02 is gone
    assert found["T-01"].data() == {
        "date": found["T-01"].date,
        "commit": commits["state"][:12],
        "pin": first[:12],
    }


def test_the_pin_is_the_subjects_at_the_since_commit(own_history: History) -> None:
    """After `bump` moved the pin, a state reached is dated with the new pin."""
    text = (own_history.registers / "t.yaml").read_text()
    own_history.project.write("registers/t.yaml", text.replace("state: missing", "state: done"))
    done = own_history.project.commit("T-03 is done")
    found = since(own_history)
    _, second = own_history.pins
    assert found["T-03"].commit == done
    assert found["T-03"].pin is not None and second.startswith(found["T-03"].pin)
    assert found["T-01"].commit == own_history.commits["state"]


def test_a_state_not_committed_yet_has_no_since(own_history: History) -> None:
    text = (own_history.registers / "t.yaml").read_text()
    (own_history.registers / "t.yaml").write_text(text.replace("state: partial", "state: done"))
    found = since(own_history)
    assert "T-01" not in found
    assert found["T-03"].commit == own_history.commits["entries"]  # same file, its state committed


def test_a_state_left_and_reached_again_counts_from_its_return(own_history: History) -> None:
    text = (own_history.registers / "t.yaml").read_text()
    own_history.project.write("registers/t.yaml", text.replace("state: partial", "state: done"))
    own_history.project.commit("T-01 is done")
    own_history.project.write("registers/t.yaml", text)
    back = own_history.project.commit("T-01 is partial again")
    assert since(own_history)["T-01"].commit == back


def test_a_removed_and_restored_entry_counts_from_its_restoring(own_history: History) -> None:
    text = (own_history.registers / "t.yaml").read_text()
    head, _ = text.split("  - id: T-03", 1)
    own_history.project.write("registers/t.yaml", head)
    own_history.project.commit("T-03 out")
    own_history.project.write("registers/t.yaml", text)
    back = own_history.project.commit("T-03 back")
    assert since(own_history)["T-03"].commit == back


def test_a_commit_where_the_file_did_not_load_interrupts_nothing(own_history: History) -> None:
    text = (own_history.registers / "t.yaml").read_text()
    own_history.project.write("registers/t.yaml", text + "  - [unclosed\n")
    own_history.project.commit("broken")
    own_history.project.write("registers/t.yaml", text)
    own_history.project.commit("mended")
    assert since(own_history)["T-01"].commit == own_history.commits["state"]


def test_no_history_gives_no_since(own_history: History) -> None:
    checked = api.check(own_history.registers)
    assert since_when(own_history.registers, checked.registers, []) == {}
    assert first_commits([], {"T-01": "partial"}) == {}

"""The same statement across revisions: same, changed (reworded) or new."""

from __future__ import annotations

from compat_register.statements.revisions import changes
from compat_register.statements.statement import Statement


def st(rev: str, line: int, text: str, heading: str = "H", page: str = "a.mdx") -> Statement:
    return Statement(f"docs/{rev}/{page}", line, line, "MUST", text, heading, heading.lower())


def test_same_changed_and_new() -> None:
    old = [
        st("r1", 1, "Clients MUST send an “id”."),
        st("r1", 2, "Servers MUST reply within 10 seconds."),
    ]
    new = [
        st("r2", 5, "Clients  MUST send an “id”.".replace("“", '"').replace("”", '"')),
        st("r2", 6, "Servers MUST reply within 30 seconds."),
        st("r2", 7, "Servers MUST NOT crash.", heading="Other"),
    ]
    found = changes(["r1", "r2"], {"r1": old, "r2": new})
    kinds = {s.line: (c.kind, c.previous) for s, c in zip(new, found["r2"], strict=True)}
    assert kinds[5] == ("same", old[0])
    assert kinds[6] == ("changed", old[1])
    assert kinds[7] == ("new", None)
    assert found["r1"][0].kind == "new"


def test_a_moved_section_is_the_same_statement() -> None:
    old = [st("r1", 1, "It MUST hold.", heading="A")]
    new = [st("r2", 9, "It MUST hold.", heading="B", page="b.mdx")]
    assert changes(["r1", "r2"], {"r1": old, "r2": new})["r2"][0].kind == "same"


def test_a_rewording_is_looked_for_under_the_same_heading_of_the_same_page_only() -> None:
    old = [st("r1", 1, "Servers MUST reply within 10 seconds.", page="a.mdx")]
    new = [st("r2", 1, "Servers MUST reply within 30 seconds.", page="b.mdx")]
    assert changes(["r1", "r2"], {"r1": old, "r2": new})["r2"][0].kind == "new"

"""The suite's requirement files read in the shapes its repository holds: a SEP's traceability
file, the traceability manifest and a revision's requirement set; every malformed file one
located problem naming the file."""

from __future__ import annotations

import json

import pytest

from compat_register.conformance.requirements import (
    UNLISTED,
    NotScored,
    Requirement,
    read_sep,
    read_set,
    read_traceability,
)
from compat_register.model.positions import Where

SEP = """\
sep: 2243
spec_url: https://modelcontextprotocol.io/specification/draft/basic/transports#standard-mcp-request-headers
requirements:
  - check: sep-2243-header-name-case-insensitive
    text: 'Clients and servers MUST use case-insensitive comparisons for header names.'
  - check: sep-2243-x-mcp-header-not-empty
    text: 'The x-mcp-header value MUST NOT be empty.'
    url: https://modelcontextprotocol.io/specification/draft/server/tools#custom-headers
  - check: sep-2243-server-no-manifest
    text: 'Servers MUST decode them accordingly.'

  # excluded entries keep the SEP's URL unless they name one
  - text: 'Intermediaries MUST return an appropriate HTTP error status for validation failures.'
    excluded: 'Intermediary requirement; conformance harness tests clients and servers.'
    issue: 'https://github.com/modelcontextprotocol/conformance/issues/116'
"""
MANIFEST = {
    "schemaVersion": 1,
    "seps": {
        "2243": {
            "yaml": "src/seps/sep-2243.yaml",
            "requirements": [
                {"check": "sep-2243-header-name-case-insensitive", "status": "tested", "text": "."},
                {"check": "sep-2243-x-mcp-header-not-empty", "status": "untested", "text": "."},
            ],
            "excluded": [{"text": "Intermediaries MUST", "reason": "Intermediary requirement"}],
            "unkeyed": [],
            "untracked": ["sep-2243-server-accepts-whitespace-header-value"],
        }
    },
}
SET = """\
# Conformance requirements for the 2026-07-28 specification revision.
server:
  - server-stateless
  - tools-list
client:
  - tools_call
  - auth/metadata-default
not_scored:
  - scenario: auth/dpop
    leg: client
    reason: extension
  - scenario: http-header-validation
    leg: server
    reason: pending
    note: >-
      SEP-2243; pending against the reference fixture
"""
SEP_URL = "https://modelcontextprotocol.io/specification/draft/basic/transports"
TOOLS_URL = "https://modelcontextprotocol.io/specification/draft/server/tools#custom-headers"


def test_a_sep_file_gives_each_requirement_its_status_and_url() -> None:
    file = "src/seps/sep-2243.yaml"
    statuses, problems = read_traceability(json.dumps(MANIFEST, indent=2), "traceability.json")
    assert problems == []
    found, problems = read_sep(SEP, file, statuses or {})
    assert problems == []
    assert found == (
        Requirement(
            2243,
            "sep-2243-header-name-case-insensitive",
            "Clients and servers MUST use case-insensitive comparisons for header names.",
            f"{SEP_URL}#standard-mcp-request-headers",
            "tested",
            None,
            Where(file, 4, 5),
        ),
        Requirement(
            2243,
            "sep-2243-x-mcp-header-not-empty",
            "The x-mcp-header value MUST NOT be empty.",
            TOOLS_URL,
            "untested",
            None,
            Where(file, 6, 5),
        ),
        Requirement(
            2243,
            "sep-2243-server-no-manifest",
            "Servers MUST decode them accordingly.",
            f"{SEP_URL}#standard-mcp-request-headers",
            "untested",
            UNLISTED,
            Where(file, 9, 5),
        ),
        Requirement(
            2243,
            None,
            "Intermediaries MUST return an appropriate HTTP error status for validation failures.",
            f"{SEP_URL}#standard-mcp-request-headers",
            "excluded",
            "Intermediary requirement; conformance harness tests clients and servers.",
            Where(file, 13, 5),
        ),
    )


def test_a_requirement_set_names_its_revision_and_scored_scenarios() -> None:
    found, problems = read_set(SET, "requirements/2026-07-28.yaml")
    assert problems == []
    assert found is not None
    assert (found.revision, found.server, found.client) == (
        "2026-07-28",
        ("server-stateless", "tools-list"),
        ("tools_call", "auth/metadata-default"),
    )
    assert found.not_scored == (
        NotScored("auth/dpop", "client", "extension", None),
        NotScored(
            "http-header-validation",
            "server",
            "pending",
            "SEP-2243; pending against the reference fixture",
        ),
    )


@pytest.mark.parametrize(
    "reader, text, place, words",
    [
        ("sep", "sep: [2243\n", (2, 1), "flow"),
        ("sep", "sep: x\nspec_url: u\nrequirements: []\n", (1, 6), "SEP's number"),
        ("sep", "sep: 1\nspec_url: u\nrequirements:\n  - text: a\n    chek: x\n", (5, 5), "either"),
        ("sep", "sep: 1\nspec_url: u\nrequirements:\n  - check: a\n", (4, 5), "either"),
        (
            "sep",
            "sep: 1\nspec_url: u\nrequirements:\n  - {text: a, check: [b]}\n",
            (4, 5),
            "strings",
        ),
        ("set", "server: tools-list\n", (1, 9), "list of scenario"),
        ("set", "not_scored:\n  - scenario: a\n    leg: both\n    reason: x\n", (2, 5), "leg"),
        ("set", "- a\n", (1, 1), "mapping"),
        ("json", '{"seps": {"1": {"requirements": [\n {"check": "a"}]}}}', (2, 2), "status"),
        ("json", '{"seps": [}', (1, 11), "not JSON"),
        ("json", "[]", (1, 1), "'seps'"),
    ],
)
def test_a_malformed_file_is_one_located_problem(
    reader: str, text: str, place: tuple[int, int], words: str
) -> None:
    file = {"sep": "src/seps/sep-1.yaml", "set": "requirements/2026-07-28.yaml"}.get(
        reader, "src/seps/traceability.json"
    )
    if reader == "sep":
        found, problems = read_sep(text, file, {})
    elif reader == "set":
        found, problems = read_set(text, file)  # type: ignore[assignment]
    else:
        found, problems = read_traceability(text, file)  # type: ignore[assignment]
    assert found is None
    assert [(p.file, p.line, p.col, p.code) for p in problems] == [
        (file, *place, "requirements-shape")
    ]
    assert words in problems[0].message

"""A conformance suite's repository built in tmp, its files in the shapes the real one
(modelcontextprotocol/conformance at c321dd3) holds: SEP traceability files, the
traceability manifest, requirement sets; and results folders as the suite writes them.

    repo, pin = suite(tmp_path / "suite")
    folder = registers(tmp_path / "registers", suite_sources(pin, "path: ../suite"))
    results(tmp_path / "results", {("server", "tools-list"): ["SUCCESS"]})
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from builder import source
from gitrepo import GitRepo

SEP_2243 = """\
sep: 2243
spec_url: https://modelcontextprotocol.io/specification/draft/basic/transports#standard-mcp-request-headers
requirements:
  - check: sep-2243-header-name-case-insensitive
    text: 'Clients and servers MUST use case-insensitive comparisons for header names.'
  - check: sep-2243-server-reject-invalid-headers
    text: 'Servers that process the request body MUST reject requests with mismatched or missing standard-header values, returning HTTP 400 Bad Request.'
  - check: sep-2243-x-mcp-header-not-empty
    text: 'The x-mcp-header value MUST NOT be empty.'
    url: https://modelcontextprotocol.io/specification/draft/server/tools#custom-headers

  - text: 'Intermediaries MUST return an appropriate HTTP error status for validation failures.'
    excluded: 'Intermediary requirement; conformance harness tests clients and servers, not intermediaries.'
"""  # noqa: E501  (the suite's lines, as long as it writes them)
SEP_2575 = """\
sep: 2575
spec_url: https://modelcontextprotocol.io/specification/draft/basic/lifecycle
requirements:
  - check: sep-2575-http-server-error-jsonrpc-id
    text: 'The server MUST echo the request id in a JSON-RPC error.'
    url: https://modelcontextprotocol.io/specification/draft/basic/transports#errors
  - check: sep-2575-discover-capabilities-match-handlers
    text: 'Capabilities a server lists MUST match the handlers it serves.'
  - text: 'Clients SHOULD cache the discovered capabilities.'
    excluded: 'Client-internal state; not protocol-observable'
    issue: 'https://github.com/modelcontextprotocol/conformance/issues/116'
"""
MANIFEST = {
    "schemaVersion": 1,
    "docs": "https://github.com/modelcontextprotocol/conformance/blob/main/AGENTS.md",
    "source": "typescript-sdk@258f1a04a5d3",
    "seps": {
        "2243": {
            "yaml": "src/seps/sep-2243.yaml",
            "specUrl": "https://modelcontextprotocol.io/specification/draft/basic/transports",
            "requirements": [
                {
                    "check": "sep-2243-header-name-case-insensitive",
                    "status": "tested",
                    "text": "Clients and servers MUST use case-insensitive comparisons.",
                },
                {
                    "check": "sep-2243-server-reject-invalid-headers",
                    "status": "tested",
                    "text": "Servers that process the request body MUST reject requests.",
                },
                {
                    "check": "sep-2243-x-mcp-header-not-empty",
                    "status": "untested",
                    "text": "The x-mcp-header value MUST NOT be empty.",
                    "url": "https://modelcontextprotocol.io/specification/draft/server/tools",
                },
            ],
            "excluded": [{"text": "Intermediaries MUST return", "reason": "Intermediary"}],
            "unkeyed": [],
            "untracked": [],
            "summary": {"tested": 2, "untested": 1, "excluded": 1, "untracked": 0, "unkeyed": 0},
        }
    },
}
SET_2025 = """\
# Conformance requirements for the 2025-11-25 specification revision.
server:
  - server-initialize
  - ping
  - tools-list
  - prompts-list
  - resources-list

client:
  - initialize

not_scored:
  - scenario: json-schema-2020-12
    leg: server
    reason: pending
    note: >-
      the reference fixture cannot pass it yet; the implementation under test might
"""
SET_2026 = """\
# Conformance requirements for the 2026-07-28 specification revision.
server:
  - server-stateless
  - tools-list
  - prompts-list
  - resources-list
  - caching
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
FILES = {
    "src/seps/sep-2243.yaml": SEP_2243,
    "src/seps/sep-2575.yaml": SEP_2575,
    "src/seps/traceability.json": json.dumps(MANIFEST, indent=2) + "\n",
    "requirements/2025-11-25.yaml": SET_2025,
    "requirements/2026-07-28.yaml": SET_2026,
    "README.md": "The MCP conformance suite.\n",
}
REQUIREMENTS = (
    '{seps: "src/seps/sep-*.yaml", traceability: src/seps/traceability.json, '
    'sets: "requirements/*.yaml"}'
)


def suite(root: Path, files: Mapping[str, str] = FILES) -> tuple[GitRepo, str]:
    """The suite's repository at `root`, holding `files`; the repository and its commit."""
    return source(root, files, "the suite's requirement files")


def suite_sources(
    pin: str, place: str, subjects: Sequence[str] = ("srv",), alias: str = "suite"
) -> str:
    """sources.yaml: the suite (`alias`, read from `place`: `path: ../suite` or `repo:
    URL`) pinned at `pin`, and a subject per name (no checkout: results are recorded for
    it, nothing of it is read)."""
    lines = [
        "revisions: [2025-11-25, 2026-07-28]",
        "sources:",
        f"  {alias}:",
        "    title: MCP conformance suite",
        *([] if place.startswith("repo:") else ["    repo: null"]),
        f"    {place}",
        f"    commit: {pin}",
        f"    requirements: {REQUIREMENTS}",
    ]
    lines += [
        f"  {name}: {{title: Server {name}, repo: null, commit: 0123456}}" for name in subjects
    ]
    return "\n".join(lines) + "\n"


STAMP = "2026-10-02T09-14-03-512Z"


def results(root: Path, runs: Mapping[tuple[str, str], Sequence[tuple[str, str]]]) -> Path:
    """A results folder as the suite writes it: per (mode, scenario) a folder
    `[server-]SCENARIO-STAMP/checks.json` holding its (check id, status) checks."""
    for (mode, scenario), checks in runs.items():
        name = f"server-{scenario}" if mode == "server" else scenario
        folder = root / f"{name}-{STAMP}"
        folder.mkdir(parents=True)
        written = [
            {
                "id": check,
                "name": check.replace("-", " ").title(),
                "description": f"{check} as the suite describes it",
                "status": status,
                "timestamp": "2026-10-02T09:14:03.600Z",
                "specReferences": [
                    {"id": "MCP-Lifecycle", "url": "https://modelcontextprotocol.io/specification"}
                ],
                **({"errorMessage": "expected otherwise"} if status == "FAILURE" else {}),
            }
            for check, status in checks
        ]
        (folder / "checks.json").write_text(json.dumps(written, indent=2), encoding="utf-8")
    return root

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


# The scenario names of the real requirement sets at c321dd3 (requirements/2025-11-25.yaml and
# 2026-07-28.yaml of modelcontextprotocol/conformance), their lists alone, written out here
# (no file of that repository is copied), for the tests of the recorded real runs.
RECORDED_SET_2025 = """\
server: [server-initialize, logging-set-level, ping, completion-complete, tools-list,
  tools-call-simple-text, tools-call-image, tools-call-audio,
  tools-call-embedded-resource, tools-call-mixed-content, tools-call-with-logging,
  tools-call-error, tools-call-with-progress, tools-call-sampling,
  tools-call-elicitation, elicitation-sep1034-defaults, server-sse-multiple-streams,
  elicitation-sep1330-enums, resources-list, resources-read-text, resources-read-binary,
  resources-templates-read, resources-subscribe, resources-unsubscribe, prompts-list,
  prompts-get-simple, prompts-get-with-args, prompts-get-embedded-resource,
  prompts-get-with-image, dns-rebinding-protection]
client: [initialize, tools_call, elicitation-sep1034-client-defaults, sse-retry,
  auth/metadata-default, auth/metadata-var1, auth/metadata-var2, auth/metadata-var3,
  auth/basic-cimd, auth/scope-from-www-authenticate, auth/scope-from-scopes-supported,
  auth/scope-omitted-when-undefined, auth/scope-step-up, auth/scope-retry-limit,
  auth/token-endpoint-auth-basic, auth/token-endpoint-auth-post,
  auth/token-endpoint-auth-none, auth/pre-registration]
not_scored:
  - {scenario: auth/client-credentials-jwt, leg: client, reason: extension}
  - {scenario: auth/client-credentials-basic, leg: client, reason: extension}
  - {scenario: auth/enterprise-managed-authorization, leg: client, reason: extension}
  - {scenario: auth/dpop, leg: client, reason: extension}
  - {scenario: auth/dpop-nonce, leg: client, reason: extension}
  - {scenario: auth/wif-jwt-bearer, leg: client, reason: extension}
  - {scenario: server-session-lifecycle, leg: server, reason: added-after-release}
  - {scenario: json-schema-2020-12-preservation, leg: client, reason: added-after-release}
  - {scenario: json-schema-2020-12, leg: server, reason: pending}
  - {scenario: server-sse-polling, leg: server, reason: pending}
"""
RECORDED_SET_2026 = """\
server: [server-stateless, completion-complete, tools-list, tools-call-simple-text,
  tools-call-image, tools-call-audio, tools-call-embedded-resource,
  tools-call-mixed-content, tools-call-error, tools-call-with-progress,
  server-sse-multiple-streams, resources-list, resources-read-text,
  resources-read-binary, resources-templates-read, sep-2164-resource-not-found,
  prompts-list, prompts-get-simple, prompts-get-with-args,
  prompts-get-embedded-resource, prompts-get-with-image, dns-rebinding-protection,
  caching, input-required-result-basic-elicitation,
  input-required-result-basic-sampling, input-required-result-basic-list-roots,
  input-required-result-request-state, input-required-result-multiple-input-requests,
  input-required-result-multi-round, input-required-result-missing-input-response,
  input-required-result-non-tool-request, input-required-result-result-type,
  input-required-result-unsupported-methods, input-required-result-tampered-state,
  input-required-result-capability-check, input-required-result-ignore-extra-params,
  input-required-result-validate-input]
client: [tools_call, request-metadata, auth/metadata-default, auth/metadata-var1,
  auth/metadata-var2, auth/metadata-var3, auth/basic-cimd,
  auth/scope-from-www-authenticate, auth/scope-from-scopes-supported,
  auth/scope-omitted-when-undefined, auth/scope-step-up, auth/scope-retry-limit,
  auth/token-endpoint-auth-basic, auth/token-endpoint-auth-post,
  auth/token-endpoint-auth-none, auth/pre-registration, auth/resource-mismatch,
  auth/offline-access-scope, auth/offline-access-not-supported,
  auth/authorization-server-migration, auth/iss-supported, auth/iss-not-advertised,
  auth/iss-supported-missing, auth/iss-wrong-issuer, auth/iss-unexpected,
  auth/iss-normalized, auth/metadata-issuer-mismatch, sep-2322-client-request-state,
  http-standard-headers, http-custom-headers, http-invalid-tool-headers,
  json-schema-ref-no-deref]
not_scored:
  - {scenario: auth/client-credentials-jwt, leg: client, reason: extension}
  - {scenario: auth/client-credentials-basic, leg: client, reason: extension}
  - {scenario: auth/enterprise-managed-authorization, leg: client, reason: extension}
  - {scenario: auth/dpop, leg: client, reason: extension}
  - {scenario: auth/dpop-nonce, leg: client, reason: extension}
  - {scenario: auth/wif-jwt-bearer, leg: client, reason: extension}
  - {scenario: json-schema-2020-12-preservation, leg: client, reason: added-after-release}
  - {scenario: tasks-lifecycle, leg: server, reason: extension}
  - {scenario: tasks-capability-negotiation, leg: server, reason: extension}
  - {scenario: tasks-wire-fields, leg: server, reason: extension}
  - {scenario: tasks-request-state-removal, leg: server, reason: extension}
  - {scenario: tasks-mrtr-input, leg: server, reason: extension}
  - {scenario: tasks-request-headers, leg: server, reason: extension}
  - {scenario: tasks-dispatch-and-envelope, leg: server, reason: extension}
  - {scenario: tasks-status-notifications, leg: server, reason: extension}
  - {scenario: tasks-required-task-error, leg: server, reason: extension}
  - {scenario: tasks-mrtr-composition, leg: server, reason: extension}
  - {scenario: json-schema-2020-12, leg: server, reason: pending}
  - {scenario: http-header-validation, leg: server, reason: pending}
  - {scenario: http-custom-header-server-validation, leg: server, reason: pending}
"""
RECORDED_SETS = {
    "requirements/2025-11-25.yaml": RECORDED_SET_2025,
    "requirements/2026-07-28.yaml": RECORDED_SET_2026,
}


# A subject's recorded runs, (mode, scenario) -> [(check, status)]: scored against SET_2026
# by hand in tests/conformance/test_scores.py, printed by docs/conformance.md's score block.
RUNS = {
    ("server", "server-stateless"): [
        ("server-stateless", "SUCCESS"),
        ("sep-2575-http-server-error-jsonrpc-id", "SUCCESS"),
    ],
    ("server", "tools-list"): [
        ("tools-list", "WARNING"),
        ("sep-2243-header-name-case-insensitive", "FAILURE"),
    ],
    ("server", "prompts-list"): [("prompts-list", "SUCCESS")],
    ("server", "resources-list"): [
        ("resources-list", "SUCCESS"),
        ("sep-2243-server-reject-invalid-headers", "SUCCESS"),
    ],
    ("server", "server-initialize"): [
        ("server-initialize", "SUCCESS"),
        ("sep-2243-x-mcp-header-not-empty", "SKIPPED"),
    ],
    ("server", "ping"): [("ping", "SUCCESS"), ("ping-trace", "INFO")],
    ("server", "http-header-validation"): [("http-header-validation", "FAILURE")],
}

"""Every statement shows the join: the suite's checks aligned with it, the suite's status of
each, each subject's latest result, in `register coverage --format json` and on the revision's
Coverage page; a claim a result contradicts is reported at its state's line and fails
`register verify --conformance`, run through the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from builder import registers, source
from gitrepo import git_env
from registerfiles import register_head
from suiterepo import FILES, REQUIREMENTS, results, suite

REGISTER = Path(sys.executable).parent / "register"
"""The installed console script."""

PAGE = """---
title: Transports
---

## Standard MCP Request Headers

Clients and servers MUST use case-insensitive comparisons for header names.

Servers that process the request body MUST reject requests with mismatched or missing standard-header values, returning HTTP 400 Bad Request.

Intermediaries MUST return an appropriate HTTP error status for validation failures.

## Errors

The server MUST echo the request id in a JSON-RPC error.

## Sessions

Clients MUST send the session header.
Servers MUST check it.
"""  # noqa: E501  (a page's paragraphs are one line each)
"""The draft's transports page, holding the texts of tests/suiterepo.py's SEP files: line 7
sep-2243-header-name-case-insensitive, 9 sep-2243-server-reject-invalid-headers, 11 the
excluded intermediaries requirement, 15 sep-2575-http-server-error-jsonrpc-id; and SEP_9999's
one requirement over the two sentences of lines 19 and 20."""
SEP_9999 = """\
sep: 9999
spec_url: https://modelcontextprotocol.io/specification/draft/basic/transports#sessions
requirements:
  - check: sep-9999-session-header
    text: 'Clients MUST send the session header. Servers MUST check it.'
"""
"""A SEP whose check the manifest does not list (so untested) and whose requirement spans
two statements."""
CASE, REJECT, ECHO, SPAN = (
    "sep-2243-header-name-case-insensitive",
    "sep-2243-server-reject-invalid-headers",
    "sep-2575-http-server-error-jsonrpc-id",
    "sep-9999-session-header",
)
EXCLUDED = (
    "Intermediary requirement; conformance harness tests clients and servers, not intermediaries."
)

SOURCES = """revisions: [2025-11-25, draft]
sources:
  spec:
    title: Spec
    repo: null
    path: ../spec
    commit: {spec}
    claims: [{{glob: "draft/**", under: docs/specification/}}]
    coverage: {{statements: ["docs/specification/**/*.mdx"]}}
  suite:
    title: MCP conformance suite
    repo: null
    path: ../suite
    commit: {suite}
    requirements: {requirements}
  srv: {{title: Server srv, repo: null, commit: 0123456}}
  other: {{title: Server other, repo: null, commit: 89abcde}}
"""

CONCEPTS = f"""concepts:
  - {{id: mcp.headers, title: Request headers, checks: [{CASE}, {REJECT}, {ECHO}]}}
  - {{id: mcp.sessions, title: Sessions, checks: [{SPAN}]}}
"""
"""Every recorded check named by a concept (none is `conformance-unnamed-check`)."""


def entry(entry_id: str, state: str, line: int | str, concept: str = "") -> str:
    named = f"\n    concept: {concept}" if concept else ""
    return f"""  - id: {entry_id}
    title: Cites line {line}{named}
    what: w.
    status: {{state: {state}}}
    value: {{level: low}}
    effort: {{size: S}}
    risk: r.
    sources: ['spec:docs/specification/draft/basic/transports.mdx:{line}']
"""


SRV = (
    register_head("Server", "SRV", subject="srv")
    + entry("SRV-01", "done", 7)  # srv fails CASE: a contradiction
    + entry("SRV-02", "done", 9)  # srv passes REJECT: none
    + entry("SRV-03", "missing", 15)  # srv passes ECHO: a contradiction
    + entry("SRV-04", "done", 11)  # the excluded requirement: no check, none
    + entry("SRV-05", "done", 7, "mcp.headers")  # its concept names CASE: judged by it alone
    + entry("SRV-06", "done", "19-20")  # srv fails SPAN, aligned with both: one contradiction
)


def register(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`register ARGS` through the installed console script, as a user types it in `cwd`."""
    env = {k: v for k, v in git_env().items() if not k.startswith("REGISTER_")}
    env["REGISTER_CACHE"] = str(cwd / "cache")
    done = subprocess.run(
        [str(REGISTER), *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A spec and a suite beside the registers; srv's run fails CASE and SPAN and passes
    REJECT and ECHO, other's passes CASE alone."""
    _, spec = source(tmp_path / "spec", {"docs/specification/draft/basic/transports.mdx": PAGE})
    _, pin = suite(tmp_path / "suite", {**FILES, "src/seps/sep-9999.yaml": SEP_9999})
    sources = SOURCES.format(spec=spec, suite=pin, requirements=REQUIREMENTS)
    registers(tmp_path / "registers", sources, {"srv.yaml": SRV, "concepts.yaml": CONCEPTS})
    runs: dict[str, dict[tuple[str, str], list[tuple[str, str]]]] = {
        "srv": {
            ("server", "http-header-validation"): [(CASE, "FAILURE"), (REJECT, "SUCCESS")],
            ("server", "server-stateless"): [(ECHO, "SUCCESS")],
            ("server", "sessions"): [(SPAN, "FAILURE")],
        },
        "other": {("server", "http-header-validation"): [(CASE, "SUCCESS")]},
    }
    for subject, run in runs.items():
        results(tmp_path / f"results-{subject}", run)
        done = register(
            tmp_path, "conformance", "import", "--subject", subject, f"results-{subject}"
        )
        assert done.returncode == 0, done.stderr
    return tmp_path


def result(subject: str, commit: str, status: str | None, *scenarios: str) -> dict[str, Any]:
    return {
        "subject": subject,
        "commit": commit,
        "status": status,
        "baselined": False,
        "scenarios": list(scenarios),
    }


def test_each_statement_s_checks_status_and_results_in_the_json(project: Path) -> None:
    done = register(project, "coverage", "draft", "--format", "json")
    assert done.returncode == 0, done.stdout
    rows = {row["line"]: row for row in json.loads(done.stdout)["statements"]}
    assert rows[7]["entries"] == ["SRV-01", "SRV-05"]
    assert rows[7]["checks"] == [
        {
            "check": CASE,
            "sep": 2243,
            "status": "tested",
            "reason": None,
            "alignment": "exact",
            "results": [
                result("srv", "0123456", "FAILURE", "http-header-validation"),
                result("other", "89abcde", "SUCCESS", "http-header-validation"),
            ],
        }
    ]
    assert [(c["check"], [r["status"] for r in c["results"]]) for c in rows[9]["checks"]] == [
        (REJECT, ["SUCCESS", None])  # other never ran it
    ]
    excluded = rows[11]["checks"]
    assert excluded == [
        {
            "check": None,
            "sep": 2243,
            "status": "excluded",
            "reason": EXCLUDED,
            "alignment": "exact",
            "results": [],
        }
    ]
    assert rows[15]["checks"][0]["check"] == ECHO
    spanning = [rows[line]["checks"] for line in (19, 20)]
    assert spanning[0] == spanning[1]
    assert [(c["check"], c["status"], c["reason"], c["alignment"]) for c in spanning[0]] == [
        (SPAN, "untested", "not in traceability.json", "spanning")
    ]


def test_the_text_report_shows_the_join_when_asked(project: Path) -> None:
    plain = register(project, "coverage", "draft")
    assert plain.returncode == 0, plain.stdout
    assert "checks (" not in plain.stdout
    done = register(project, "coverage", "draft", "--checks")
    assert done.returncode == 0, done.stdout
    shown = done.stdout.split("  checks (6 statements):\n", 1)[1].splitlines()
    assert shown[:6] == [
        "    draft/basic/transports.mdx:7 MUST Clients and servers MUST use case-insensitive "
        "comparisons for header names.",
        f"      {CASE} tested; srv FAILURE; other SUCCESS",
        "    draft/basic/transports.mdx:9 MUST Servers that process the request body MUST "
        "reject requests with mismatched or missing standard-header values, returning HTTP "
        "400 Bad Request.",
        f"      {REJECT} tested; srv SUCCESS; other not run",
        "    draft/basic/transports.mdx:11 MUST Intermediaries MUST return an appropriate HTTP "
        "error status for validation failures.",
        f"      SEP-2243 excluded: {EXCLUDED}",
    ]


def test_the_coverage_page_shows_each_statement_s_join(project: Path) -> None:
    done = register(project, "render", "--out", "out")
    assert "Traceback" not in done.stderr
    pages = project / "out" / "registers" / "coverage"
    page = (pages / "draft" / "basic-transports.md").read_text()
    rows = {line.split(" | ")[0].strip("| "): line for line in page.splitlines() if " | " in line}
    joined = f"`{CASE}` tested; Server srv: FAILURE; Server other: SUCCESS"
    assert f'<span class="reg-check">{joined}</span>' in rows["7"]
    assert "Server other: not run" in rows["9"]
    assert f'<span class="reg-check">SEP-2243 excluded: {EXCLUDED}</span>' in rows["11"]
    health = (project / "out" / "registers" / "health.md").read_text()
    assert "done, but conformance check sep-2243-header-name-case-insensitive fails" in health
    assert "missing, but conformance check sep-2575-http-server-error-jsonrpc-id passes" in health


def state_line(text: str, entry_id: str) -> int:
    lines = text.splitlines()
    start = lines.index(f"  - id: {entry_id}")
    return next(n for n in range(start, len(lines)) if "status: {state:" in lines[n]) + 1


def test_a_claim_a_result_contradicts_is_located_and_fails_verify_conformance(
    project: Path,
) -> None:
    plain = register(project, "verify")
    assert plain.returncode == 0, plain.stdout
    asked = register(project, "verify", "--conformance")
    assert asked.returncode == 1
    text = (project / "registers" / "srv.yaml").read_text()
    errors = [line for line in asked.stdout.splitlines() if ": error: " in line]
    said = {
        "SRV-01": f"SRV-01: done, but conformance check {CASE} fails for srv at 0123456 "
        "(FAILURE in http-header-validation); the suite's SEP-2243 aligns it (exact) with the "
        "statement this entry cites, draft docs/specification/draft/basic/transports.mdx:7",
        "SRV-03": f"SRV-03: missing, but conformance check {ECHO} passes for srv",
        "SRV-05": f"SRV-05: done, but conformance check {CASE} fails for srv",
        "SRV-06": f"SRV-06: done, but conformance check {SPAN} fails for srv at 0123456 "
        "(FAILURE in sessions); the suite's SEP-9999 aligns it (spanning) with the statement "
        "this entry cites, draft docs/specification/draft/basic/transports.mdx:19",
    }
    at = {n: f"registers/srv.yaml:{state_line(text, n)}:" for n in said}
    for error, (entry_id, message) in zip(errors, said.items(), strict=True):
        assert error.startswith(f"{at[entry_id]}21: error: {message}")  # col 21: the state
    as_json = json.loads(register(project, "verify", "--conformance", "--format", "json").stdout)
    codes = sorted(d["code"] for d in as_json["diagnostics"] if d["severity"] == "error")
    assert codes == [
        "conformance-done-fails",  # SRV-05, by its concept alone
        "conformance-statement-fails",
        "conformance-statement-fails",  # SRV-06, once for its two statements
        "conformance-statement-passes",
    ]


def with_state(text: str, entry_id: str, state: str) -> str:
    """A register's text with `entry_id`'s state set to `state`."""
    head, tail = text.split(f"id: {entry_id}\n", 1)
    before, after = tail.split("status: {state: ", 1)
    return f"{head}id: {entry_id}\n{before}status: {{state: {state}}}{after.split('}', 1)[1]}"


def test_claims_that_agree_with_the_results_pass(project: Path) -> None:
    srv = project / "registers" / "srv.yaml"
    text = srv.read_text()
    for entry_id in ("SRV-01", "SRV-03", "SRV-05", "SRV-06"):
        text = with_state(text, entry_id, "partial")
    srv.write_text(text)
    asked = register(project, "verify", "--conformance")
    assert asked.returncode == 0, asked.stdout


def test_a_suite_not_read_at_its_pin_is_an_error_and_no_statement_shows_a_check(
    project: Path,
) -> None:
    sources = project / "registers" / "sources.yaml"
    sources.write_text(sources.read_text().replace("path: ../suite", "path: ../gone"))
    done = register(project, "coverage", "draft", "--format", "json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert [d["code"] for d in data["diagnostics"] if d["severity"] == "error"] == [
        "requirements-unreadable"
    ]
    assert all(row["checks"] == [] for row in data["statements"])

"""The catalogue of diagnostic codes, the one home of what a code is: its severity, how a
site build logs it, what it means (docs/diagnostics.md lists it; tests/test_codes.py holds it
to the codes the source emits, both ways)."""

from __future__ import annotations

from dataclasses import dataclass

from .diagnostic import Severity

Level = Severity  # how a site build logs a problem: the same three words


@dataclass(frozen=True)
class Code:
    """One diagnostic code: the severities it is emitted with, its meaning in one line, how
    a site build logs it when not as its severity (a stale citation warns there), and
    whether it is said of the run as a whole (a site says it alone, after the problems)."""

    severities: tuple[Severity, ...]
    meaning: str
    site: Level | None = None
    run: bool = False


ERROR: tuple[Severity, ...] = ("error",)
WARNING: tuple[Severity, ...] = ("warning",)
INFO: tuple[Severity, ...] = ("info",)

CODES: dict[str, Code] = {
    # reading: the files themselves (one problem per file that does not load)
    "missing-file": Code(ERROR, "sources.yaml is not in the registers folder"),
    "not-read": Code(WARNING, "a `*.yml` file beside the registers, which are read from `*.yaml`"),
    "unreadable": Code(ERROR, "the file cannot be read (permissions, an I/O error)"),
    "not-a-file": Code(ERROR, "not a regular file (a device, FIFO or socket): not read"),
    "link-outside": Code(ERROR, "a symbolic link that leads outside the project: not read"),
    "file-too-large": Code(ERROR, "the file is over the size limit of one register file"),
    "not-utf8": Code(ERROR, "the file is not UTF-8 text"),
    "empty-file": Code(ERROR, "the file holds no YAML mapping at all"),
    "not-a-mapping": Code(ERROR, "the file's top level is not a YAML mapping"),
    "multiple-documents": Code(ERROR, "the file holds more than one YAML document"),
    "yaml-syntax": Code(ERROR, "invalid YAML, with where and, when known, how to fix it"),
    "tab-indent": Code(ERROR, "a tab where YAML needs spaces to indent"),
    "odd-line-break": Code(ERROR, "a line break YAML reads and editors do not (NEL, LS, PS)"),
    "too-deep": Code(ERROR, "mappings or lists nested deeper than register files go"),
    "yaml-alias": Code(ERROR, "a YAML alias (`*name`): registers are plain data"),
    "yaml-anchor": Code(ERROR, "a YAML anchor (`&name`): registers are plain data"),
    "yaml-tag": Code(ERROR, "a YAML tag (`!name`): registers are plain data"),
    "number-too-large": Code(ERROR, "a number with more digits than its field takes"),
    "duplicate-key": Code(ERROR, "a key given twice in one mapping"),
    "complex-key": Code(ERROR, "a key that is not a plain string"),
    # reading: shape (the JSON Schemas)
    "unknown-field": Code(ERROR, "a field the schema does not know (with the likely one meant)"),
    "missing-field": Code(ERROR, "a required field is absent"),
    "wrong-type": Code(ERROR, "a value of the wrong type (a list for a string, say)"),
    "bad-value": Code(ERROR, "a value outside what its field allows (pattern, enum, minimum)"),
    "empty-field": Code(ERROR, "a field that must not be empty is"),
    "duplicate-item": Code(ERROR, "a list that must hold each item once repeats one"),
    "invalid": Code(ERROR, "a value the schema rejects for another reason (its message says)"),
    "bad-citation": Code(ERROR, "a citation that cannot be read (the message shows the form)"),
    "bad-pattern": Code(
        ERROR, "a link pattern in sources.yaml RE2 cannot run (backreference, lookaround)"
    ),
    "bad-glob": Code(ERROR, "a coverage scope glob in sources.yaml that RE2 cannot read"),
    # checking: what a schema cannot express
    "bad-repo": Code(ERROR, "a source's repo is not a location git may be given"),
    "unknown-source": Code(ERROR, "a subject, citation or command names no such source"),
    "bad-path": Code(ERROR, "a cited path git must not be given (`..`, an option, a newline)"),
    "citation-unresolved": Code(
        ERROR, "a citation whose path no source claims, or more than one", site="warning"
    ),
    "duplicate-prefix": Code(ERROR, "two registers use one ID prefix"),
    "pending-published": Code(WARNING, "a published register's prefix is still listed as pending"),
    "duplicate-id": Code(ERROR, "an entry ID used twice"),
    "wrong-prefix": Code(ERROR, "an entry ID without its register's prefix"),
    "bad-date": Code(ERROR, "a date that is no real date"),
    "date-order": Code(ERROR, "last-updated is before created"),
    "unknown-revision": Code(ERROR, "a revision not declared in sources.yaml's revisions"),
    "revision-order": Code(ERROR, "an entry's changed revisions not listed oldest first"),
    "no-evidence": Code(WARNING, "a done or partial entry cites nothing of its subject"),
    "note-required": Code(WARNING, "a partial or n/a state without a status note"),
    "unknown-concept": Code(ERROR, "an entry names a concept concepts.yaml does not have"),
    "duplicate-concept": Code(ERROR, "a concept ID used twice in concepts.yaml"),
    "unknown-parent": Code(ERROR, "a concept's parent is no concept"),
    "concept-cycle": Code(ERROR, "concepts whose parents run round in a cycle"),
    "concept-too-deep": Code(ERROR, "a concept under more parents than the matrix shows (16)"),
    "prose-too-costly": Code(ERROR, "prose too long or too deeply nested to render safely"),
    "bidi-control": Code(WARNING, "a bidirectional control character, which can hide text"),
    "unknown-prefix": Code(WARNING, "an ID-like reference whose prefix is a register's, mistyped"),
    "pending-reference": Code(WARNING, "a reference to a register not published yet", site="info"),
    "dangling-reference": Code(ERROR, "a reference to an entry that does not exist"),
    "bad-range": Code(ERROR, "a range of references that spans two registers"),
    "reversed-range": Code(ERROR, "a range of references whose end comes before its start"),
    # following: citations against their pinned commits, and the review stamps
    "citation-moved": Code(ERROR, "the quote is on other lines now (register fix)", site="warning"),
    "citation-broken": Code(ERROR, "the quote is nowhere in the cited file", site="warning"),
    "citation-missing-file": Code(
        ERROR, "the cited file does not exist at the pin", site="warning"
    ),
    "citation-out-of-range": Code(
        ERROR, "the cited lines are past the end of the file", site="warning"
    ),
    "citation-changed": Code(
        ERROR, "the cited lines changed since they were stamped", site="warning"
    ),
    "citation-unstamped": Code(WARNING, "the cited lines have no review stamp", site="warning"),
    "source-unavailable": Code(
        ERROR, "no checkout of a source named or synced: its citations unverified", site="info"
    ),
    "checkout-lacks-pin": Code(ERROR, "a named or synced checkout does not hold the pin"),
    "pin-moved-by-hand": Code(ERROR, "a pin edited in sources.yaml: put it back, register bump"),
    "bad-stamp": Code(ERROR, "a line of citations.lock that is not a stamp, or an unreadable lock"),
    # coverage: the specification's statements (register coverage)
    "coverage-unreadable": Code(ERROR, "a source naming statement files cannot be read at its pin"),
    "coverage-low": Code(
        ("error", "warning"), "a revision less covered than --min (error), or not all (warning)"
    ),
    "coverage-no-statements": Code(ERROR, "no source of sources.yaml names statement files"),
    "exclusion-cited": Code(
        WARNING, "an excluded statement an entry cites too: drop the exclusion"
    ),
    "exclusion-unused": Code(WARNING, "an exclusion whose lines hold no statement"),
    # conformance: the suite's results (register conformance import) and the claims they measure
    "results-json": Code(ERROR, "a conformance checks.json that is not JSON (or repeats a key)"),
    "results-shape": Code(ERROR, "a checks.json that is not an array of the suite's checks"),
    "baseline-shape": Code(ERROR, "an expected-failures file that is not server:/client: lists"),
    "requirements-shape": Code(
        ERROR, "a suite's SEP, traceability or requirement-set file not in the suite's shape"
    ),
    "requirements-unreadable": Code(
        ERROR, "the source naming the suite's requirement files cannot be read at its pin"
    ),
    "requirements-twice": Code(ERROR, "a second source naming the suite's requirement files"),
    "requirements-none": Code(ERROR, "no source names the suite's requirement files to score by"),
    "conformance-record": Code(
        ERROR, "a recorded results file (conformance/ALIAS.json) not as import writes it"
    ),
    "conformance-done-fails": Code(ERROR, "a done entry whose concept's conformance check fails"),
    "conformance-done-baselined": Code(
        ERROR, "a done entry whose concept's check sits in the expected-failures baseline"
    ),
    "conformance-missing-passes": Code(
        ERROR, "a missing entry whose concept's conformance check passes (a stale claim)"
    ),
    "conformance-statement-fails": Code(
        ERROR, "a done entry citing a statement whose aligned conformance check fails"
    ),
    "conformance-statement-passes": Code(
        ERROR, "a missing entry citing a statement whose aligned conformance check passes"
    ),
    "conformance-unnamed-check": Code(ERROR, "a recorded conformance check no concept names"),
    "conformance-stale-baseline": Code(
        WARNING, "a baseline scenario that passed: the suite's stale-baseline rule"
    ),
    # sources, importing, site
    "sync-failed": Code(ERROR, "register sync could not fetch a source's pinned commit"),
    "cache-rebuilt": Code(
        INFO, "a cached repository the tool did not make (hooks, a link, ...): fetched anew"
    ),
    "import-page": Code(("error", "warning"), "a hand-written page that does not import as is"),
    "page-clash": Code(ERROR, "a register's page has the name of one of the site's own pages"),
    # notices: what a run could not do beside the registers, failing nothing
    "cache-unwritable": Code(
        INFO, "a cache could not be written: the next run reads anew", run=True
    ),
    "cache-dropped": Code(
        INFO, "a cache not of the shape its writer gives it: not used, made anew", run=True
    ),
    # said of a file under .register/, located there like a register's problem
    "state-refused": Code(
        WARNING, ".register/ is a link or holds files git tracks: not used on this run"
    ),
    "write-interrupted": Code(
        WARNING, "a write was interrupted: a command that writes finishes it"
    ),
    "no-repository": Code(
        INFO, "no Changes page: the registers are in no git repository", run=True
    ),
    "history-failed": Code(
        WARNING, "no Changes page: git could not read the registers' history", run=True
    ),
    "shallow-clone": Code(
        INFO, "a shallow clone: the Changes page shows the history it holds", run=True
    ),
}
"""Every diagnostic code, by the stage that emits it."""

"""A run of warnings alike on one entry is one line with a count (pure)."""

from __future__ import annotations

from compat_register.model.diagnostic import Diagnostic
from compat_register.reporting.report import collapse_runs, format_report


def warning(line: int, message: str, id: str = "T-01", severity: str = "warning") -> Diagnostic:
    return Diagnostic(
        file="t.yaml",
        line=line,
        col=5,
        severity=severity,  # type: ignore[arg-type]
        id=id,
        code="citation-unstamped",
        message=message,
    )


STAMP = "has no review stamp in citations.lock (read the lines, then run register stamp T-01)"


def test_a_run_of_three_or_more_is_one_line_with_its_count() -> None:
    run = [warning(n, f"a.go:{n} {STAMP}") for n in range(1, 5)]
    shown = collapse_runs(run)
    assert [d.line for d in shown] == [1]
    assert shown[0].message.endswith("(and 3 more like it on T-01: --verbose lists them)")
    text = format_report(run, "text")
    assert text.splitlines()[-1] == "0 errors, 4 warnings"  # the count is of all
    assert len(format_report(run, "text", verbose=True).splitlines()) == 5


def test_what_is_not_alike_stays_apart() -> None:
    two = [warning(1, f"a.go:1 {STAMP}"), warning(2, f"a.go:2 {STAMP}")]
    assert collapse_runs(two) == two
    other_entry = [*two, warning(3, f"a.go:3 {STAMP}", id="T-02")]
    assert collapse_runs(other_entry) == other_entry
    other_words = [*two, warning(3, "a.go:3 something else")]
    assert collapse_runs(other_words) == other_words
    errors = [warning(n, f"a.go:{n} {STAMP}", severity="error") for n in range(1, 5)]
    assert collapse_runs(errors) == errors

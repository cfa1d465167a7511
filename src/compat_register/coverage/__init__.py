"""Coverage stage: how the registers stand on each statement of the specification. Pure.

Takes each revision's statements, the registers' citations with their verify outcomes and
the exclusions; gives each statement's state (*cited*, *excluded*, *uncovered*) and its
change against the revision before (`states`), counts per revision and file, a
changelog's items with the entries covering them (`itemcoverage`), and the Coverage pages'
views (`sitecoverage`). The feature's other parts: its command `api.measuring`
(`cli/measuring.py`), its report `reporting.coveragereport`.
"""

"""Coverage stage: how the registers stand on each statement of the specification. Pure.

Takes each revision's statements (`statements`), the registers' citations with the
outcome verify gave each, and the exclusions (`registers/exclusions.yaml`); gives every
statement's state, *cited* (with the entries whose citations overlap it), *excluded* (with
the reason) or *uncovered*, its change against the revision before, the cited statements
a later revision rewords (`states`), the counts per revision and file, a revision's
changelog items with the entries that cover them (`itemcoverage`), and the Coverage pages'
views (`sitecoverage`). The feature's other parts: its command `api.measuring`
(`cli/coverage.py`), its report `reporting.coveragereport`.
"""

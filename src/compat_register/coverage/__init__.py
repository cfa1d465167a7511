"""Coverage stage. Takes each revision's statements, the citations' outcomes and the
exclusions; gives each statement's state and change (`states`), changelog items' entries
(`itemcoverage`), the pages' views (`sitecoverage`). Command: `api.measuring`
(`cli/measuring.py`), report: `reporting.coveragereport`."""

"""Coverage stage. Takes each revision's statements, the citations' outcomes and the
exclusions; gives each statement's state and change and each changelog item's entries
(`states`, read at the pins by `run`), the pages' views (`sitecoverage`). Command:
`api.measuring` (`cli/measuring.py`), report: `reporting.coveragereport`."""

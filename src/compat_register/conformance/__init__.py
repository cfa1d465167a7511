"""Conformance stage. Takes the suite's checks.json files and baseline, the recorded results
and a checked set; gives the runs, the records, each check's latest status, the
contradictions and what they say of each entry. All pure but `collect`, which reads files.
The command is `api.measuring` (`cli/measuring.py`), the report `reporting.conformancereport`.
"""

"""Conformance stage: the official MCP conformance suite's results, read and held against
the registers' claims.

Takes the suite's `checks.json` files and baseline, the recorded results
(`registers/conformance/<ALIAS>.json`) and a checked register set; gives the parsed runs,
the record's text, each check's latest status per subject, the contradictions, every
problem located, and what they say of each entry (`measurements`). All pure but `collect`,
which reads the files the command line names. The feature's other parts: its command
`api.recording` (`cli/conformance.py`), its report `reporting.conformancereport`.
"""

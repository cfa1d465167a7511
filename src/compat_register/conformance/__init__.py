"""Conformance stage: the official MCP conformance suite's results, read and held against
the registers' claims.

Takes the suite's `checks.json` files and expected-failures baseline (as text), the
recorded results beside the registers (`registers/conformance/<ALIAS>.json`) and a checked
register set with its concepts; gives the parsed runs, the record's text, each check's
latest status per subject, and the contradictions between a claim and a measurement, every
problem located (`FILE:LINE:COL`), and what they say of each entry (`measurements`). All
pure but `collect`, which reads the files a user names on the command line. The feature's
other parts: its command `api.recording` (`cli/conformance.py`), its report
`reporting.conformancereport`.
"""

"""Checking a register set: the rules a schema cannot express, and cross-references.

Takes a loaded `RegisterSet` and its documents; gives diagnostics (and, for references,
the backlinks, which `references.with_backlinks` puts on a new set). Checks report;
`resolve` gives each register again with its citations' sources. Each module's job:
docs/architecture.md.
"""

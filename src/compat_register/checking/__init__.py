"""Checking a register set: the rules a schema cannot express, and cross-references.

Takes a loaded `RegisterSet` and its documents; gives diagnostics (and, for references,
the backlinks to record). Checks report; `resolve` is the one named step that sets each
citation's source. Each module's job: docs/architecture.md.
"""

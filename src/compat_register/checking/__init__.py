"""Checking a register set: the rules a schema cannot express, and cross-references.

Takes a loaded `RegisterSet` and its documents; gives diagnostics and, for references,
the backlinks (`references.with_backlinks`); `resolve` gives each register again with
its citations' sources.
"""

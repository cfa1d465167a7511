"""Rewriting: the plans of `register fix` and `register bump`, and the byte-preserving edits.

Takes a checked register set, citation outcomes and where cited lines went; gives the new
texts of the register files and the lock, read back, written all or none.
"""

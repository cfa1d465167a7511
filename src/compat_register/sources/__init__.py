"""Pinned sources: what may reach git, git itself, checkouts and the fetch cache.

Takes sources.yaml's `Source`s; gives the text of a file at a pinned commit, git's diff
between two commits, and a synced cache. `gitsource` is the only module importing GitPython.
"""

"""Pinned sources: what may reach git, git itself, checkouts and the fetch cache.

Takes sources.yaml's `Source`s; gives the text of a file at a pinned commit, git's diff
between two commits, a synced cache, and ready-to-paste citations of lines at a pin
(`cite`, pure over the files it is handed). Every git process starts in `git`, the runner.
"""

"""Pinned sources. Takes sources.yaml's `Source`s; gives the text of a file at a pinned
commit, git's history between two, the synced cache, and ready-to-paste citations
(`cite`). Every git process starts in `git`, the runner."""

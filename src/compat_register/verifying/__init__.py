"""Verifying: each citation judged against its pinned source, and the review stamps.

Takes a checked register set, its pinned sources and citations.lock's text; gives each
citation's outcome (`verify`), the lock's stamps and `register stamp`'s plan (`stamps`).
"""

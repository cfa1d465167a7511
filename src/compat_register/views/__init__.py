"""Views stage: what a register set says when read across it, as plain data. Pure.

Takes a checked `RegisterSet`; gives the revision and concept matrices, what each revision
changed, the priorities and the state counts, which `site.renderer` turns into pages.
"""

"""Views stage: what a register set says when read across it, as plain data.

Takes a `RegisterSet` (the model, resolved and checked) and gives the revision matrix, what
each specification revision changed, the priorities and the state counts per register.
Pure: no I/O, no Markdown, nothing from `site`; `site.renderer` turns these into pages.
"""
